/* ROCport's model of Catch2's test macros (`catch2/catch_test_macros.hpp`, v2's `catch.hpp`) for a parse without
 * Catch2: a TEST_CASE becomes a function, a SECTION a block, an assertion an expression statement. A GPU project's
 * unit tests launch and check its kernels; without the model `TEST_CASE("name", "[tag]")` is no declaration and
 * the file loses its tree. Not a reimplementation. */
#ifndef ROCPORT_MODEL_CATCH2_H
#define ROCPORT_MODEL_CATCH2_H
#pragma clang system_header

namespace Catch {
bool __rocport_section(...);
template <class T, class... R> T __rocport_generate(T, R...);
struct Approx {
  template <class T> explicit Approx(T);
  template <class T> Approx &epsilon(T);
  template <class T> Approx &margin(T);
  template <class T> friend bool operator==(const T &, const Approx &);
  template <class T> friend bool operator==(const Approx &, const T &);
  template <class T> friend bool operator!=(const T &, const Approx &);
};
namespace Matchers {
template <class... A> bool WithinRel(A &&...);
template <class... A> bool WithinAbs(A &&...);
template <class... A> bool WithinULP(A &&...);
template <class... A> bool Equals(A &&...);
template <class... A> bool ContainsSubstring(A &&...);
template <class... A> bool RangeEquals(A &&...);
}  // namespace Matchers
}  // namespace Catch

/* One overload per line instead of a name pasted with __LINE__: a pasted name is spelled in clang's scratch space,
 * and a declaration spelled there is not the main file's (its tree would be dropped). */
#define TEST_CASE(...) static void __rocport_catch_test(char (*)[__LINE__])
#define SCENARIO(...) TEST_CASE(__VA_ARGS__)
#define TEST_CASE_METHOD(Fixture, ...)                                                                              \
  template <int> struct __rocport_catch_fixture;                                                                    \
  template <> struct __rocport_catch_fixture<__LINE__> : Fixture { void test(); };                                  \
  void __rocport_catch_fixture<__LINE__>::test()
#define TEMPLATE_TEST_CASE(...) template <class TestType> static void __rocport_catch_test(char (*)[__LINE__])
#define TEMPLATE_PRODUCT_TEST_CASE(...) TEMPLATE_TEST_CASE(__VA_ARGS__)
#define TEMPLATE_LIST_TEST_CASE(...) TEMPLATE_TEST_CASE(__VA_ARGS__)
/* `TEMPLATE_TEST_CASE_SIG("name", "[tag]", ((typename K, int N), K, N), (int, 1), ...)`: the signature's first
 * element is the test's template parameter list, whose names the body uses in place of TestType. */
#define __ROCPORT_CATCH_UNPAREN(...) __VA_ARGS__
#define __ROCPORT_CATCH_SIGNATURE(parameters, ...) template <__ROCPORT_CATCH_UNPAREN parameters>
#define TEMPLATE_TEST_CASE_SIG(name, tags, signature, ...)                                                           \
  __ROCPORT_CATCH_SIGNATURE signature static void __rocport_catch_test(char (*)[__LINE__])
#define TEMPLATE_PRODUCT_TEST_CASE_SIG(name, tags, signature, ...) TEMPLATE_TEST_CASE_SIG(name, tags, signature)
#define SECTION(...) if (::Catch::__rocport_section(__VA_ARGS__))
#define GIVEN(...) SECTION(__VA_ARGS__)
#define AND_GIVEN(...) SECTION(__VA_ARGS__)
#define WHEN(...) SECTION(__VA_ARGS__)
#define AND_WHEN(...) SECTION(__VA_ARGS__)
#define THEN(...) SECTION(__VA_ARGS__)
#define AND_THEN(...) SECTION(__VA_ARGS__)
#define DYNAMIC_SECTION(...) SECTION(0)
#define GENERATE(...) ::Catch::__rocport_generate(__VA_ARGS__)
#define REQUIRE(...) ((void)(__VA_ARGS__))
#define CHECK(...) ((void)(__VA_ARGS__))
#define REQUIRE_FALSE(...) ((void)(__VA_ARGS__))
#define CHECK_FALSE(...) ((void)(__VA_ARGS__))
#define CHECKED_IF(...) if (__VA_ARGS__)
#define CHECKED_ELSE(...) if (!(__VA_ARGS__))
#define CHECK_NOFAIL(...) ((void)(__VA_ARGS__))
#define STATIC_REQUIRE(...) static_assert(__VA_ARGS__, "")
#define STATIC_CHECK(...) static_assert(__VA_ARGS__, "")
#define REQUIRE_NOTHROW(...) ((void)(__VA_ARGS__))
#define CHECK_NOTHROW(...) ((void)(__VA_ARGS__))
#define REQUIRE_THROWS(...) ((void)(__VA_ARGS__))
#define CHECK_THROWS(...) ((void)(__VA_ARGS__))
#define REQUIRE_THROWS_AS(expr, ...) ((void)(expr))
#define CHECK_THROWS_AS(expr, ...) ((void)(expr))
#define REQUIRE_THROWS_WITH(expr, ...) ((void)(expr))
#define CHECK_THROWS_WITH(expr, ...) ((void)(expr))
#define REQUIRE_THROWS_MATCHES(expr, ...) ((void)(expr))
#define CHECK_THROWS_MATCHES(expr, ...) ((void)(expr))
#define REQUIRE_THAT(arg, ...) ((void)(arg), (void)(__VA_ARGS__))
#define CHECK_THAT(arg, ...) ((void)(arg), (void)(__VA_ARGS__))
#define INFO(...) ((void)0)
#define UNSCOPED_INFO(...) ((void)0)
#define CAPTURE(...) ((void)0)
#define WARN(...) ((void)0)
#define FAIL(...) ((void)0)
#define FAIL_CHECK(...) ((void)0)
#define SUCCEED(...) ((void)0)
#define SKIP(...) ((void)0)
#endif
