/* ROCport's model of pybind11 for a parse without its headers: modules, functions, classes, arguments and casts,
 * declared permissively (variadic templates). Enough that a binding file keeps its declarations. */
#ifndef ROCPORT_MODEL_PYBIND11_H
#define ROCPORT_MODEL_PYBIND11_H
#pragma clang system_header
#include "/__rocport_models__/python.h"
namespace pybind11 {
enum class return_value_policy : unsigned char { automatic, automatic_reference, take_ownership, copy, move, reference, reference_internal };
class handle {
public:
  handle();
  handle(PyObject *);
  PyObject *ptr() const;
  template <class T> T cast() const;
  explicit operator bool() const;
  bool is_none() const;
  const handle &inc_ref() const;
  const handle &dec_ref() const;
  template <class... A> class object operator()(A &&...) const;
  class object attr(const char *) const;
  class object operator[](const char *) const;
};
class object : public handle {
public:
  object();
  template <class... A> object(A &&...);
  handle release();
};
class str : public object { public: str(); template <class... A> str(A &&...); operator std::string() const; };
class bytes : public object { public: bytes(); template <class... A> bytes(A &&...); operator std::string() const; };
class int_ : public object { public: int_(); template <class... A> int_(A &&...); operator long() const; };
class float_ : public object { public: float_(); template <class... A> float_(A &&...); operator double() const; };
class bool_ : public object { public: bool_(); template <class... A> bool_(A &&...); operator bool() const; };
class none : public object { public: none(); };
class capsule : public object { public: capsule(); template <class... A> capsule(A &&...); template <class T> T *get_pointer() const; operator void *() const; };
class function : public object { public: function(); template <class... A> function(A &&...); };
class iterable : public object {};
class sequence : public object { public: size_t size() const; object operator[](size_t) const; };
class list : public object { public: list(); template <class... A> list(A &&...); size_t size() const; object operator[](size_t) const; template <class T> void append(T &&); };
class tuple : public object { public: tuple(); template <class... A> tuple(A &&...); size_t size() const; object operator[](size_t) const; };
class dict : public object { public: dict(); template <class... A> dict(A &&...); size_t size() const; object operator[](const char *) const; template <class T> bool contains(T &&) const; };
class args : public tuple {};
class kwargs : public dict {};
class buffer_info { public: void *ptr; ssize_t itemsize; std::string format; ssize_t ndim; std::vector<ssize_t> shape; std::vector<ssize_t> strides; buffer_info(); template <class... A> buffer_info(A &&...); };
class array : public object { public: array(); template <class... A> array(A &&...); buffer_info request(bool = false) const; void *mutable_data(); const void *data() const; ssize_t ndim() const; ssize_t size() const; ssize_t shape(ssize_t) const; };
template <class T, int F = 0> class array_t : public array { public: array_t(); template <class... A> array_t(A &&...); T *mutable_data(); const T *data() const; static array_t ensure(handle); };
class module_ : public object {
public:
  module_();
  explicit module_(const char *, const char * = nullptr);
  template <class F, class... Extra> module_ &def(const char *, F &&, const Extra &...);
  module_ def_submodule(const char *, const char * = nullptr);
  template <class T> module_ &add_object(const char *, T &&, bool = false);
  static module_ import(const char *);
  object attr(const char *) const;
  const char *&doc();
};
using module = module_;
struct arg {
  constexpr explicit arg(const char *);
  template <class T> arg operator=(T &&) const;
  arg &noconvert(bool = true);
  arg &none(bool = true);
};
using arg_v = arg;
template <class... T> struct init_t {};
template <class... T> init_t<T...> init();
template <class F> init_t<F> init(F &&);
/* py::overload_cast<Args...>(&f), (&C::m), (&C::m, py::const_): picks the overload taking exactly Args. */
template <class... T> struct overload_cast_t {
  template <class R> constexpr auto operator()(R (*f)(T...)) const -> decltype(f);
  template <class R, class C> constexpr auto operator()(R (C::*f)(T...), std::false_type = {}) const -> decltype(f);
  template <class R, class C> constexpr auto operator()(R (C::*f)(T...) const, std::true_type) const -> decltype(f);
};
template <class... T> constexpr overload_cast_t<T...> overload_cast{};
constexpr std::true_type const_{};
struct is_method { is_method(const handle &); };
struct name { name(const char *); };
struct doc { doc(const char *); };
struct keep_alive_base {};
template <size_t N, size_t M> struct keep_alive : keep_alive_base {};
struct call_guard_base {};
template <class... T> struct call_guard : call_guard_base {};
struct gil_scoped_release { gil_scoped_release(); };
struct gil_scoped_acquire { gil_scoped_acquire(); };
struct buffer_protocol {};
struct dynamic_attr {};
struct module_local { module_local(bool = true); };
template <class T, class... Options> class class_ : public object {
public:
  template <class... Extra> class_(handle, const char *, const Extra &...);
  template <class... A> class_ &def(A &&...);
  template <class... A> class_ &def_static(A &&...);
  template <class... A> class_ &def_readwrite(A &&...);
  template <class... A> class_ &def_readonly(A &&...);
  template <class... A> class_ &def_readonly_static(A &&...);
  template <class... A> class_ &def_property(A &&...);
  template <class... A> class_ &def_property_readonly(A &&...);
  template <class... A> class_ &def_buffer(A &&...);
};
template <class T> class enum_ : public class_<T> {
public:
  template <class... Extra> enum_(const handle &, const char *, const Extra &...);
  template <class V> enum_ &value(const char *, V, const char * = nullptr);
  enum_ &export_values();
};
class error_already_set { public: const char *what() const; };
class builtin_exception { public: builtin_exception(const char *); };
class value_error : public builtin_exception { public: using builtin_exception::builtin_exception; };
class type_error : public builtin_exception { public: using builtin_exception::builtin_exception; };
class index_error : public builtin_exception { public: using builtin_exception::builtin_exception; };
class key_error : public builtin_exception { public: using builtin_exception::builtin_exception; };
class stop_iteration : public builtin_exception { public: using builtin_exception::builtin_exception; };
template <class T> class exception : public object { public: exception(handle, const char *, handle = handle()); };
template <class T = object, class U> T cast(U &&);
template <class T> bool isinstance(handle);
template <class... A> void print(A &&...);
template <class T> object make_iterator(T, T);
template <class T> str repr(T &&);
template <class T> size_t len(T &&);
object globals();
namespace detail {
template <class... T> struct type_caster { bool load(handle, bool); };
/* A project's own caster (`template <> struct type_caster<glm::vec3>`) names its type for Python with `_("...")`. */
struct descr { template <class... A> constexpr descr(A &&...) {} };
template <class... A> constexpr descr _(A &&...) { return descr(); }
template <class... A> constexpr descr const_name(A &&...) { return descr(); }
template <class... A> constexpr descr concat(A &&...) { return descr(); }
template <class T> struct is_pyobject { static constexpr bool value = false; };
}  // namespace detail
namespace literals { arg operator""_a(const char *, size_t); }
}
namespace py = pybind11;
#define PYBIND11_MODULE(name, variable, ...) void __rocport_pybind11_module_##name(::pybind11::module_ &variable)
#define PYBIND11_PLUGIN(name) ::pybind11::object __rocport_pybind11_plugin_##name()
#define PYBIND11_OVERRIDE(...) return {}
#define PYBIND11_OVERRIDE_PURE(...) return {}
#define PYBIND11_OVERLOAD(...) return {}
#define PYBIND11_OVERLOAD_PURE(...) return {}
#define PYBIND11_MAKE_OPAQUE(...)
#define PYBIND11_DECLARE_HOLDER_TYPE(...)
/* A caster's body: the value it holds, its Python name, the conversions pybind11's dispatcher takes from it. */
#define PYBIND11_TYPE_CASTER(type, py_name)                                                                         \
 protected:                                                                                                         \
  type value;                                                                                                       \
                                                                                                                    \
 public:                                                                                                            \
  static constexpr auto name = py_name;                                                                             \
  operator type *() { return &value; }                                                                              \
  operator type &() { return value; }
#define PYBIND11_NAMESPACE pybind11
#define PYBIND11_NAMESPACE_BEGIN(name) namespace name {
#define PYBIND11_NAMESPACE_END(name) }
/* pybind11 before 2.6 spelled them without the prefix; code written against it still does. */
#ifndef NAMESPACE_BEGIN
#define NAMESPACE_BEGIN(name) namespace name {
#define NAMESPACE_END(name) }
#endif
#define PYBIND11_VERSION_MAJOR 2
#define PYBIND11_VERSION_MINOR 13
#endif
