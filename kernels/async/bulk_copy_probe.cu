// What does Nsight Compute count for a bulk copy through the TMA (cp.async.bulk), which libcu++
// makes of a cuda::memcpy_async of 16-byte alignment bound to a block's cuda::barrier in shared
// memory on compute 9.0? cuda-samples' globalToShmemAsyncCopy kernel 2 copies 16 bytes a lane and
// took 8,192 l1tex__m_xbar2l1tex_read_sectors for 8,192 copies whose bytes lie in 4,096 sectors,
// with no LSU request and no shared wavefront (g2s_ncu_h200.txt). Here: one block of 32 threads,
// each kernel's copies as its name says, once, from a 4 KB-aligned global buffer; every kernel
// checks what landed and prints a mismatch. Run by bulk_copy_probe.sh on an H200.
#include <cuda/barrier>

#pragma nv_diag_suppress static_var_with_dynamic_init

#include <cstdio>

using Barrier = cuda::barrier<cuda::thread_scope_block>;

// `lanes` lanes each copy `bytes` bytes from global byte `lane * stride + at` to shared byte
// `lane * stride`, once.
template <int kBytes>
__device__ void Copy(const char* g, char* out, int lanes, int stride, int at) {
  __shared__ alignas(128) char s[4096];
  __shared__ Barrier bar;
  const int t = threadIdx.x;
  for (int i = t; i < 4096; i += blockDim.x) s[i] = 0;
  if (t == 0) init(&bar, blockDim.x);
  __syncthreads();
  if (t < lanes)
    cuda::memcpy_async(s + t * stride, g + t * stride + at, cuda::aligned_size_t<16>(kBytes), bar);
  bar.arrive_and_wait();
  for (int i = t; i < 4096; i += blockDim.x) out[i] = s[i];
}

// One lane: 16, 32, 64, 256 and 1,024 bytes from a 128-byte line's start; 16 and 48 bytes from 16
// bytes past it (straddling a sector); 32 from 16 past (two sectors' halves).
__global__ void one16(const char* g, char* o) {
  Copy<16>(g, o, 1, 0, 0);
}
__global__ void one32(const char* g, char* o) {
  Copy<32>(g, o, 1, 0, 0);
}
__global__ void one64(const char* g, char* o) {
  Copy<64>(g, o, 1, 0, 0);
}
__global__ void one256(const char* g, char* o) {
  Copy<256>(g, o, 1, 0, 0);
}
__global__ void one1024(const char* g, char* o) {
  Copy<1024>(g, o, 1, 0, 0);
}
__global__ void one16_at16(const char* g, char* o) {
  Copy<16>(g, o, 1, 0, 16);
}
__global__ void one32_at16(const char* g, char* o) {
  Copy<32>(g, o, 1, 0, 16);
}
__global__ void one48_at16(const char* g, char* o) {
  Copy<48>(g, o, 1, 0, 16);
}
// Two lanes, 16 bytes each, the two halves of one sector (the sample's pairs).
__global__ void two16_adjacent(const char* g, char* o) {
  Copy<16>(g, o, 2, 16, 0);
}
// 32 lanes, 16 bytes each, 512 contiguous bytes (16 sectors).
__global__ void warp16(const char* g, char* o) {
  Copy<16>(g, o, 32, 16, 0);
}
// 32 lanes, 64 bytes each, 2 KB contiguous (64 sectors).
__global__ void warp64(const char* g, char* o) {
  Copy<64>(g, o, 32, 64, 0);
}

int main() {
  char *g = nullptr, *o = nullptr;
  cudaMalloc(&g, 8192);
  cudaMalloc(&o, 4096);
  char h[8192];
  for (int i = 0; i < 8192; ++i) h[i] = static_cast<char>(i * 7 + 3);
  cudaMemcpy(g, h, 8192, cudaMemcpyHostToDevice);
  struct K {
    const char* name;
    void (*f)(const char*, char*);
    int bytes, lanes, stride, at;
  } ks[] = {{"one16", one16, 16, 1, 0, 0},
            {"one32", one32, 32, 1, 0, 0},
            {"one64", one64, 64, 1, 0, 0},
            {"one256", one256, 256, 1, 0, 0},
            {"one1024", one1024, 1024, 1, 0, 0},
            {"one16_at16", one16_at16, 16, 1, 0, 16},
            {"one32_at16", one32_at16, 32, 1, 0, 16},
            {"one48_at16", one48_at16, 48, 1, 0, 16},
            {"two16_adjacent", two16_adjacent, 16, 2, 16, 0},
            {"warp16", warp16, 16, 32, 16, 0},
            {"warp64", warp64, 64, 32, 64, 0}};
  int bad = 0;
  for (const K& k : ks) {
    cudaMemset(o, 0, 4096);
    k.f<<<1, 32>>>(g, o);
    char r[4096];
    cudaMemcpy(r, o, 4096, cudaMemcpyDeviceToHost);
    for (int l = 0; l < k.lanes; ++l)
      for (int b = 0; b < k.bytes; ++b)
        if (r[l * k.stride + b] != h[l * k.stride + k.at + b]) ++bad;
    std::printf("%s: %s\n", k.name, cudaGetErrorString(cudaGetLastError()));
  }
  std::printf("%s (%d bytes wrong)\n", bad == 0 ? "PASS" : "FAIL", bad);
  return bad == 0 ? 0 : 1;
}
