// cuRAND's device API on the emulator (shim/curand_kernel.h, runtime/emu_curand.cpp;
// docs/PROGRAMS.md, "cuRAND's device API"): XORWOW and Philox4_32_10 give the sequences cuRAND
// defines, their states are the toolkit's sizes, and a program's copies of a state to and from
// device memory are recorded as the GPU moves them (a struct wider than 16 bytes in pieces of its
// alignment).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "program_test_util.h"
#include "warpscope/program/program.h"

namespace ws {
namespace {

using test::RunText;

// curand() after curand_init(seed, subsequence, offset): the lines scripts/curand_reference.py
// prints, worked out there apart from the shim (XORWOW's skip-ahead as powers of its step's GF(2)
// matrix, each column a Python integer; Philox4x32-10 by its definition, output i of a state the
// word (offset + i) % 4 of the counter (subsequence << 64) + (offset + i) / 4). Two of them are
// published known answers: XORWOW seeded 0 gives 3179217846 first, Philox4x32-10 at counter 0
// and key 0 gives 1713891541 3781805453 3159862348 2600524760 (Random123's vector) and at counter
// 1 4175744164 1555169499.
constexpr const char* kSequences = R"(#include <cstdio>
#include <curand.h>
#include <curand_kernel.h>
__global__ void xorwow(unsigned long long seed, unsigned long long sub, unsigned long long off,
                       unsigned int* out) {
  curandState s;
  curand_init(seed, sub, off, &s);
  for (int i = 0; i < 4; ++i) out[i] = curand(&s);
}
__global__ void philox(unsigned long long seed, unsigned long long sub, unsigned long long off,
                       unsigned int* out) {
  curandStatePhilox4_32_10_t s;
  curand_init(seed, sub, off, &s);
  for (int i = 0; i < 6; ++i) out[i] = curand(&s);
}
int main() {
  unsigned int* d;
  cudaMalloc(&d, 6 * sizeof(unsigned int));
  unsigned int h[6];
  unsigned long long xs[][3] = {{0, 0, 0}, {1234, 0, 0}, {1234, 1, 0}, {1234, 1000, 5},
                                {42, (1ull << 40) + 3, (1ull << 50) + 7}};
  for (auto& x : xs) {
    xorwow<<<1, 1>>>(x[0], x[1], x[2], d);
    cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost);
    printf("xorwow %llu %llu %llu %u %u %u %u\n", x[0], x[1], x[2], h[0], h[1], h[2], h[3]);
  }
  unsigned long long ps[][3] = {{0, 0, 0}, {1234, 0, 0}, {1234, 7, 3}, {42, (1ull << 40) + 3, 9}};
  for (auto& x : ps) {
    philox<<<1, 1>>>(x[0], x[1], x[2], d);
    cudaMemcpy(h, d, 24, cudaMemcpyDeviceToHost);
    printf("philox %llu %llu %llu %u %u %u %u %u %u\n", x[0], x[1], x[2], h[0], h[1], h[2], h[3],
           h[4], h[5]);
  }
}
)";

TEST(Curand, GivesTheReferenceSequences) {
  const LessonRun run = RunText(kSequences);
  ASSERT_TRUE(run.program->ok()) << run.program->failure << run.program->stderr_text;
  EXPECT_EQ(run.program->stdout_text,
            "xorwow 0 0 0 3179217846 1883133293 2220552389 674260989\n"
            "xorwow 1234 0 0 624778773 1867875844 3739671282 1954919316\n"
            "xorwow 1234 1 0 3522650202 3978931785 2198015705 2308946676\n"
            "xorwow 1234 1000 5 1965726562 3476617777 2188219760 607649035\n"
            "xorwow 42 1099511627779 1125899906842631 2633139542 3097110009 2488791588 3585366731\n"
            "philox 0 0 0 1713891541 3781805453 3159862348 2600524760 4175744164 1555169499\n"
            "philox 1234 0 0 546353992 3665621163 1140953199 3419031310 2666454581 482218876\n"
            "philox 1234 7 3 502001991 843890362 2897886456 3571722420 296027329 3990533219\n"
            "philox 42 1099511627779 9 526806934 299355696 2526595381 2228721314 1375550375 "
            "665260347\n");
}

// The skip-aheads agree with stepping and with each other, for XORWOW (whose are the GF(2)
// powers) and Philox (a counter): skipahead(n) is n calls of curand(); 16 skips of 2^63 are one
// subsequence of XORWOW's 2^67; 4 skips of 2^64 are one of Philox's 2^66; curand4 gives the next
// four of curand() from any place among a counter's four; and the uniforms are x 2^-32 + 2^-33
// (x = 0: 2^-33, the smallest; 2^32 - 1: 1, the largest) of the same outputs, XORWOW's double of
// two, Philox's of one, x 2^-32 + 2^-32 (the toolkit's curand_uniform.h).
constexpr const char* kSkips = R"(#include <cstdio>
#include <curand_kernel.h>
template <typename S> __device__ bool Same(S a, S b) {
  for (int i = 0; i < 8; ++i) if (curand(&a) != curand(&b)) return false;
  return true;
}
__global__ void check(int* ok) {
  int i = 0;
  for (unsigned long long n : {1ull, 31ull, 1000ull}) {
    curandState a, b;
    curand_init(7, 3, 0, &a);
    curand_init(7, 3, 0, &b);
    skipahead(n, &a);
    for (unsigned long long k = 0; k < n; ++k) curand(&b);
    ok[i++] = Same(a, b);
    curandStatePhilox4_32_10_t p, q;
    curand_init(7, 3, 2, &p);
    curand_init(7, 3, 2, &q);
    skipahead(n, &p);
    for (unsigned long long k = 0; k < n; ++k) curand(&q);
    ok[i++] = Same(p, q);
  }
  curandState a, b;
  curand_init(9, 0, 5, &a);
  curand_init(9, 1, 5, &b);
  for (int k = 0; k < 16; ++k) skipahead(1ull << 63, &a);
  ok[i++] = Same(a, b);
  curandStatePhilox4_32_10_t p, q;
  curand_init(9, 0, 1, &p);
  curand_init(9, 1, 1, &q);
  for (int k = 0; k < 4; ++k) { skipahead((1ull << 63), &p); skipahead((1ull << 63), &p); }
  ok[i++] = Same(p, q);
  for (unsigned long long off = 0; off < 4; ++off) {
    curandStatePhilox4_32_10_t r, t;
    curand_init(5, 0, off, &r);
    curand_init(5, 0, off, &t);
    uint4 four = curand4(&r);
    ok[i++] = four.x == curand(&t) && four.y == curand(&t) && four.z == curand(&t) &&
              four.w == curand(&t) && Same(r, t);
  }
  curandState u, v;
  curand_init(3, 0, 0, &u);
  curand_init(3, 0, 0, &v);
  ok[i++] = curand_uniform(&u) == _curand_uniform(curand(&v)) && _curand_uniform(0u) == 0x1p-33f &&
            _curand_uniform(0xffffffffu) == 1.0f;
  unsigned int x = curand(&v), y = curand(&v);
  ok[i++] = curand_uniform_double(&u) ==
            (double)((unsigned long long)x ^ ((unsigned long long)y << 21)) * 0x1p-53 + 0x1p-54;
  curandStatePhilox4_32_10_t pu, pv;
  curand_init(3, 0, 0, &pu);
  curand_init(3, 0, 0, &pv);
  ok[i++] = curand_uniform_double(&pu) == (double)curand(&pv) * 0x1p-32 + 0x1p-32;
  ok[i] = -1;
}
int main() {
  int* d;
  cudaMalloc(&d, 32 * sizeof(int));
  check<<<1, 1>>>(d);
  int h[32];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  for (int i = 0; h[i] != -1; ++i) printf("%d", h[i]);
  printf("\n");
}
)";

TEST(Curand, SkipsAgreeWithSteppingAndTheUniformsWithTheirOutputs) {
  const LessonRun run = RunText(kSkips);
  ASSERT_TRUE(run.program->ok()) << run.program->failure << run.program->stderr_text;
  // 3 x 2 skips, the two subsequences, 4 places of curand4, the float and two double uniforms.
  EXPECT_EQ(run.program->stdout_text,
            "111111"
            "11"
            "1111"
            "111"
            "\n");
}

// A Monte Carlo estimate of pi as students write it: states in device memory, curand_init with the
// thread's subsequence, a copy of the state to the thread and back. 65,536 threads, 64 points
// each. The copies are recorded in pieces of the state's alignment, 8 bytes: six loads and six
// stores a thread, a request each a warp: 2,048 warps x 6 = 12,288 requests, and 32 sectors each
// (a lane's 8 bytes 48 apart, in a sector of their own). nvcc moves it field by field, five 8-byte
// pieces and one of 4 (review helper, PTX of nvcc 13): the same six requests, one of them of 4-byte
// lanes, also 32 sectors. curand_init's own writes through &states[id] are the library's, not
// recorded: setup has no site. The sizes are the toolkit's.
constexpr const char* kPi = R"(#include <cstdio>
#include <curand_kernel.h>
__global__ void setup(curandState* states, unsigned long long seed, int n) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id < n) curand_init(seed, id, 0, &states[id]);
}
__global__ void count(curandState* states, int per_thread, unsigned int* hits, int n) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  if (id >= n) return;
  curandState local = states[id];
  unsigned int in = 0;
  for (int i = 0; i < per_thread; ++i) {
    float x = curand_uniform(&local);
    float y = curand_uniform(&local);
    if (x * x + y * y <= 1.0f) ++in;
  }
  states[id] = local;
  atomicAdd(hits, in);
}
int main() {
  const int n = 65536, per = 64;
  curandState* states;
  unsigned int* hits;
  cudaMalloc(&states, n * sizeof(curandState));
  cudaMalloc(&hits, sizeof(unsigned int));
  cudaMemset(hits, 0, sizeof(unsigned int));
  setup<<<n / 256, 256>>>(states, 1234, n);
  count<<<n / 256, 256>>>(states, per, hits, n);
  unsigned int h = 0;
  cudaMemcpy(&h, hits, sizeof h, cudaMemcpyDeviceToHost);
  printf("%zu %zu %.2f\n", sizeof(curandState), sizeof(curandStatePhilox4_32_10_t),
         4.0 * h / (1.0 * n * per));
}
)";

TEST(Curand, AMonteCarloPiRecordsItsStateCopiesAsTheGpuMovesThem) {
  const LessonRun run = RunText(kPi);
  ASSERT_TRUE(run.program->ok()) << run.program->failure << run.program->stderr_text;
  EXPECT_EQ(run.program->stdout_text, "48 64 3.14\n");
  ASSERT_EQ(run.launches.size(), 2u);
  EXPECT_TRUE(run.launches[0].sites.empty());
  const LaunchTrace& t = run.launches[1];
  int copies = 0;
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    if (t.sites[i].op == AccessOp::kAtomic) continue;
    ++copies;
    EXPECT_EQ(t.sites[i].size, 8u);
    EXPECT_EQ(t.stats.sites[i].requests, 12288u);
    EXPECT_EQ(t.stats.sites[i].sectors, 12288u * 32u);
  }
  EXPECT_EQ(copies, 2);
}

// A struct wider than 16 bytes of 4-byte fields (24 bytes, aligned to 4), copied whole, moves in
// six 4-byte pieces, a request each (nvcc's PTX for this copy: six 4-byte loads and six stores):
// 1,024 threads, 32 warps, 192 requests at the load and at the store; a piece's lanes 24 bytes
// apart cover the warp's 768 bytes, 24 sectors a request. Before, the access of 24 bytes stopped
// the run's figures (a trace's access size is 1 to 16). (Where a kernel reads only some fields
// of a copy, nvcc loads only those; the recording takes every piece: a model of the type, not
// of what the compiler keeps.)
constexpr const char* kStruct = R"(#include <cstdio>
struct P { float x, y, z, vx, vy, vz; };
__global__ void copy(const P* in, P* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  out[i] = in[i];
}
int main() {
  const int n = 1024;
  P h[n];
  for (int i = 0; i < n; ++i) h[i] = {(float)i, 0, 0, 0, 0, 0};
  P *a, *b;
  cudaMalloc(&a, sizeof h);
  cudaMalloc(&b, sizeof h);
  cudaMemcpy(a, h, sizeof h, cudaMemcpyHostToDevice);
  copy<<<4, 256>>>(a, b, n);
  cudaMemcpy(h, b, sizeof h, cudaMemcpyDeviceToHost);
  printf("%g %g\n", h[1].x, h[1023].x);
}
)";

TEST(Curand, AStructWiderThanSixteenBytesMovesInPiecesOfItsAlignment) {
  for (const char* engine : {"simt", "fiber"}) {
    ProgramOptions o;
    o.engine = engine;
    const LessonRun run = RunText(kStruct, o);
    ASSERT_TRUE(run.program->ok()) << engine << run.program->failure << run.program->stderr_text;
    EXPECT_EQ(run.program->stdout_text, "1 1023\n") << engine;
    ASSERT_EQ(run.launches.size(), 1u) << engine;
    const LaunchTrace& t = run.launches[0];
    ASSERT_EQ(t.sites.size(), 2u) << engine;
    for (std::size_t i = 0; i < t.sites.size(); ++i) {
      EXPECT_EQ(t.sites[i].size, 4u) << engine;
      EXPECT_EQ(t.stats.sites[i].requests, 192u) << engine;
      EXPECT_EQ(t.stats.sites[i].sectors, 192u * 24u) << engine;
    }
  }
}

// tests/programs/agreement/curand_values.cu on the emulator against its output on an H100 (CUDA
// 13.0, curand_values.gpu.txt beside it): XORWOW and Philox at five seeds, subsequences and
// offsets, 8 of each kind. The integers and the uniforms (floats and doubles) equal the GPU's
// line for line. The normals go through the GPU's own approximations: a float's __sincosf was up
// to 7.7e-7 apart in that run (so at most 1e-6 here), a double normal's sincospi and log a unit in
// the last place in about one value of ten (at most 4 here), a log-normal's expf of a float normal
// 1 to 4 (at most 64 here, where the normal itself may be 1e-6 apart).
TEST(Curand, ItsValuesAreAnH100s) {
  const LessonRun run = RunText(test::ReadExample("../tests/programs/agreement/curand_values.cu"));
  ASSERT_TRUE(run.program->ok()) << run.program->failure << run.program->stderr_text;
  std::ifstream in(WARPSCOPE_SOURCE_DIR "/tests/programs/agreement/curand_values.gpu.txt");
  ASSERT_TRUE(in.good());
  std::istringstream emu(run.program->stdout_text);
  std::string lg, le;
  int lines = 0, exact = 0, near = 0;
  while (std::getline(in, lg)) {
    ASSERT_TRUE(std::getline(emu, le)) << "the emulator printed fewer lines than the GPU";
    ++lines;
    std::istringstream g(lg), e(le);
    std::string kind, kind_e;
    g >> kind;
    e >> kind_e;
    ASSERT_EQ(kind, kind_e);
    if (kind == "int" || kind == "uniform" || kind == "uniform_double" || kind == "xorwow" ||
        kind == "philox") {
      EXPECT_EQ(le, lg);
      ++exact;
      continue;
    }
    std::string a, b;
    while (g >> a) {
      ASSERT_TRUE(e >> b) << le;
      const double x = std::strtod(a.c_str(), nullptr), y = std::strtod(b.c_str(), nullptr);
      if (kind == "normal") {
        EXPECT_LE(std::fabs(x - y), 1e-6) << kind << ": GPU " << a << ", emulator " << b;
      } else if (kind == "normal_double") {
        EXPECT_LE(std::fabs(x - y), 4 * std::ldexp(1.0, std::ilogb(x) - 52))
            << kind << ": GPU " << a << ", emulator " << b;
      } else {
        ASSERT_EQ(kind, "log_normal");
        EXPECT_LE(std::fabs(x - y), 64 * std::ldexp(1.0, std::ilogb(x) - 23))
            << kind << ": GPU " << a << ", emulator " << b;
      }
    }
    ++near;
  }
  // 10 states of 7 lines: a heading, 3 exact and 3 near.
  EXPECT_EQ(lines, 70);
  EXPECT_EQ(exact, 40);
  EXPECT_EQ(near, 30);
}

}  // namespace
}  // namespace ws
