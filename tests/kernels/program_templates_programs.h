// Template launches and extern __shared__ arrays as cuda-samples and courses write them
// (docs/PROGRAMS.md, "Templates and dynamic shared memory"): the programs, what each prints, its
// launches' kernels and static shared memory, and per-site figures by hand. The emulator's test
// (program_templates_test.cpp) and the GPU's (program_templates_gpu_test.cpp) check the same.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "warpscope/program/program.h"

namespace ws::test {

// A site's figures: requests, and sectors (global memory) or wavefronts (shared memory).
struct TemplateSite {
  std::size_t launch;
  std::uint32_t line;
  MemorySpace space;
  AccessOp op;
  std::uint64_t requests, cost;
};

struct TemplateProgram {
  const char* name;
  const char* text;
  const char* printed;                       // the program's whole output
  std::vector<std::string> kernels;          // each launch's kernel, in launch order
  std::vector<std::uint32_t> static_shared;  // and its static __shared__ bytes
  std::vector<TemplateSite> sites;
};

// The issue's shape, as the reduction sample's reduce<T> launches reduce6<T, 512, true>: a kernel
// with two template arguments launched inside a function template, one launch per type. 256
// elements in blocks of 64: 4 blocks, 8 warps a launch.
inline constexpr const char* kSeveralArguments = R"(#include <cstdio>
template <class T, int kBlock>
__global__ void scale(T* a, T s, int n) {
  __shared__ T tile[kBlock];
  int i = blockIdx.x * kBlock + threadIdx.x;
  tile[threadIdx.x] = i < n ? a[i] : T(0);
  __syncthreads();
  if (i < n) a[i] = tile[threadIdx.x] * s;
}
template <class T>
void launch(T* a, T s, int n) {
  scale<T, 64><<<(n + 63) / 64, 64>>>(a, s, n);
}
int main() {
  float* f;
  double* d;
  cudaMallocManaged(&f, 256 * sizeof(float));
  cudaMallocManaged(&d, 256 * sizeof(double));
  for (int i = 0; i < 256; ++i) {
    f[i] = i;
    d[i] = i;
  }
  launch(f, 2.0f, 256);
  launch(d, 3.0, 256);
  cudaDeviceSynchronize();
  printf("%g %g\n", f[255], d[255]);
  return 0;
}
)";

// Dependent arguments: a non-type argument computed from the templates' parameters
// (Tile<kWidth>::kThreads * kScale, sizeof(T) * 8), a member template of a class template, and a
// template argument that is itself a template (flip<Vec2<T>>, closed by `>><<<`).
inline constexpr const char* kDependentArguments = R"(#include <cstdio>
template <class T>
struct Vec2 {
  T x, y;
};
template <int kWidth>
struct Tile {
  static constexpr int kThreads = kWidth * 2;
};
template <class T, int kThreads>
__global__ void fill(T* a, T v) {
  a[blockIdx.x * kThreads + threadIdx.x] = v + T(kThreads);
}
template <class V>
__global__ void flip(V* v) {
  V t = v[threadIdx.x];
  v[threadIdx.x].x = t.y;
  v[threadIdx.x].y = t.x;
}
template <class T, int kWidth>
struct Runner {
  template <int kScale>
  static void Go(T* a, Vec2<T>* v) {
    fill<T, Tile<kWidth>::kThreads * kScale><<<2, Tile<kWidth>::kThreads * kScale>>>(a, T(1));
    fill<T, sizeof(T) * 8><<<1, sizeof(T) * 8>>>(a, T(2));
    flip<Vec2<T>><<<1, 32>>>(v);
  }
};
int main() {
  float* a;
  Vec2<float>* v;
  cudaMallocManaged(&a, 128 * sizeof(float));
  cudaMallocManaged(&v, 32 * sizeof(Vec2<float>));
  for (int i = 0; i < 32; ++i) v[i] = {float(i), -float(i)};
  Runner<float, 16>::Go<2>(a, v);
  cudaDeviceSynchronize();
  printf("%g %g %g %g\n", a[0], a[127], v[3].x, v[3].y);
  return 0;
}
)";

// A template's specializations launched through pointers (one of an alias's type in main(), one
// of an alias template's inside a function template) and by a using-declaration's name: each
// named after the kernel the pointer holds, with its static shared memory.
inline constexpr const char* kPointersAndAliases = R"(#include <cstdio>
namespace kern {
template <class T, int kStride>
__global__ void gather(const T* in, T* out) {
  __shared__ T staged[64];
  staged[threadIdx.x] = in[threadIdx.x * kStride];
  out[threadIdx.x] = staged[threadIdx.x];
}
}  // namespace kern
using kern::gather;
using GatherFn = void (*)(const float*, float*);
template <class T>
using Gather = void (*)(const T*, T*);
template <class T>
void ThroughPointer(const T* in, T* out) {
  Gather<T> k = kern::gather<T, 2>;
  k<<<1, 64>>>(in, out);
}
int main() {
  float *in, *out;
  cudaMallocManaged(&in, 128 * sizeof(float));
  cudaMallocManaged(&out, 64 * sizeof(float));
  for (int i = 0; i < 128; ++i) in[i] = i;
  GatherFn fn = gather<float, 1>;
  fn<<<1, 64>>>(in, out);
  cudaDeviceSynchronize();
  float first = out[63];
  ThroughPointer<float>(in, out);
  cudaDeviceSynchronize();
  float second = out[63];
  gather<float, 2><<<1, 64>>>(in, out);
  cudaDeviceSynchronize();
  printf("%g %g %g\n", first, second, out[10]);
  return 0;
}
)";

// Launches whose kernel is not named by all of its arguments (stamp<7, 2>: T is deduced), a plain
// kernel launched inside a function template, a generic lambda, and launches in templates that
// nothing instantiates (the host compiler still reads them).
inline constexpr const char* kDeducedAndUninstantiated = R"(#include <cstdio>
template <int kValue, int kStep, class T>
__global__ void stamp(T* a) {
  a[threadIdx.x * kStep] = T(kValue);
}
__global__ void zero(float* a) {
  a[threadIdx.x] = 0;
}
template <class T>
void Stamp(T* a) {
  zero<<<1, 64>>>(a);
  stamp<7, 2><<<1, 32>>>(a);
}
template <class T>
void NeverCalled(T* a) {
  stamp<1, 2, T><<<1, 32>>>(a);
}
template <class T>
struct Holder {
  void Unused(T* a) { stamp<2, 4><<<1, 8>>>(a); }
};
int main() {
  float* a;
  cudaMallocManaged(&a, 64 * sizeof(float));
  Stamp(a);
  auto again = [&](auto* p) { stamp<5, 1><<<1, 1>>>(p); };
  again(a);
  Holder<float> h;
  (void)h;
  cudaDeviceSynchronize();
  printf("%g %g %g\n", a[0], a[1], a[2]);
  return 0;
}
)";

// cuda-samples' SharedMemory<T> helper as reduction_kernel.cu writes it: each conversion operator
// declares `extern __shared__ int __smem[]` (the const one is never called, so never
// instantiated), and its specialization for double its own `__smem_d`. A tree sum over 2 blocks
// of 128.
inline constexpr const char* kSharedMemoryHelper = R"(#include <cstdio>
template <class T> struct SharedMemory {
  __device__ inline operator T*() {
    extern __shared__ int __smem[];
    return (T*)__smem;
  }
  __device__ inline operator const T*() const {
    extern __shared__ int __smem[];
    return (T*)__smem;
  }
};
template <> struct SharedMemory<double> {
  __device__ inline operator double*() {
    extern __shared__ double __smem_d[];
    return (double*)__smem_d;
  }
  __device__ inline operator const double*() const {
    extern __shared__ double __smem_d[];
    return (double*)__smem_d;
  }
};
template <class T>
__global__ void sum(const T* in, T* out) {
  T* s = SharedMemory<T>();
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
int main() {
  float *fi, *fo;
  double *di, *dout;
  cudaMallocManaged(&fi, 256 * sizeof(float));
  cudaMallocManaged(&fo, 2 * sizeof(float));
  cudaMallocManaged(&di, 256 * sizeof(double));
  cudaMallocManaged(&dout, 2 * sizeof(double));
  for (int i = 0; i < 256; ++i) fi[i] = di[i] = i;
  sum<float><<<2, 128, 128 * sizeof(float)>>>(fi, fo);
  sum<double><<<2, 128, 128 * sizeof(double)>>>(di, dout);
  cudaDeviceSynchronize();
  printf("%g %g %g %g\n", fo[0], fo[1], dout[0], dout[1]);
  return 0;
}
)";

// Every extern __shared__ declaration of a launch names the same bytes, as on a GPU: two kernels
// each with `extern __shared__ float s[]`, a __device__ function's `int words[]` and a function
// template's `unsigned char raw[]` (read as another type), a kernel template's explicit
// specialization with its own declaration, and a static array before the dynamic one.
inline constexpr const char* kExternSharedAliases = R"(#include <cstdio>
__device__ int* Ints() {
  extern __shared__ int words[];
  return words;
}
template <class T>
__device__ T* Typed() {
  extern __shared__ unsigned char raw[];
  return reinterpret_cast<T*>(raw);
}
__global__ void first(float* out) {
  extern __shared__ float s[];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = Typed<float>()[31 - threadIdx.x];
}
__global__ void second(int* out) {
  __shared__ int counts[8];
  extern __shared__ float s[];
  if (threadIdx.x < 8) counts[threadIdx.x] = threadIdx.x;
  Ints()[threadIdx.x] = threadIdx.x * 10;
  __syncthreads();
  out[threadIdx.x] = __float_as_int(s[threadIdx.x]) + counts[threadIdx.x % 8];
}
template <class T>
__global__ void rotate(T* a) {
  T* s = Typed<T>();
  s[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}
template <>
__global__ void rotate<double>(double* a) {
  extern __shared__ double sd[];
  sd[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = 2 * sd[(threadIdx.x + 1) % blockDim.x];
}
int main() {
  float* f;
  int* n;
  double* d;
  cudaMallocManaged(&f, 32 * sizeof(float));
  cudaMallocManaged(&n, 32 * sizeof(int));
  cudaMallocManaged(&d, 32 * sizeof(double));
  for (int i = 0; i < 32; ++i) {
    n[i] = i;
    d[i] = i;
  }
  first<<<1, 32, 32 * sizeof(float)>>>(f);
  cudaDeviceSynchronize();
  printf("%g %g ", f[0], f[31]);
  rotate<int><<<1, 32, 32 * sizeof(int)>>>(n);
  rotate<double><<<1, 32, 32 * sizeof(double)>>>(d);
  cudaDeviceSynchronize();
  printf("%d %d %g %g ", n[0], n[31], d[0], d[31]);
  second<<<1, 32, 32 * sizeof(float)>>>(n);
  cudaDeviceSynchronize();
  printf("%d %d\n", n[9], n[31]);
  return 0;
}
)";

inline const std::vector<TemplateProgram>& TemplatePrograms() {
  using S = MemorySpace;
  using O = AccessOp;
  static const std::vector<TemplateProgram> programs = {
      {"several arguments",
       kSeveralArguments,
       // 255 * 2 and 255 * 3.
       "510 765\n",
       {"scale<float, 64>", "scale<double, 64>"},
       {64 * 4, 64 * 8},  // tile[64] of each type
       {
           // a[i] (line 6): 8 warps, each 32 consecutive elements: 128 B = 4 sectors of floats,
           // 256 B = 8 sectors of doubles.
           {0, 6, S::kGlobal, O::kLoad, 8, 8 * 4},
           {1, 6, S::kGlobal, O::kLoad, 8, 8 * 8},
           // tile[threadIdx.x] = ...: one wavefront a warp for 4-byte words, two for 8-byte.
           {0, 6, S::kShared, O::kStore, 8, 8},
           {1, 6, S::kShared, O::kStore, 8, 16},
       }},
      {"dependent arguments",
       kDependentArguments,
       // a[0]: 2 + 32 (the second fill, sizeof(float) * 8 = 32 threads); a[127]: 1 + 64 (the
       // first, (16 * 2) * 2 = 64 threads a block, 2 blocks); v[3] = {3, -3} flipped.
       "34 65 -3 3\n",
       {"fill<float, 64>", "fill<float, 32>", "flip<Vec2<float>>"},
       {0, 0, 0},
       {
           // 128 threads, 4 warps of consecutive floats: 4 sectors each.
           {0, 12, S::kGlobal, O::kStore, 4, 4 * 4},
           {1, 12, S::kGlobal, O::kStore, 1, 4},
           // V t = v[threadIdx.x]: one warp's 32 structs of 8 bytes, 256 B = 8 sectors.
           {2, 16, S::kGlobal, O::kLoad, 1, 8},
           // .x of each: 4 bytes every 8, over the same 256 B.
           {2, 17, S::kGlobal, O::kStore, 1, 8},
       }},
      {"pointers and aliases",
       kPointersAndAliases,
       // out[63] = in[63]; then in[126] (stride 2); out[10] = in[20].
       "63 126 20\n",
       {"kern::gather<float, 1>", "kern::gather<float, 2>", "kern::gather<float, 2>"},
       {64 * 4, 64 * 4, 64 * 4},
       {
           // in[threadIdx.x * kStride], 2 warps: stride 1 spans 128 B (4 sectors) a warp,
           // stride 2 spans 256 B (8 sectors).
           {0, 6, S::kGlobal, O::kLoad, 2, 2 * 4},
           {1, 6, S::kGlobal, O::kLoad, 2, 2 * 8},
           {2, 6, S::kGlobal, O::kLoad, 2, 2 * 8},
       }},
      {"deduced and uninstantiated",
       kDeducedAndUninstantiated,
       // a[0] = 5 (the lambda's last launch), a[1] = 0 (zero), a[2] = 7 (stamp<7, 2>'s lane 1).
       "5 0 7\n",
       {"zero", "stamp<7, 2>", "stamp<5, 1>"},
       {0, 0, 0},
       {
           {0, 7, S::kGlobal, O::kStore, 2, 2 * 4},  // 64 consecutive floats
           {1, 4, S::kGlobal, O::kStore, 1, 8},      // stride 2: 256 B
           {2, 4, S::kGlobal, O::kStore, 1, 1},      // one thread
       }},
      {"SharedMemory<T>",
       kSharedMemoryHelper,
       // 0 + ... + 127 = 8128 and 128 + ... + 255 = 24512, for both types.
       "8128 24512 8128 24512\n",
       {"sum<float>", "sum<double>"},
       {0, 0},
       {
           // in[...] (line 26): 2 blocks of 4 warps, 4 sectors a warp for floats, 8 for doubles.
           {0, 26, S::kGlobal, O::kLoad, 8, 8 * 4},
           {1, 26, S::kGlobal, O::kLoad, 8, 8 * 8},
           // s[t] = ...: a wavefront a warp for floats, two for doubles (256 B).
           {0, 26, S::kShared, O::kStore, 8, 8},
           {1, 26, S::kShared, O::kStore, 8, 16},
           // out[blockIdx.x] by thread 0 of each block.
           {0, 32, S::kGlobal, O::kStore, 2, 2},
       }},
      {"extern __shared__ aliases",
       kExternSharedAliases,
       // first: out[t] = 31 - t; rotate<int>: n[0] = 1, n[31] = 0; rotate<double>: d[0] = 2 * 1,
       // d[31] = 2 * 0; second: n[t] = 10 t (written as ints, read back as s[t]'s bits) + t % 8,
       // n[9] = 91, n[31] = 317.
       "31 0 1 0 2 0 91 317\n",
       {"first", "rotate<int>", "rotate<double>", "second"},
       {0, 0, 0, 8 * 4},  // second's counts[8]
       {
           // Typed<float>()[31 - t]: 32 distinct words, one wavefront.
           {0, 15, S::kShared, O::kLoad, 1, 1},
           {2, 35, S::kShared, O::kStore, 1, 2},  // sd[t]: 32 doubles, two wavefronts
           {3, 21, S::kShared, O::kStore, 1, 1},  // Ints()[t]
           {3, 23, S::kGlobal, O::kStore, 1, 4},  // out[t]
       }},
  };
  return programs;
}

// Checks `run` of `p` against what it prints, its launches and its sites' figures.
inline void ExpectTemplateFigures(const TemplateProgram& p, const LessonRun& run) {
  ASSERT_TRUE(run.program.has_value()) << p.name;
  ASSERT_TRUE(run.program->ok()) << p.name << ": " << run.program->failure << "\n"
                                 << run.program->stderr_text;
  EXPECT_EQ(run.program->stdout_text, p.printed) << p.name;
  ASSERT_EQ(run.launches.size(), p.kernels.size()) << p.name;
  for (std::size_t i = 0; i < p.kernels.size(); ++i) {
    EXPECT_EQ(run.launches[i].kernel, p.kernels[i]) << p.name << ", launch " << i;
    EXPECT_EQ(run.launches[i].shared_bytes, p.static_shared[i]) << p.name << ", launch " << i;
  }
  for (const TemplateSite& want : p.sites) {
    const LaunchTrace& t = run.launches[want.launch];
    std::size_t found = 0;
    for (std::size_t i = 0; i < t.sites.size(); ++i) {
      const SiteInfo& s = t.sites[i];
      if (s.line != want.line || s.space != want.space || s.op != want.op) continue;
      ++found;
      const SiteStats& st = t.stats.sites[i];
      EXPECT_EQ(st.requests, want.requests)
          << p.name << ", launch " << want.launch << ", line " << want.line;
      EXPECT_EQ(want.space == MemorySpace::kShared ? st.wavefronts : st.sectors, want.cost)
          << p.name << ", launch " << want.launch << ", line " << want.line;
    }
    EXPECT_EQ(found, 1u) << p.name << ", launch " << want.launch << ": one " << ToString(want.space)
                         << " " << ToString(want.op) << " at line " << want.line;
  }
}

}  // namespace ws::test
