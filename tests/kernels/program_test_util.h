// What the program tests share: running a program's text and reading an example.
#pragma once

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "warpscope/program/program.h"

namespace ws::test {

// Runs `text` as the program "test.cu" (its own #include "..." files from examples/).
inline LessonRun RunText(const std::string& text, ProgramOptions o = {}) {
  return RunProgramText("test.cu", WARPSCOPE_SOURCE_DIR "/examples", text, o);
}

// `text` as test.cu on the emulator, then on the GPU (a 120 s limit), with the same options.
struct BothRuns {
  LessonRun emu, gpu;
};
inline BothRuns RunOnBoth(const std::string& text, ProgramOptions o = {}) {
  BothRuns r;
  r.emu = RunText(text, o);
  o.backend = "cuda";
  o.timeout = std::chrono::seconds(120);
  r.gpu = RunText(text, o);
  return r;
}

// Cooperative groups' multi-warp tiles (program_tiles_test.cpp): two blocks of 256 threads, four
// tiles of 64 (two warps) each; in[i] = i. Line numbers matter.
inline constexpr const char* kTilesProgram = R"(#include <cstdio>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void tiles(const int* in, int* out) {
  __shared__ cg::block_tile_memory<256> scratch;
  __shared__ int s[256];
  cg::thread_block block = cg::this_thread_block(scratch);
  cg::thread_block_tile<64> tile = cg::tiled_partition<64>(block);
  const int t = block.thread_rank();
  const int v = in[blockIdx.x * 256 + t];
  s[t] = v;
  tile.sync();
  const int mirror = s[tile.meta_group_rank() * 64 + 63 - tile.thread_rank()];
  const int sum = cg::reduce(tile, v, cg::plus<int>());
  const int fifth = tile.shfl(v, 5);
  const int any = tile.any(v == 100);
  const int all = tile.all(v % 64 != 63);
  if (tile.thread_rank() == 0) {
    int* o = out + (blockIdx.x * tile.meta_group_size() + tile.meta_group_rank()) * 4;
    o[0] = sum; o[1] = fifth; o[2] = any; o[3] = all;
  }
  out[32 + blockIdx.x * 256 + t] = mirror;
}
__global__ void across(const int* in, int* out) {
  __shared__ int s[256];
  cg::thread_block_tile<64> tile = cg::tiled_partition<64>(cg::this_thread_block());
  const int t = threadIdx.x, g = blockIdx.x * 256 + t;
  s[t] = in[g];
  tile.sync();
  out[g] = s[(t + 64) % 256];
}
int main() {
  int *in, *out;
  cudaMallocManaged(&in, 512 * sizeof(int));
  cudaMallocManaged(&out, (32 + 512) * sizeof(int));
  for (int i = 0; i < 512; ++i) in[i] = i;
  tiles<<<2, 256>>>(in, out);
  cudaDeviceSynchronize();
  for (int k = 0; k < 8; ++k) printf("%d %d %d %d\n", out[4 * k], out[4 * k + 1], out[4 * k + 2], out[4 * k + 3]);
  printf("%d %d %d\n", out[32 + 0], out[32 + 63], out[32 + 300]);
  across<<<2, 256>>>(in, out);
  cudaDeviceSynchronize();
  printf("%d %d\n", out[0], out[300]);
}
)";

// A thread's own arrays (docs/PROGRAMS.md, "Local memory"): `counts` is indexed by data read
// from memory (line 6), so it lives in local memory, and every access to it is recorded there;
// `acc` is indexed only by the counters of loops with constant trip counts, which the compiler
// unrolls away: registers, not recorded. Two warps; in[i] = i, so each lane bumps its own
// counter. Prints "1 0 6" (thread 3's counts[3] and counts[2]; 0 + 1 + 2 + 3).
inline constexpr const char* kLocalArraysProgram = R"(#include <cstdio>
__global__ void hist(const int* in, int* out, int n) {
  int counts[32];
  for (int b = 0; b < 32; ++b) counts[b] = 0;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) counts[in[i] & 31]++;
  for (int b = 0; b < 8; ++b) out[i * 8 + b] = counts[b];
}
__global__ void regs(float* out) {
  float acc[4];
  for (int k = 0; k < 4; ++k) acc[k] = k;
  float s = 0;
  for (int k = 0; k < 4; ++k) s += acc[k];
  out[threadIdx.x] = s;
}
int main() {
  int *in, *out;
  float* f;
  cudaMallocManaged(&in, 64 * sizeof(int));
  cudaMallocManaged(&out, 64 * 8 * sizeof(int));
  cudaMallocManaged(&f, 64 * sizeof(float));
  for (int i = 0; i < 64; ++i) in[i] = i;
  hist<<<1, 64>>>(in, out, 64);
  regs<<<1, 64>>>(f);
  cudaDeviceSynchronize();
  printf("%d %d %g\n", out[3 * 8 + 3], out[3 * 8 + 2], f[5]);
  return 0;
}
)";

// Rows of an `int**` matrix, each its own managed buffer: 4 rows of 32 ints, one warp summing
// d[r][threadIdx.x] over the rows (prints 6: 0 + 1 + 2 + 3).
inline constexpr const char* kPointerRowsProgram = R"(#include <cstdio>
__global__ void sum(int** d, int* out) {
  int s = 0;
  for (int r = 0; r < 4; ++r) s += d[r][threadIdx.x];
  out[threadIdx.x] = s;
}
int main() {
  int** d;
  int* out;
  cudaMallocManaged(&d, 4 * sizeof(int*));
  for (int r = 0; r < 4; ++r) {
    cudaMallocManaged(&d[r], 32 * sizeof(int));
    for (int c = 0; c < 32; ++c) d[r][c] = r;
  }
  cudaMallocManaged(&out, 32 * sizeof(int));
  sum<<<1, 32>>>(d, out);
  cudaDeviceSynchronize();
  printf("%d\n", out[5]);  // 0 + 1 + 2 + 3
}
)";

// The text of examples/NAME ("" when it cannot be read).
inline std::string ReadExample(const std::string& name) {
  FILE* f = std::fopen((std::string(WARPSCOPE_SOURCE_DIR "/examples/") + name).c_str(), "rb");
  std::string text;
  if (f == nullptr) return text;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
  std::fclose(f);
  return text;
}

// A folder of files for one test (removed at the end).
class Folder {
 public:
  explicit Folder(const std::string& name)
      : path_(std::filesystem::temp_directory_path() /
              ("warpscope-course-" + name + "-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~Folder() { std::filesystem::remove_all(path_); }
  void Write(const std::string& name, const std::string& text) const {
    std::filesystem::create_directories((path_ / name).parent_path());
    std::ofstream(path_ / name, std::ios::binary) << text;
  }
  LessonRun Run(const std::string& main, ProgramOptions o = {}) const {
    std::ifstream in(path_ / main, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return RunProgramText(main, path_, s.str(), o);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// The launch's site at `line` (and `column` when given), or null.
inline const SiteInfo* SiteAt(const LaunchTrace& t, std::uint32_t line, std::uint32_t column = 0,
                              std::size_t* index = nullptr) {
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    if (t.sites[i].line == line && (column == 0 || t.sites[i].column == column)) {
      if (index != nullptr) *index = i;
      return &t.sites[i];
    }
  }
  return nullptr;
}

// Floating-point operations counted where they run: the naive matmul's inner loop `sum +=
// a[i * n + k] * b[k * n + j]` is 2 a trip (a multiply and an add), n trips for each of the n x n
// threads: 2 n^3 = 2 x 32^3 = 65,536. `twice`, instantiated with float and with int, shares its
// text between them: not counted in either (collector_flops.cpp). A constant the compiler folds
// (1.0f / 3.0f) counts none; an fmaf counts 2 and `-x * s` 1 (the sign is not an operation): 3 a
// thread of `scale`, 256 threads: 768.
inline constexpr const char* kFlopsProgram = R"(#include <cstdio>
template <typename T>
__global__ void matmul(const T* a, const T* b, T* c, int n) {
  int i = blockIdx.y * blockDim.y + threadIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;
  T sum = 0;
  for (int k = 0; k < n; ++k) sum += a[i * n + k] * b[k * n + j];
  c[i * n + j] = sum;
}
template <typename T>
__global__ void twice(T* x) { x[threadIdx.x] = x[threadIdx.x] * 2; }
__global__ void scale(float* x, float s) {
  const float third = 1.0f / 3.0f;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  x[i] = fmaf(-x[i] * s, third, 1.0f);
}
int main() {
  const int n = 32;
  float *a, *b, *c;
  int* ic;
  cudaMalloc((void**)&a, n * n * sizeof(float));
  cudaMalloc((void**)&b, n * n * sizeof(float));
  cudaMalloc((void**)&c, n * n * sizeof(float));
  cudaMalloc((void**)&ic, n * n * sizeof(int));
  dim3 block(16, 16), grid(n / 16, n / 16);
  matmul<float><<<grid, block>>>(a, b, c, n);
  twice<float><<<1, 32>>>(c);
  twice<int><<<1, 32>>>(ic);
  scale<<<1, 256>>>(c, 2.0f);
  cudaDeviceSynchronize();
  printf("done\n");
  return 0;
}
)";

}  // namespace ws::test
