/* ROCport's model of the CPU BLAS interfaces a GPU project's CPU backend calls (`cblas.h` from OpenBLAS or BLIS, Intel
 * MKL's `mkl.h`): their integer types, the CBLAS enumerations and the calls, loosely (any arguments). A CPU path
 * beside the CUDA one stays readable without a BLAS installed. Not a reimplementation. */
#ifndef ROCPORT_MODEL_CBLAS_H
#define ROCPORT_MODEL_CBLAS_H
#pragma clang system_header
typedef int MKL_INT;
typedef long long MKL_INT64;
typedef int MKL_INT32;
typedef short MKL_INT16;
typedef signed char MKL_INT8;
typedef unsigned char MKL_UINT8;
typedef int blasint;
typedef int f77_int;
typedef enum CBLAS_LAYOUT { CblasRowMajor = 101, CblasColMajor = 102 } CBLAS_LAYOUT;
typedef CBLAS_LAYOUT CBLAS_ORDER;
typedef enum CBLAS_TRANSPOSE { CblasNoTrans = 111, CblasTrans = 112, CblasConjTrans = 113 } CBLAS_TRANSPOSE;
typedef enum CBLAS_UPLO { CblasUpper = 121, CblasLower = 122 } CBLAS_UPLO;
typedef enum CBLAS_DIAG { CblasNonUnit = 131, CblasUnit = 132 } CBLAS_DIAG;
typedef enum CBLAS_SIDE { CblasLeft = 141, CblasRight = 142 } CBLAS_SIDE;
typedef enum CBLAS_IDENTIFIER { CblasAMatrix = 161, CblasBMatrix = 162 } CBLAS_IDENTIFIER;
typedef enum CBLAS_STORAGE { CblasPacked = 151 } CBLAS_STORAGE;
typedef enum CBLAS_OFFSET { CblasRowOffset = 171, CblasColOffset = 172, CblasFixOffset = 173 } CBLAS_OFFSET;
#ifdef __cplusplus
#define ROCPORT_BLAS(name) template <class... A> __rocport_any name(A...);
#else
#define ROCPORT_BLAS(name) double name();
#endif
ROCPORT_BLAS(cblas_sgemm)
ROCPORT_BLAS(cblas_dgemm)
ROCPORT_BLAS(cblas_hgemm)
ROCPORT_BLAS(cblas_sgemv)
ROCPORT_BLAS(cblas_dgemv)
ROCPORT_BLAS(cblas_sgemm_batch)
ROCPORT_BLAS(cblas_dgemm_batch)
ROCPORT_BLAS(cblas_sgemm_batch_strided)
ROCPORT_BLAS(cblas_sgemm_pack)
ROCPORT_BLAS(cblas_sgemm_pack_get_size)
ROCPORT_BLAS(cblas_sgemm_compute)
ROCPORT_BLAS(cblas_gemm_s8u8s32)
ROCPORT_BLAS(cblas_gemm_s8u8s32_pack)
ROCPORT_BLAS(cblas_gemm_s8u8s32_pack_get_size)
ROCPORT_BLAS(cblas_gemm_s8u8s32_compute)
ROCPORT_BLAS(cblas_gemm_s16s16s32)
ROCPORT_BLAS(cblas_gemm_s16s16s32_pack)
ROCPORT_BLAS(cblas_gemm_s16s16s32_pack_get_size)
ROCPORT_BLAS(cblas_gemm_s16s16s32_compute)
ROCPORT_BLAS(cblas_saxpy)
ROCPORT_BLAS(cblas_daxpy)
ROCPORT_BLAS(cblas_saxpby)
ROCPORT_BLAS(cblas_sscal)
ROCPORT_BLAS(cblas_dscal)
ROCPORT_BLAS(cblas_scopy)
ROCPORT_BLAS(cblas_sdot)
ROCPORT_BLAS(cblas_ddot)
ROCPORT_BLAS(cblas_snrm2)
ROCPORT_BLAS(cblas_dnrm2)
ROCPORT_BLAS(cblas_sasum)
ROCPORT_BLAS(cblas_isamax)
ROCPORT_BLAS(cblas_strsm)
ROCPORT_BLAS(cblas_ssyrk)
ROCPORT_BLAS(vsAdd)
ROCPORT_BLAS(vsSub)
ROCPORT_BLAS(vsMul)
ROCPORT_BLAS(vsDiv)
ROCPORT_BLAS(vsExp)
ROCPORT_BLAS(vsLn)
ROCPORT_BLAS(vsTanh)
ROCPORT_BLAS(vsSin)
ROCPORT_BLAS(vsCos)
ROCPORT_BLAS(vsSqrt)
ROCPORT_BLAS(vsPowx)
ROCPORT_BLAS(vsFmax)
ROCPORT_BLAS(vsFmin)
ROCPORT_BLAS(vsErf)
ROCPORT_BLAS(mkl_set_num_threads)
ROCPORT_BLAS(mkl_get_max_threads)
ROCPORT_BLAS(mkl_set_dynamic)
ROCPORT_BLAS(mkl_free_buffers)
ROCPORT_BLAS(mkl_gemm_pack_b_m)
ROCPORT_BLAS(mkl_somatcopy)
ROCPORT_BLAS(openblas_set_num_threads)
ROCPORT_BLAS(openblas_get_num_threads)
#undef ROCPORT_BLAS
#ifdef __cplusplus
extern "C" {
#endif
void *mkl_malloc(unsigned long, int);
void *mkl_calloc(unsigned long, unsigned long, int);
void mkl_free(void *);
#ifdef __cplusplus
}
#endif
#endif
