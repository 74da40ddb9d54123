// A buffer the kernel only reads (docs/ENGINE.md, "A buffer only read"): the rewriter's rule,
// parameter by parameter, and what the SIMT path says when a store reaches such a buffer after
// all through a pointer the rule does not follow.
#include <gtest/gtest.h>

#include <string>

#include "program_engines.h"

namespace ws {
namespace {

using testing_engines::BothUnkept;

#if defined(WS_TESTS_HAVE_REWRITER)  // (a GPU server's build uses a rewriter built elsewhere)
// Each kernel's warp function opens with the pointer parameters it only reads through and the
// others, or without the call where there is none to excuse (or a pointer could come from
// elsewhere). Written by hand from the rule: a read is the pointer, moved by an integer or cast,
// indexed or dereferenced and its element read as a value (or the pointer compared, tested,
// given to __ldg); anything else writes.
TEST(ProgramRewrite, AWarpFunctionNamesThePointersItsKernelOnlyReads) {
  const std::string text = R"(#include <cstdio>
struct Box { int* p; };
struct Pair { float x, y; };
__device__ int* g_ptr;
__global__ void reads(const float* a, const float* b, float* c, const Pair* q, int n) {
  int i = threadIdx.x;
  if (a != nullptr && i < n && !b)
    c[i] = a[i] * *(b + i) + __ldg(&a[i]) + reinterpret_cast<const float2*>(b)[0].x + q->y;
  Pair p = q[i];
  c[i] += p.x + (a + 1 < b ? 1.f : 0.f);
}
__global__ void writes(float* a, float* b, float* c, float* d) {
  a[threadIdx.x] = 1;
  atomicAdd(&b[0], 1.f);
  float* r = c + 1;
  r[0] = 2;
  d[0] += 1;
}
__global__ void mixed(const int* in, int* out, float* f) {
  out[threadIdx.x] = in[threadIdx.x];
  f++;
  f[0] = 1;
}
__global__ void boxed(const int* in, Box b) { b.p[threadIdx.x] = in[threadIdx.x]; }
__global__ void global_ptr(const int* in) { g_ptr[threadIdx.x] = in[threadIdx.x]; }
__global__ void rows(float** m, const float* in) { m[0][threadIdx.x] = in[0]; }
__global__ void loaded(const float* a, const float* in) {
  reinterpret_cast<float* const*>(a)[0][threadIdx.x] = in[0];
}
template <typename T>
__global__ void tpl(const T* in, T* out) { out[threadIdx.x] = in[threadIdx.x]; }
int main() {
  float* x;
  cudaMalloc(&x, 4096);
  tpl<<<1, 32>>>(x, x);
  return 0;
}
)";
  const RewriteResult r = testing_engines::RewriteText("only_read.cu", text);
  ASSERT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0].message);
  const std::string& src = r.program.source;
  // The warp function's first line (OnlyRead comes before anything of the body).
  auto opening = [&](const std::string& kernel) {
    const std::size_t at = src.find(kernel + "__ws_warp(::ws::simt::Warp& ws_W");
    if (at == std::string::npos) return std::string("(no warp function)");
    return src.substr(at, src.find('\n', at) - at);
  };
  auto p = [](const char* name) { return std::string("::ws::simt::PtrOf(") + name + ")"; };
  EXPECT_NE(opening("reads").find("::ws::simt::OnlyRead(ws_W, {" + p("a") + ", " + p("b") + ", " +
                                  p("q") + "}, {" + p("c") + "});"),
            std::string::npos)
      << opening("reads");
  EXPECT_EQ(opening("writes").find("OnlyRead"), std::string::npos) << opening("writes");
  EXPECT_NE(opening("mixed").find("::ws::simt::OnlyRead(ws_W, {" + p("in") + "}, {" + p("out") +
                                  ", " + p("f") + "});"),
            std::string::npos)
      << opening("mixed");
  // A pointer held elsewhere (a struct's member, a __device__ variable, a row of a float**, a
  // pointer read from a buffer) could reach `in`'s buffer: nothing excused.
  for (const char* k : {"boxed", "global_ptr", "rows", "loaded"}) {
    EXPECT_NE(opening(k).find("__ws_warp"), std::string::npos) << k << ": " << opening(k);
    EXPECT_EQ(opening(k).find("OnlyRead"), std::string::npos) << k << ": " << opening(k);
  }
  EXPECT_NE(
      opening("tpl").find("::ws::simt::OnlyRead(ws_W, {" + p("in") + "}, {" + p("out") + "});"),
      std::string::npos)
      << opening("tpl");
}
#endif

// A store that reaches a buffer the kernel's text only reads, through a __device__ pointer a
// helper stores through (which the rule does not look into): block 1 writes in[0..63], which
// block 0 reads. Thread by thread the race check finds 64 write-after-read pairs across blocks;
// the SIMT path skipped the loads of `in` and says so: all 128 of them not checked, in the
// report's numbers and its text.
TEST(Engines, AStoreIntoABufferOnlyReadByTheTextIsReportedNotLost) {
  const std::string text = R"(#include <cstdio>
__device__ int* g_alias;
__device__ void put(int i, int v) { g_alias[i] = v; }
__global__ void shift(const int* in, int* out) {
  const int i = blockIdx.x * 64 + threadIdx.x;
  if (blockIdx.x == 1) put(i - 64, -1);
  out[i] = in[i];
}
int main() {
  int *in, *out;
  cudaMallocManaged(&in, 128 * sizeof(int));
  cudaMallocManaged(&out, 128 * sizeof(int));
  for (int k = 0; k < 128; ++k) in[k] = k;
  cudaMemcpyToSymbol(g_alias, &in, sizeof(in));
  shift<<<2, 64>>>(in, out);
  cudaDeviceSynchronize();
  printf("%d %d\n", out[0], out[64]);
  return 0;
}
)";
  const auto [simt, fiber] = BothUnkept("shift.cu", text);
  ASSERT_TRUE(simt.program->ok()) << simt.program->failure;
  ASSERT_TRUE(fiber.program->ok()) << fiber.program->failure;
  // (A race on purpose: block 0 reads in[0] before or after block 1 writes -1 there, as the
  // workers take the blocks.)
  EXPECT_TRUE(simt.program->stdout_text == "0 64\n" || simt.program->stdout_text == "-1 64\n")
      << simt.program->stdout_text;
  ASSERT_EQ(simt.launches.size(), 1u);
  ASSERT_EQ(fiber.launches.size(), 1u);
  EXPECT_EQ(simt.launches[0].engine, "simt") << simt.launches[0].engine_reason;
  const HazardReport& s = simt.launches[0].hazards;
  const HazardReport& f = fiber.launches[0].hazards;
  EXPECT_EQ(f.Count(HazardKind::kWar), 64u);
  EXPECT_EQ(f.unlogged_reads, 0u);
  EXPECT_EQ(s.unlogged_reads, 128u);
  EXPECT_EQ(s.Total(), 0u);
  EXPECT_NE(s.Checked().find("128 global loads of a buffer the kernel only reads by its text"),
            std::string::npos)
      << s.Checked();
}

// A site that reaches into several buffers (a Jacobi step whose `in` and `out` swap each
// launch: from the second launch on, `out[i]` has stored into both) is keyed by no one buffer;
// its stores are looked at lane by lane, so `w`, which nothing stores into, stays excused: no
// load of it is reported not checked, in any launch (a review found every excused buffer marked
// written by such a store: 1,024 loads of `w` "not checked" in launches 2 and 3).
TEST(Engines, AStoreOfASiteOverSeveralBuffersMarksOnlyItsOwn) {
  const std::string text = R"(#include <cstdio>
__global__ void step(const float* w, const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = w[i] * in[i] + 1.0f;
}
int main() {
  const int n = 1024;
  float *w, *a, *b;
  cudaMallocManaged(&w, n * sizeof(float));
  cudaMallocManaged(&a, n * sizeof(float));
  cudaMallocManaged(&b, n * sizeof(float));
  for (int k = 0; k < n; ++k) { w[k] = 0.5f; a[k] = k; b[k] = 0; }
  for (int it = 0; it < 3; ++it) {
    step<<<n / 256, 256>>>(w, a, b, n);
    float* t = a; a = b; b = t;
  }
  cudaDeviceSynchronize();
  printf("%g\n", a[2]);
  return 0;
}
)";
  const auto [simt, fiber] = BothUnkept("jacobi.cu", text);
  ASSERT_TRUE(simt.program->ok()) << simt.program->failure;
  // a[2]: 2 -> 2 -> 2 (x 0.5 + 1 three times: 2, 2, 2).
  EXPECT_EQ(simt.program->stdout_text, "2\n");
  EXPECT_EQ(simt.program->stdout_text, fiber.program->stdout_text);
  ASSERT_EQ(simt.launches.size(), 3u);
  ASSERT_EQ(fiber.launches.size(), 3u);
  for (std::size_t l = 0; l < 3; ++l) {
    EXPECT_EQ(simt.launches[l].engine, "simt") << simt.launches[l].engine_reason;
    EXPECT_EQ(simt.launches[l].hazards.unlogged_reads, 0u) << "launch " << l;
    EXPECT_EQ(simt.launches[l].hazards.Total(), fiber.launches[l].hazards.Total()) << l;
  }
}

}  // namespace
}  // namespace ws
