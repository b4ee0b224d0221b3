/* ROCport's model of GoogleTest and GoogleMock (`gtest/gtest.h`, `gmock/gmock.h`) for a parse without them: a TEST
 * becomes a function, a TEST_F or TEST_P a member function of a class derived from its fixture, an assertion an
 * expression that takes `<< "message"`. A GPU project's unit tests launch and check its kernels; without the model
 * `TEST(Suite, Name) {` is no declaration and the file loses its tree. Not a reimplementation. */
#ifndef ROCPORT_MODEL_GOOGLETEST_H
#define ROCPORT_MODEL_GOOGLETEST_H
#pragma clang system_header

namespace testing {
/* What an assertion evaluates to: streamed into (`ASSERT_EQ(a, b) << "at " << i;`), then dropped. */
struct __rocport_message {
  template <class T> const __rocport_message &operator<<(const T &) const;
};
typedef __rocport_message Message;
/* `return __rocport_return() = message << ...;`: GoogleTest's own way to return from a void test body. */
struct __rocport_return {
  void operator=(const __rocport_message &) const;
};
template <class... A> __rocport_message __rocport_check(A &&...);
struct Test {
  virtual ~Test();
  virtual void SetUp();
  virtual void TearDown();
  static void SetUpTestSuite();
  static void TearDownTestSuite();
  static void SetUpTestCase();
  static void TearDownTestCase();
  static bool HasFailure();
  static bool HasFatalFailure();
  static void RecordProperty(const char *, const char *);
};
struct Environment {
  virtual ~Environment();
  virtual void SetUp();
  virtual void TearDown();
};
template <class T> struct WithParamInterface {
  typedef T ParamType;
  static const T &GetParam();
};
template <class T> struct TestWithParam : Test, WithParamInterface<T> {};
template <class T> struct TestParamInfo {
  T param;
  unsigned long index;
};
template <class... T> struct Types {};
/* A parameter generator or a matcher: built from anything, passed on to the macros below. */
struct __rocport_generator {
  template <class... A> __rocport_generator(A &&...);
  template <class T> operator T() const;
};
template <class... A> __rocport_generator Values(A &&...);
template <class... A> __rocport_generator ValuesIn(A &&...);
template <class... A> __rocport_generator Range(A &&...);
template <class... A> __rocport_generator Combine(A &&...);
__rocport_generator Bool();
template <class... A> __rocport_generator HasSubstr(A &&...);
template <class... A> __rocport_generator ElementsAre(A &&...);
template <class... A> __rocport_generator ElementsAreArray(A &&...);
template <class... A> __rocport_generator UnorderedElementsAre(A &&...);
template <class... A> __rocport_generator Contains(A &&...);
template <class... A> __rocport_generator Each(A &&...);
template <class... A> __rocport_generator Eq(A &&...);
template <class... A> __rocport_generator Ne(A &&...);
template <class... A> __rocport_generator Lt(A &&...);
template <class... A> __rocport_generator Le(A &&...);
template <class... A> __rocport_generator Gt(A &&...);
template <class... A> __rocport_generator Ge(A &&...);
template <class... A> __rocport_generator FloatEq(A &&...);
template <class... A> __rocport_generator DoubleEq(A &&...);
template <class... A> __rocport_generator FloatNear(A &&...);
template <class... A> __rocport_generator DoubleNear(A &&...);
template <class... A> __rocport_generator Pointwise(A &&...);
template <class... A> __rocport_generator SizeIs(A &&...);
template <class... A> __rocport_generator StartsWith(A &&...);
template <class... A> __rocport_generator EndsWith(A &&...);
template <class... A> __rocport_generator ThrowsMessage(A &&...);
template <class... A> __rocport_generator Not(A &&...);
template <class... A> __rocport_generator AllOf(A &&...);
template <class... A> __rocport_generator AnyOf(A &&...);
template <class... A> __rocport_generator Return(A &&...);
extern __rocport_generator _;
void InitGoogleTest(int *, char **);
void InitGoogleTest();
Environment *AddGlobalTestEnvironment(Environment *);
struct UnitTest {
  static UnitTest *GetInstance();
  int total_test_count() const;
  int failed_test_count() const;
};
extern const char *FLAGS_gtest_death_test_style;
extern const char *FLAGS_gtest_filter;
namespace internal {
void CaptureStdout();
void CaptureStderr();
const char *GetCapturedStdout();
const char *GetCapturedStderr();
}  // namespace internal
}  // namespace testing
int RUN_ALL_TESTS();

/* One overload per line instead of a name pasted from the suite's and the test's: a pasted name is spelled in
 * clang's scratch space, and a declaration spelled there is not the main file's (its tree would be dropped). */
#define TEST(suite, name) static void __rocport_gtest(char (*)[__LINE__])
#define GTEST_TEST(suite, name) TEST(suite, name)
#define __ROCPORT_GTEST_FIXTURE(fixture)                                                                            \
  template <int> struct __rocport_gtest_fixture;                                                                     \
  template <> struct __rocport_gtest_fixture<__LINE__> : fixture { void TestBody(); };                               \
  void __rocport_gtest_fixture<__LINE__>::TestBody()
#define TEST_F(fixture, name) __ROCPORT_GTEST_FIXTURE(fixture)
#define TEST_P(fixture, name) __ROCPORT_GTEST_FIXTURE(fixture)
#define TYPED_TEST(suite, name)                                                                                      \
  template <int, class> struct __rocport_gtest_typed;                                                                \
  template <class TypeParam> struct __rocport_gtest_typed<__LINE__, TypeParam> : suite<TypeParam> {                  \
    typedef suite<TypeParam> TestFixture;                                                                            \
    void TestBody();                                                                                                 \
  };                                                                                                                 \
  template <class TypeParam> void __rocport_gtest_typed<__LINE__, TypeParam>::TestBody()
#define TYPED_TEST_P(suite, name) TYPED_TEST(suite, name)
/* Declarations that register tests: the generator's expression is kept (it names the project's values). */
#define INSTANTIATE_TEST_SUITE_P(prefix, fixture, ...)                                                               \
  static auto __rocport_gtest_values(char (*)[__LINE__]) { return ::testing::__rocport_generator(__VA_ARGS__); }     \
  static_assert(true, "")
#define INSTANTIATE_TEST_CASE_P(prefix, fixture, ...) INSTANTIATE_TEST_SUITE_P(prefix, fixture, __VA_ARGS__)
#define INSTANTIATE_TYPED_TEST_SUITE_P(...) static_assert(true, "")
#define TYPED_TEST_SUITE(...) static_assert(true, "")
#define TYPED_TEST_CASE(...) static_assert(true, "")
#define TYPED_TEST_SUITE_P(...) static_assert(true, "")
#define REGISTER_TYPED_TEST_SUITE_P(...) static_assert(true, "")
#define GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(...) static_assert(true, "")
#define FRIEND_TEST(suite, name) friend struct __rocport_gtest_friend
#define GTEST_FLAG_SET(name, value) ((void)(value))
#define GTEST_FLAG_GET(name) (::testing::__rocport_generator())
#define GTEST_FLAG(name) ::testing::FLAGS_gtest_##name

#define __ROCPORT_GTEST_CHECK(...) ::testing::__rocport_check(__VA_ARGS__)
#define __ROCPORT_GTEST_STATEMENT(statement)                                                                         \
  if (true) {                                                                                                        \
    statement;                                                                                                       \
  } else                                                                                                             \
    ::testing::__rocport_message()
#define EXPECT_TRUE(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define EXPECT_FALSE(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define EXPECT_EQ(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define EXPECT_NE(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define EXPECT_LT(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define EXPECT_LE(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define EXPECT_GT(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define EXPECT_GE(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define EXPECT_NEAR(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define EXPECT_FLOAT_EQ(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define EXPECT_DOUBLE_EQ(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define EXPECT_STREQ(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define EXPECT_STRNE(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define EXPECT_STRCASEEQ(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define EXPECT_THAT(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define EXPECT_PRED1(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define EXPECT_PRED2(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define ASSERT_TRUE(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define ASSERT_FALSE(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define ASSERT_EQ(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define ASSERT_NE(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define ASSERT_LT(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define ASSERT_LE(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define ASSERT_GT(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define ASSERT_GE(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define ASSERT_NEAR(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define ASSERT_FLOAT_EQ(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define ASSERT_DOUBLE_EQ(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define ASSERT_STREQ(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define ASSERT_STRNE(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define ASSERT_STRCASEEQ(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define ASSERT_THAT(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define ASSERT_PRED1(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define ASSERT_PRED2(...) __ROCPORT_GTEST_CHECK(__VA_ARGS__)
#define EXPECT_THROW(statement, ...) __ROCPORT_GTEST_STATEMENT(statement)
#define ASSERT_THROW(statement, ...) __ROCPORT_GTEST_STATEMENT(statement)
#define EXPECT_ANY_THROW(statement) __ROCPORT_GTEST_STATEMENT(statement)
#define ASSERT_ANY_THROW(statement) __ROCPORT_GTEST_STATEMENT(statement)
#define EXPECT_NO_THROW(statement) __ROCPORT_GTEST_STATEMENT(statement)
#define ASSERT_NO_THROW(statement) __ROCPORT_GTEST_STATEMENT(statement)
#define EXPECT_DEATH(statement, ...) __ROCPORT_GTEST_STATEMENT(statement)
#define ASSERT_DEATH(statement, ...) __ROCPORT_GTEST_STATEMENT(statement)
#define EXPECT_DEBUG_DEATH(statement, ...) __ROCPORT_GTEST_STATEMENT(statement)
#define EXPECT_EXIT(statement, ...) __ROCPORT_GTEST_STATEMENT(statement)
#define ASSERT_EXIT(statement, ...) __ROCPORT_GTEST_STATEMENT(statement)
#define EXPECT_NONFATAL_FAILURE(statement, ...) __ROCPORT_GTEST_STATEMENT(statement)
#define EXPECT_FATAL_FAILURE(statement, ...) __ROCPORT_GTEST_STATEMENT(statement)
#define EXPECT_CALL(object, call) ::testing::__rocport_check(object)
#define ON_CALL(object, call) ::testing::__rocport_check(object)
#define MOCK_METHOD(result, name, ...) result name(...)
#define SCOPED_TRACE(...) ((void)0)
#define GTEST_SKIP() return ::testing::__rocport_return() = ::testing::__rocport_message()
#define GTEST_SKIP_(message) return ::testing::__rocport_return() = ::testing::__rocport_message() << (message)
#define FAIL() return ::testing::__rocport_return() = ::testing::__rocport_message()
#define ADD_FAILURE() ::testing::__rocport_message()
#define SUCCEED() ::testing::__rocport_message()
#define GTEST_FAIL() FAIL()
#endif
