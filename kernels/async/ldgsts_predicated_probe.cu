// Why does cuda-samples' globalToShmemAsyncCopy kernel 0 (MultiStageLargeChunk) take 4,723 shared
// wavefronts for 1,024 LDGSTS with lanes on, where kernel 1 (LargeChunk), copying the same
// addresses, takes 2,048 (g2s_ncu_h200.txt)? In kernel 0 ptxas issues the copy with all 32 lanes,
// 24 of them predicated off (`@!P0 LDGSTS`), and four stages go out before the first wait; in
// kernel 1 eight lanes reach it through a branch, one stage at a time. One block of 256 threads as
// the sample's (16 x 16), lanes tx < 4 copying 16 bytes each: a warp's eight copies fill 128
// contiguous shared bytes from two global rows 256 bytes apart. Each kernel varies one thing.
#include <cstdio>

__device__ __forceinline__ void Copy16(void* s, const void* g, bool on) {
  const unsigned sa = static_cast<unsigned>(__cvta_generic_to_shared(s));
  asm volatile("{ .reg .pred p; setp.ne.b32 p, %2, 0; @p cp.async.cg.shared.global [%0], [%1], 16; }"
               ::"r"(sa), "l"(g), "r"(on ? 1 : 0) : "memory");
}
__device__ __forceinline__ void Commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
__device__ __forceinline__ void WaitAll() { asm volatile("cp.async.wait_all;" ::: "memory"); }

// a: the copy under a branch, one stage (kernel 1's form).
__global__ void a_branch_one(const float* g, float* out) {
  __shared__ __align__(16) float s[16][16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  if (tx < 4) {
    const unsigned sa = static_cast<unsigned>(__cvta_generic_to_shared(&s[ty][tx * 4]));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(sa), "l"(&g[64 * ty + 4 * tx]) : "memory");
  }
  Commit(); WaitAll(); __syncthreads();
  out[ty * 16 + tx] = s[ty][tx];
}
// b: the copy predicated on all 32 lanes (8 on), one stage.
__global__ void b_pred_one(const float* g, float* out) {
  __shared__ __align__(16) float s[16][16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  Copy16(&s[ty][(tx & 3) * 4], &g[64 * ty + 4 * (tx & 3)], tx < 4);
  Commit(); WaitAll(); __syncthreads();
  out[ty * 16 + tx] = s[ty][tx];
}
// c: predicated, four stages into four buffers before the wait (kernel 0's form, without its
// fifth, all-off stage).
__global__ void c_pred_four(const float* g, float* out) {
  __shared__ __align__(16) float s[4][16][16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  for (int k = 0; k < 4; ++k) {
    Copy16(&s[k][ty][(tx & 3) * 4], &g[16 * k + 64 * ty + 4 * (tx & 3)], tx < 4);
    Commit();
  }
  WaitAll(); __syncthreads();
  out[ty * 16 + tx] = s[0][ty][tx] + s[3][ty][tx];
}
// d: under a branch, four stages before the wait.
__global__ void d_branch_four(const float* g, float* out) {
  __shared__ __align__(16) float s[4][16][16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  for (int k = 0; k < 4; ++k) {
    if (tx < 4) {
      const unsigned sa = static_cast<unsigned>(__cvta_generic_to_shared(&s[k][ty][tx * 4]));
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(sa), "l"(&g[16 * k + 64 * ty + 4 * tx]) : "memory");
    }
    Commit();
  }
  WaitAll(); __syncthreads();
  out[ty * 16 + tx] = s[0][ty][tx] + s[3][ty][tx];
}
// e: predicated with every lane off (kernel 0's stages past the matrix).
__global__ void e_pred_off(const float* g, float* out, int off) {
  __shared__ __align__(16) float s[16][16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  s[ty][tx] = 0;
  __syncthreads();
  Copy16(&s[ty][(tx & 3) * 4], &g[64 * ty + 4 * (tx & 3)], off == 0 && tx < 4);
  Commit(); WaitAll(); __syncthreads();
  out[ty * 16 + tx] = s[ty][tx];
}
// f: predicated, all 32 lanes on (each lane 16 bytes, 512 contiguous shared bytes from 4 lines).
__global__ void f_pred_all(const float* g, float* out) {
  __shared__ __align__(16) float s[16 * 64];
  const int tx = threadIdx.x, ty = threadIdx.y;
  Copy16(&s[(ty * 16 + tx) * 4], &g[(ty * 16 + tx) * 4], tx < 16);
  Commit(); WaitAll(); __syncthreads();
  out[ty * 16 + tx] = s[ty * 16 + tx];
}

int main() {
  float *g, *out;
  cudaMalloc(&g, 1 << 20);
  cudaMalloc(&out, 1 << 16);
  cudaMemset(g, 0, 1 << 20);
  const dim3 b(16, 16);
  a_branch_one<<<1, b>>>(g, out);
  b_pred_one<<<1, b>>>(g, out);
  c_pred_four<<<1, b>>>(g, out);
  d_branch_four<<<1, b>>>(g, out);
  e_pred_off<<<1, b>>>(g, out, 1);
  f_pred_all<<<1, b>>>(g, out);
  const cudaError_t e = cudaDeviceSynchronize();
  printf("%s\n", cudaGetErrorString(e));
  return e != cudaSuccess;
}
