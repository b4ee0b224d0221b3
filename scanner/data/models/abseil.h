/* ROCport's model of the Abseil names GPU projects' host code calls (`absl/status/status.h`, `absl/types/...`,
 * `absl/strings/...`): TensorFlow's custom operators return `absl::Status` since TensorFlow 2.16. Not a
 * reimplementation. */
#ifndef ROCPORT_MODEL_ABSEIL_H
#define ROCPORT_MODEL_ABSEIL_H
#pragma clang system_header
#include "/__rocport_models__/permissive.h"
namespace absl {
enum class StatusCode : int { kOk = 0, kCancelled, kUnknown, kInvalidArgument, kNotFound, kInternal, kUnimplemented };
struct Status {
  Status();
  template <class... A> Status(A &&...);
  bool ok() const;
  StatusCode code() const;
  std::string_view message() const;
  std::string ToString() const;
};
Status OkStatus();
#define ROCPORT_ABSL_ERROR(name) template <class... A> Status name(A &&...);
ROCPORT_ABSL_ERROR(InvalidArgumentError)
ROCPORT_ABSL_ERROR(InternalError)
ROCPORT_ABSL_ERROR(NotFoundError)
ROCPORT_ABSL_ERROR(UnimplementedError)
ROCPORT_ABSL_ERROR(UnknownError)
ROCPORT_ABSL_ERROR(OutOfRangeError)
ROCPORT_ABSL_ERROR(FailedPreconditionError)
ROCPORT_ABSL_ERROR(ResourceExhaustedError)
#undef ROCPORT_ABSL_ERROR
template <class T> struct StatusOr {
  template <class... A> StatusOr(A &&...);
  bool ok() const;
  const Status &status() const;
  T &value();
  T &operator*();
  T *operator->();
};
using std::optional;
using std::nullopt;
using std::string_view;
template <class T> struct Span {
  Span();
  template <class... A> Span(A &&...);
  T *data() const;
  size_t size() const;
  T *begin() const;
  T *end() const;
  T &operator[](size_t) const;
};
template <class... A> std::string StrCat(A &&...);
template <class... A> void StrAppend(std::string *, A &&...);
template <class... A> std::string StrFormat(A &&...);
template <class... A> std::string StrJoin(A &&...);
template <class... A> __rocport_cx StrSplit(A &&...);
template <class K, class V, class... R> struct flat_hash_map : std::unordered_map<K, V> {};
template <class K, class... R> struct flat_hash_set : std::unordered_set<K> {};
}  // namespace absl
#endif
