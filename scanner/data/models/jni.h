/* ROCport's model of the Java Native Interface (`jni.h`) for a parse without a JDK: the JVM bindings of a GPU library
 * (XGBoost4J, a Spark plugin) are host glue that calls the same C API as its Python side. Java's types, JNIEXPORT and
 * JNICALL, and the JNIEnv calls bindings make, loosely (any arguments, the JNI's result types).
 * Not a reimplementation. */
#ifndef ROCPORT_MODEL_JNI_H
#define ROCPORT_MODEL_JNI_H
#pragma clang system_header
#define JNIEXPORT __attribute__((visibility("default")))
#define JNIIMPORT
#define JNICALL
#define JNI_FALSE 0
#define JNI_TRUE 1
#define JNI_OK 0
#define JNI_ERR (-1)
#define JNI_EDETACHED (-2)
#define JNI_EVERSION (-3)
#define JNI_COMMIT 1
#define JNI_ABORT 2
#define JNI_VERSION_1_2 0x00010002
#define JNI_VERSION_1_4 0x00010004
#define JNI_VERSION_1_6 0x00010006
#define JNI_VERSION_1_8 0x00010008
typedef unsigned char jboolean;
typedef signed char jbyte;
typedef unsigned short jchar;
typedef short jshort;
typedef int jint;
typedef long long jlong;
typedef float jfloat;
typedef double jdouble;
typedef jint jsize;
#ifdef __cplusplus
struct _jobject {};
struct _jclass : _jobject {};
struct _jthrowable : _jobject {};
struct _jstring : _jobject {};
struct _jarray : _jobject {};
struct _jbooleanArray : _jarray {};
struct _jbyteArray : _jarray {};
struct _jcharArray : _jarray {};
struct _jshortArray : _jarray {};
struct _jintArray : _jarray {};
struct _jlongArray : _jarray {};
struct _jfloatArray : _jarray {};
struct _jdoubleArray : _jarray {};
struct _jobjectArray : _jarray {};
typedef _jobject *jobject;
typedef _jclass *jclass;
typedef _jthrowable *jthrowable;
typedef _jstring *jstring;
typedef _jarray *jarray;
typedef _jbooleanArray *jbooleanArray;
typedef _jbyteArray *jbyteArray;
typedef _jcharArray *jcharArray;
typedef _jshortArray *jshortArray;
typedef _jintArray *jintArray;
typedef _jlongArray *jlongArray;
typedef _jfloatArray *jfloatArray;
typedef _jdoubleArray *jdoubleArray;
typedef _jobjectArray *jobjectArray;
typedef jobject jweak;
typedef struct _jfieldID *jfieldID;
typedef struct _jmethodID *jmethodID;
typedef union jvalue { jboolean z; jbyte b; jchar c; jshort s; jint i; jlong j; jfloat f; jdouble d; jobject l; } jvalue;
/* Results typed as the JNI's are: bindings deduce from them (`std::remove_pointer_t<decltype(elements)>`). */
#define ROCPORT_JNI(result, name) template <class... A> result name(A &&...);
struct JNIEnv_ {
  ROCPORT_JNI(jint, GetVersion)
  ROCPORT_JNI(jclass, FindClass)
  ROCPORT_JNI(jclass, GetObjectClass)
  ROCPORT_JNI(jclass, GetSuperclass)
  ROCPORT_JNI(jboolean, IsInstanceOf)
  ROCPORT_JNI(jmethodID, GetMethodID)
  ROCPORT_JNI(jmethodID, GetStaticMethodID)
  ROCPORT_JNI(jfieldID, GetFieldID)
  ROCPORT_JNI(jfieldID, GetStaticFieldID)
  ROCPORT_JNI(jobject, NewObject)
  ROCPORT_JNI(jobjectArray, NewObjectArray)
  ROCPORT_JNI(jstring, NewStringUTF)
  ROCPORT_JNI(jobject, NewGlobalRef)
  ROCPORT_JNI(void, DeleteGlobalRef)
  ROCPORT_JNI(jobject, NewLocalRef)
  ROCPORT_JNI(void, DeleteLocalRef)
  ROCPORT_JNI(jweak, NewWeakGlobalRef)
  ROCPORT_JNI(void, DeleteWeakGlobalRef)
  ROCPORT_JNI(jint, Throw)
  ROCPORT_JNI(jint, ThrowNew)
  ROCPORT_JNI(jthrowable, ExceptionOccurred)
  ROCPORT_JNI(jboolean, ExceptionCheck)
  ROCPORT_JNI(void, ExceptionDescribe)
  ROCPORT_JNI(void, ExceptionClear)
  ROCPORT_JNI(void, FatalError)
  ROCPORT_JNI(jint, GetJavaVM)
  ROCPORT_JNI(const char *, GetStringUTFChars)
  ROCPORT_JNI(void, ReleaseStringUTFChars)
  ROCPORT_JNI(jsize, GetStringUTFLength)
  ROCPORT_JNI(jsize, GetStringLength)
  ROCPORT_JNI(void, GetStringUTFRegion)
  ROCPORT_JNI(jsize, GetArrayLength)
  ROCPORT_JNI(jobject, GetObjectArrayElement)
  ROCPORT_JNI(void, SetObjectArrayElement)
  ROCPORT_JNI(void *, GetDirectBufferAddress)
  ROCPORT_JNI(jlong, GetDirectBufferCapacity)
  ROCPORT_JNI(jobject, NewDirectByteBuffer)
  ROCPORT_JNI(void *, GetPrimitiveArrayCritical)
  ROCPORT_JNI(void, ReleasePrimitiveArrayCritical)
#define ROCPORT_JNI_TYPED(T, t)                                                                                      \
  ROCPORT_JNI(t##Array, New##T##Array)                                                                               \
  ROCPORT_JNI(t *, Get##T##ArrayElements)                                                                            \
  ROCPORT_JNI(void, Release##T##ArrayElements)                                                                       \
  ROCPORT_JNI(void, Get##T##ArrayRegion)                                                                             \
  ROCPORT_JNI(void, Set##T##ArrayRegion)                                                                             \
  ROCPORT_JNI(t, Get##T##Field)                                                                                      \
  ROCPORT_JNI(void, Set##T##Field)                                                                                   \
  ROCPORT_JNI(t, GetStatic##T##Field)                                                                                \
  ROCPORT_JNI(t, Call##T##Method)                                                                                    \
  ROCPORT_JNI(t, CallStatic##T##Method)                                                                              \
  ROCPORT_JNI(t, CallNonvirtual##T##Method)
  ROCPORT_JNI_TYPED(Boolean, jboolean)
  ROCPORT_JNI_TYPED(Byte, jbyte)
  ROCPORT_JNI_TYPED(Char, jchar)
  ROCPORT_JNI_TYPED(Short, jshort)
  ROCPORT_JNI_TYPED(Int, jint)
  ROCPORT_JNI_TYPED(Long, jlong)
  ROCPORT_JNI_TYPED(Float, jfloat)
  ROCPORT_JNI_TYPED(Double, jdouble)
#undef ROCPORT_JNI_TYPED
  ROCPORT_JNI(jobject, GetObjectField)
  ROCPORT_JNI(void, SetObjectField)
  ROCPORT_JNI(jobject, GetStaticObjectField)
  ROCPORT_JNI(jobject, CallObjectMethod)
  ROCPORT_JNI(jobject, CallStaticObjectMethod)
  ROCPORT_JNI(void, CallVoidMethod)
  ROCPORT_JNI(void, CallStaticVoidMethod)
};
struct JavaVM_ {
  ROCPORT_JNI(jint, AttachCurrentThread)
  ROCPORT_JNI(jint, AttachCurrentThreadAsDaemon)
  ROCPORT_JNI(jint, DetachCurrentThread)
  ROCPORT_JNI(jint, GetEnv)
  ROCPORT_JNI(jint, DestroyJavaVM)
};
#undef ROCPORT_JNI
typedef JNIEnv_ JNIEnv;
typedef JavaVM_ JavaVM;
#else
typedef void *jobject, *jclass, *jthrowable, *jstring, *jarray, *jbooleanArray, *jbyteArray, *jcharArray, *jshortArray,
    *jintArray, *jlongArray, *jfloatArray, *jdoubleArray, *jobjectArray, *jweak, *jfieldID, *jmethodID;
typedef const struct JNINativeInterface_ *JNIEnv;
typedef const struct JNIInvokeInterface_ *JavaVM;
#endif
#endif
