// Vendored code: excluded by .rocport.toml, so never reported.
__device__ int vendored_lane() { return threadIdx.x % 32; }
