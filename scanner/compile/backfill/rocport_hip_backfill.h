// ROCport's backfill of the cooperative-groups collectives HIP added after the ROCm 6.3 headers the compile check
// ships (cooperative_groups::reduce, inclusive_scan, exclusive_scan and their operators, as newer HIP and CUDA 11+ have them).
// Written for ROCport, not copied from HIP: the compile check includes it (-include) so that code using these
// APIs is checked whole instead of set aside; it is never shipped to users' builds. Every call goes through the
// group's own members (size, thread_rank, shfl_xor, shfl_up), which a thread_block_tile of HIP 6.3 has, so
// nothing here needs a declaration before the source's own #include <hip/hip_cooperative_groups.h>.
#pragma once

namespace cooperative_groups {

template <class T> struct plus { __device__ T operator()(const T& a, const T& b) const { return a + b; } };
template <class T> struct less { __device__ T operator()(const T& a, const T& b) const { return b < a ? b : a; } };
template <class T> struct greater { __device__ T operator()(const T& a, const T& b) const { return a < b ? b : a; } };
template <class T> struct bit_and { __device__ T operator()(const T& a, const T& b) const { return a & b; } };
template <class T> struct bit_or { __device__ T operator()(const T& a, const T& b) const { return a | b; } };
template <class T> struct bit_xor { __device__ T operator()(const T& a, const T& b) const { return a ^ b; } };

// Every lane of the tile gets the reduction of all of its lanes (a butterfly over the tile's size).
template <class Group, class T, class Op>
__device__ T reduce(const Group& group, T value, Op op) {
  for (unsigned int offset = group.size() / 2; offset > 0; offset /= 2) {
    value = op(value, group.shfl_xor(value, offset));
  }
  return value;
}

// Lane i gets op over lanes 0..i (Hillis-Steele over the tile).
template <class Group, class T, class Op>
__device__ T inclusive_scan(const Group& group, T value, Op op) {
  for (unsigned int offset = 1; offset < group.size(); offset *= 2) {
    T other = group.shfl_up(value, offset);
    if (group.thread_rank() >= offset) value = op(value, other);
  }
  return value;
}

template <class Group, class T>
__device__ T inclusive_scan(const Group& group, T value) {
  return inclusive_scan(group, value, plus<T>());
}

// Lane i gets op over lanes 0..i-1; lane 0 gets T() (CUDA leaves it undefined).
template <class Group, class T, class Op>
__device__ T exclusive_scan(const Group& group, T value, Op op) {
  T inclusive = inclusive_scan(group, value, op);
  T shifted = group.shfl_up(inclusive, 1);
  return group.thread_rank() == 0 ? T() : shifted;
}

template <class Group, class T>
__device__ T exclusive_scan(const Group& group, T value) {
  return exclusive_scan(group, value, plus<T>());
}

}  // namespace cooperative_groups
