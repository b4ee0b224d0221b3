# Kept for the old Jetson build: FindCUDA-era helpers.
find_package(CUDA 11.0 REQUIRED)
cuda_add_library(demo_legacy SHARED ${CMAKE_CURRENT_LIST_DIR}/../src/gemm.cu)
cuda_add_cublas_to_target(demo_legacy)
