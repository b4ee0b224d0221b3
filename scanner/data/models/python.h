/* ROCport's model of Python.h (CPython's C API) for a parse without Python's headers: the types and calls an
 * extension module uses, declared loosely. C and C++. Not a reimplementation. */
#ifndef ROCPORT_MODEL_PYTHON_H
#define ROCPORT_MODEL_PYTHON_H
#pragma clang system_header
typedef long Py_ssize_t;
typedef long Py_hash_t;
typedef struct _typeobject PyTypeObject;
typedef struct _object { Py_ssize_t ob_refcnt; PyTypeObject *ob_type; } PyObject;
typedef struct { PyObject ob_base; Py_ssize_t ob_size; } PyVarObject;
typedef PyObject *(*PyCFunction)(PyObject *, PyObject *);
typedef struct PyMethodDef { const char *ml_name; PyCFunction ml_meth; int ml_flags; const char *ml_doc; } PyMethodDef;
typedef struct PyModuleDef_Base { PyObject ob_base; void *m_init; Py_ssize_t m_index; PyObject *m_copy; } PyModuleDef_Base;
typedef struct PyModuleDef {
  PyModuleDef_Base m_base; const char *m_name; const char *m_doc; Py_ssize_t m_size; PyMethodDef *m_methods;
  void *m_slots; void *m_traverse; void *m_clear; void *m_free;
} PyModuleDef;
typedef struct { void *buf; PyObject *obj; Py_ssize_t len; Py_ssize_t itemsize; int readonly; int ndim; char *format;
  Py_ssize_t *shape; Py_ssize_t *strides; Py_ssize_t *suboffsets; void *internal; } Py_buffer;
typedef int PyGILState_STATE;
typedef struct _ts PyThreadState;
#define PyObject_HEAD PyObject ob_base;
#define PyObject_VAR_HEAD PyVarObject ob_base;
#define PyModuleDef_HEAD_INIT {{1, 0}, 0, 0, 0}
#define PyMODINIT_FUNC PyObject *
#define METH_VARARGS 0x0001
#define METH_KEYWORDS 0x0002
#define METH_NOARGS 0x0004
#define METH_O 0x0008
#define METH_FASTCALL 0x0080
#define PY_SSIZE_T_CLEAN
#define PY_MAJOR_VERSION 3
#define PY_MINOR_VERSION 11
#define PY_VERSION_HEX 0x030B00F0
#define Py_None ((PyObject *)0)
#define Py_True ((PyObject *)0)
#define Py_False ((PyObject *)0)
#define Py_RETURN_NONE return Py_None
#define Py_RETURN_TRUE return Py_True
#define Py_RETURN_FALSE return Py_False
#define Py_INCREF(o) ((void)(o))
#define Py_DECREF(o) ((void)(o))
#define Py_XINCREF(o) ((void)(o))
#define Py_XDECREF(o) ((void)(o))
#define Py_CLEAR(o) ((void)(o))
#define Py_TYPE(o) (((PyObject *)(o))->ob_type)
#define Py_BEGIN_ALLOW_THREADS {
#define Py_END_ALLOW_THREADS }
#ifdef __cplusplus
extern "C" {
#endif
extern PyObject *PyExc_RuntimeError, *PyExc_ValueError, *PyExc_TypeError, *PyExc_MemoryError, *PyExc_IndexError,
    *PyExc_KeyError, *PyExc_NotImplementedError, *PyExc_OverflowError, *PyExc_AttributeError, *PyExc_Exception;
PyObject *PyModule_Create(PyModuleDef *);
PyObject *PyModule_Create2(PyModuleDef *, int);
int PyModule_AddObject(PyObject *, const char *, PyObject *);
int PyModule_AddIntConstant(PyObject *, const char *, long);
int PyModule_AddStringConstant(PyObject *, const char *, const char *);
int PyArg_ParseTuple(PyObject *, const char *, ...);
int PyArg_ParseTupleAndKeywords(PyObject *, PyObject *, const char *, char **, ...);
PyObject *Py_BuildValue(const char *, ...);
PyObject *PyLong_FromLong(long);
PyObject *PyLong_FromLongLong(long long);
PyObject *PyLong_FromSize_t(unsigned long);
PyObject *PyLong_FromVoidPtr(void *);
long PyLong_AsLong(PyObject *);
long long PyLong_AsLongLong(PyObject *);
void *PyLong_AsVoidPtr(PyObject *);
PyObject *PyFloat_FromDouble(double);
double PyFloat_AsDouble(PyObject *);
PyObject *PyBool_FromLong(long);
PyObject *PyUnicode_FromString(const char *);
const char *PyUnicode_AsUTF8(PyObject *);
PyObject *PyBytes_FromStringAndSize(const char *, Py_ssize_t);
char *PyBytes_AsString(PyObject *);
PyObject *PyTuple_New(Py_ssize_t);
PyObject *PyTuple_GetItem(PyObject *, Py_ssize_t);
int PyTuple_SetItem(PyObject *, Py_ssize_t, PyObject *);
Py_ssize_t PyTuple_Size(PyObject *);
PyObject *PyList_New(Py_ssize_t);
PyObject *PyList_GetItem(PyObject *, Py_ssize_t);
int PyList_SetItem(PyObject *, Py_ssize_t, PyObject *);
int PyList_Append(PyObject *, PyObject *);
Py_ssize_t PyList_Size(PyObject *);
PyObject *PyDict_New(void);
int PyDict_SetItemString(PyObject *, const char *, PyObject *);
PyObject *PyDict_GetItemString(PyObject *, const char *);
PyObject *PyCapsule_New(void *, const char *, void (*)(PyObject *));
void *PyCapsule_GetPointer(PyObject *, const char *);
PyObject *PyObject_GetAttrString(PyObject *, const char *);
PyObject *PyObject_CallObject(PyObject *, PyObject *);
PyObject *PyObject_CallFunction(PyObject *, const char *, ...);
int PyObject_GetBuffer(PyObject *, Py_buffer *, int);
void PyBuffer_Release(Py_buffer *);
PyObject *PyImport_ImportModule(const char *);
void PyErr_SetString(PyObject *, const char *);
PyObject *PyErr_Format(PyObject *, const char *, ...);
PyObject *PyErr_Occurred(void);
void PyErr_Clear(void);
PyObject *PyErr_NoMemory(void);
int PyType_Ready(PyTypeObject *);
PyGILState_STATE PyGILState_Ensure(void);
void PyGILState_Release(PyGILState_STATE);
PyThreadState *PyEval_SaveThread(void);
void PyEval_RestoreThread(PyThreadState *);
int Py_IsInitialized(void);
void *PyMem_Malloc(unsigned long);
void PyMem_Free(void *);
int PyLong_Check(PyObject *);
int PyFloat_Check(PyObject *);
int PyTuple_Check(PyObject *);
int PyList_Check(PyObject *);
int PyDict_Check(PyObject *);
int PyUnicode_Check(PyObject *);
int PyCallable_Check(PyObject *);
#ifdef __cplusplus
}
#endif
#endif
