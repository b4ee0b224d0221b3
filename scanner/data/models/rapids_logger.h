/* ROCport's model of RAPIDS' logger (`rapids_logger/logger.hpp`) for a parse without it: the level enumeration
 * RAPIDS libraries pass through their APIs (`rapids_logger::level_enum verbosity`), the logger and its sinks. Not
 * a reimplementation. */
#ifndef ROCPORT_MODEL_RAPIDS_LOGGER_H
#define ROCPORT_MODEL_RAPIDS_LOGGER_H
#pragma clang system_header
namespace rapids_logger {
enum class level_enum : int { trace, debug, info, warn, error, critical, off, n_levels };
struct sink {
  virtual ~sink();
  template <class... A> void set_level(A &&...);
  template <class... A> void set_pattern(A &&...);
  void flush();
};
typedef std::shared_ptr<sink> sink_ptr;
#define ROCPORT_RAPIDS_SINK(name)                                                                                  \
  struct name : sink {                                                                                             \
    name();                                                                                                        \
    template <class... A> explicit name(A &&...);                                                                  \
  };
ROCPORT_RAPIDS_SINK(stderr_sink_mt)
ROCPORT_RAPIDS_SINK(stdout_sink_mt)
ROCPORT_RAPIDS_SINK(basic_file_sink_mt)
ROCPORT_RAPIDS_SINK(ostream_sink_mt)
ROCPORT_RAPIDS_SINK(callback_sink_mt)
ROCPORT_RAPIDS_SINK(null_sink_mt)
#undef ROCPORT_RAPIDS_SINK
class logger {
 public:
  template <class... A> logger(A &&...);
  logger(std::string, std::vector<sink_ptr>);
  void set_level(level_enum);
  level_enum level() const;
  bool should_log(level_enum) const;
  template <class... A> void set_pattern(A &&...);
  void flush();
  template <class... A> void flush_on(A &&...);
  std::vector<sink_ptr> &sinks();
  template <class... A> void log(A &&...);
  template <class... A> void trace(A &&...);
  template <class... A> void debug(A &&...);
  template <class... A> void info(A &&...);
  template <class... A> void warn(A &&...);
  template <class... A> void error(A &&...);
  template <class... A> void critical(A &&...);
};
}  // namespace rapids_logger
#endif
