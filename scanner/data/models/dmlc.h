/* ROCport's model of dmlc-core (`dmlc/logging.h`, `dmlc/parameter.h`, `dmlc/registry.h`, `dmlc/io.h`...), the common
 * layer of XGBoost, MXNet and TVM's elder releases, for a parse without it: a git submodule a bare checkout lacks.
 * Its glog-style checks (`CHECK_EQ(a, b) << "..."`, `LOG(FATAL) << ...`), parameter structs, registries and streams
 * are declared loosely; the macros that write declarations (`DMLC_REGISTRY_FILE_TAG(x);`) write harmless ones. Not
 * a reimplementation. */
#ifndef ROCPORT_MODEL_DMLC_H
#define ROCPORT_MODEL_DMLC_H
#pragma clang system_header
#include "/__rocport_models__/permissive.h"

namespace dmlc {
typedef float real_t;
typedef unsigned long omp_ulong;
typedef unsigned omp_uint;
struct Error : std::runtime_error {
  Error(const std::string &);
  const char *what() const noexcept;
};
struct ParamError : Error {
  ParamError(const std::string &);
};
/* What a check or a log line evaluates to: streamed into, then dropped. */
struct __rocport_log {
  template <class T> const __rocport_log &operator<<(const T &) const;
  const __rocport_log &stream() const;
};
struct LogMessage : __rocport_log {
  LogMessage(const char *, int);
};
struct LogMessageFatal : __rocport_log {
  LogMessageFatal(const char *, int);
};
struct CustomLogMessage : __rocport_log {
  CustomLogMessage(const char *, int);
  static void Log(const std::string &);
};
struct DateLogger {
  const char *HumanDate();
};
template <class... A> __rocport_log __rocport_check(A &&...);
template <class T> T *BeginPtr(std::vector<T> &);
template <class T> const T *BeginPtr(const std::vector<T> &);
inline char *BeginPtr(std::string &);
inline const char *BeginPtr(const std::string &);
template <class T> T ByteSwap(T);
template <class... A> void ByteSwap(A &&...);
template <class T> T GetEnv(const char *, T);
template <class T> void SetEnv(const char *, T);
struct Stream {
  virtual ~Stream();
  virtual size_t Read(void *, size_t);
  virtual size_t Write(const void *, size_t);
  template <class T> bool Read(T *);
  template <class T> void Write(const T &);
  template <class... A> static Stream *Create(A &&...);
};
struct SeekStream : Stream {
  virtual void Seek(size_t);
  virtual size_t Tell();
  template <class... A> static SeekStream *CreateForRead(A &&...);
};
struct Serializable {
  virtual ~Serializable();
  virtual void Load(Stream *);
  virtual void Save(Stream *) const;
};
struct istream : std::istream {
  template <class... A> istream(A &&...);
};
struct ostream : std::istream {
  template <class... A> ostream(A &&...);
};
struct TemporaryDirectory {
  TemporaryDirectory(bool = false);
  std::string path;
};
struct OMPException {
  template <class F, class... A> void Run(F, A &&...);
  void Rethrow();
};
template <class T> struct ThreadLocalStore {
  static T *Get();
};
struct JSONReader : __rocport_cx {
  using __rocport_cx::__rocport_cx;
};
struct JSONWriter : __rocport_cx {
  using __rocport_cx::__rocport_cx;
};
template <class... T> struct RowBlock : __rocport_cx {
  size_t size;
  using __rocport_cx::__rocport_cx;
};
template <class... T> struct DataIter {
  virtual ~DataIter();
  virtual void BeforeFirst();
  virtual bool Next();
  virtual const RowBlock<T...> &Value() const;
};
template <class... T> struct Parser : DataIter<T...> {
  template <class... A> static Parser *Create(A &&...);
};
namespace io {
struct URI {
  template <class... A> URI(A &&...);
  std::string protocol, host, name;
  std::string str() const;
};
}  // namespace io
namespace parameter {
template <class T> struct FieldEntry {
  FieldEntry &set_default(const T &);
  FieldEntry &describe(const std::string &);
  FieldEntry &set_range(T, T);
  FieldEntry &set_lower_bound(T);
  FieldEntry &set_upper_bound(T);
  FieldEntry &add_enum(const std::string &, int);
};
struct ParamManager {};
template <class P> struct ParamManagerSingleton {
  ParamManager manager;
};
}  // namespace parameter
template <class P> struct Parameter {
  template <class C> void Init(const C &, ...);
  template <class C> std::vector<std::pair<std::string, std::string>> InitAllowUnknown(const C &, ...);
  template <class C> std::vector<std::pair<std::string, std::string>> UpdateAllowUnknown(const C &, ...);
  template <class C> std::vector<std::pair<std::string, std::string>> UpdateAllowUnknown(const C &, bool *);
  std::map<std::string, std::string> __DICT__() const;
  void Save(JSONWriter *) const;
  void Load(JSONReader *);
  static std::vector<__rocport_cx> __FIELDS__();
  template <class M, class T> parameter::FieldEntry<T> &DECLARE(M *, const std::string &, T &);
  template <class M> void __rocport_alias(M *, const char *, const char *);
};
template <class E> struct Registry {
  static Registry *Get();
  E &__REGISTER__(const std::string &);
  E &__REGISTER_OR_GET__(const std::string &);
  static const E *Find(const std::string &);
  static const std::vector<const E *> &List();
  static std::vector<std::string> ListAllNames();
  void AddAlias(const std::string &, const std::string &);
};
template <class E, class F> struct FunctionRegEntryBase {
  std::string name, description, return_type;
  F body;
  E &describe(const std::string &);
  E &set_body(F);
  E &add_argument(const std::string &, const std::string &, const std::string &);
  template <class... A> E &add_arguments(A &&...);
  E &set_return_type(const std::string &);
};
}  // namespace dmlc

/* dmlc/logging.h: glog's macros; a project's own logging header may redefine LOG_INFO and the like (it wins). */
#define LOG_FATAL ::dmlc::LogMessageFatal(__FILE__, __LINE__)
#define LOG_ERROR ::dmlc::LogMessage(__FILE__, __LINE__)
#define LOG_WARNING ::dmlc::LogMessage(__FILE__, __LINE__)
#define LOG_INFO ::dmlc::LogMessage(__FILE__, __LINE__)
#define LOG_DEBUG ::dmlc::LogMessage(__FILE__, __LINE__)
#define LOG_QFATAL LOG_FATAL
#define LOG(severity) LOG_##severity.stream()
#define LG LOG_INFO.stream()
#define LOG_IF(severity, condition) !(condition) ? (void)0 : (void)LOG(severity)
#define DLOG(severity) LOG(severity)
#define DLOG_IF(severity, condition) LOG_IF(severity, condition)
#define CHECK(...) ::dmlc::__rocport_check(__VA_ARGS__)
#define CHECK_EQ(...) ::dmlc::__rocport_check(__VA_ARGS__)
#define CHECK_NE(...) ::dmlc::__rocport_check(__VA_ARGS__)
#define CHECK_LT(...) ::dmlc::__rocport_check(__VA_ARGS__)
#define CHECK_LE(...) ::dmlc::__rocport_check(__VA_ARGS__)
#define CHECK_GT(...) ::dmlc::__rocport_check(__VA_ARGS__)
#define CHECK_GE(...) ::dmlc::__rocport_check(__VA_ARGS__)
#define CHECK_NOTNULL(x) (x)
#define DCHECK(...) CHECK(__VA_ARGS__)
#define DCHECK_EQ(...) CHECK(__VA_ARGS__)
#define DCHECK_NE(...) CHECK(__VA_ARGS__)
#define DCHECK_LT(...) CHECK(__VA_ARGS__)
#define DCHECK_LE(...) CHECK(__VA_ARGS__)
#define DCHECK_GT(...) CHECK(__VA_ARGS__)
#define DCHECK_GE(...) CHECK(__VA_ARGS__)
/* dmlc/base.h */
#define DMLC_USE_CXX11 1
#define DMLC_STRICT_CXX11 1
#define DMLC_CXX11_THREAD_LOCAL 1
#define DMLC_ENABLE_STD_THREAD 1
#define DMLC_LITTLE_ENDIAN 1
#define DMLC_IO_NO_ENDIAN_SWAP 1
#define DMLC_ATTRIBUTE_UNUSED __attribute__((unused))
#define DMLC_THROW_EXCEPTION noexcept(false)
#define DMLC_NO_EXCEPTION noexcept(true)
#define DMLC_ALWAYS_INLINE inline
#define DMLC_NO_INLINE
#define DMLC_LOG_STACK_TRACE 0
/* dmlc/parameter.h and dmlc/registry.h: the declarations these macros write. */
#define DMLC_DECLARE_PARAMETER(P) template <class __rocport_M> void __DECLARE__(__rocport_M *manager)
#define DMLC_DECLARE_FIELD(field) this->DECLARE(manager, #field, field)
#define DMLC_DECLARE_ALIAS(field, alias) this->__rocport_alias(manager, #field, #alias)
#define DMLC_REGISTER_PARAMETER(...) static_assert(true, "")
#define DMLC_DECLARE_TRAITS(...) static_assert(true, "")
#define DMLC_DECLARE_TYPE_NAME(...) static_assert(true, "")
#define DMLC_REGISTRY_ENABLE(...) static_assert(true, "")
#define DMLC_REGISTRY_FILE_TAG(...) static_assert(true, "")
#define DMLC_REGISTRY_LINK_TAG(...) static_assert(true, "")
#define DMLC_REGISTRY_REGISTER(EntryType, EntryTypeName, Name)                                                      \
  static DMLC_ATTRIBUTE_UNUSED EntryType &__make_##EntryTypeName##_##Name##__ =                                      \
      ::dmlc::Registry<EntryType>::Get()->__REGISTER__(#Name)
#endif
