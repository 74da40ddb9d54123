// Every way a program can fail ends in a message naming what went wrong, never a hang or a
// crash of the caller: a bad index, a barrier, an endless loop, a crash, an assert, compile and
// link errors, too much memory.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <utility>
#include <vector>

#include "program_test_util.h"
#include "warpscope/program/program.h"

namespace ws {
namespace {

using test::RunText;

TEST(Programs, AnIndexOutOfRangeNamesTheLineTheBufferAndTheThread) {
  const std::string text =
      "#include <cuda_runtime.h>\n"
      "__global__ void k(float* out, const float* in, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  out[i] = in[i + 1];\n"  // line 4: the last thread reads one past the end
      "}\n"
      "int main() {\n"
      "  float *d_in, *d_out;\n"
      "  cudaMalloc(&d_in, 64 * sizeof(float));\n"
      "  cudaMalloc(&d_out, 64 * sizeof(float));\n"
      "  k<<<2, 32>>>(d_out, d_in, 64);\n"
      "  cudaDeviceSynchronize();\n"
      "  return 0;\n"
      "}\n";
  LessonRun run = RunText(text);
  ASSERT_FALSE(run.program->ok());
  EXPECT_EQ(run.program->stage, ProgramStage::kRun);
  // Thread 31 of block 1 reads in[64]: element 64 of a 64-float buffer, 0 bytes past its end.
  EXPECT_NE(run.program->failure.find("line 4: column 12: a load of 4 bytes"), std::string::npos)
      << run.program->failure;
  EXPECT_NE(run.program->failure.find("index 64 of d_in, which holds 64 elements"),
            std::string::npos)
      << run.program->failure;
  EXPECT_NE(run.program->failure.find("thread (31,0,0) of block (1,0,0)"), std::string::npos)
      << run.program->failure;
}

// The commonest shared-memory bug, a halo off by one: thread 31 stores s[32] of a 32-int array.
// Named as the shared array, its index and size, as compute-sanitizer's memcheck does on a GPU
// (not as the nearest global buffer with a host address).
TEST(Programs, AnIndexPastASharedArrayNamesTheArrayItsIndexAndTheThread) {
  const std::string text =
      "__global__ void halo(int* out) {\n"
      "  __shared__ int s[32];\n"
      "  s[threadIdx.x + 1] = threadIdx.x;\n"
      "  __syncthreads();\n"
      "  out[threadIdx.x] = s[threadIdx.x];\n"
      "}\n"
      "int main() {\n"
      "  int* d;\n"
      "  cudaMalloc(&d, 32 * sizeof(int));\n"
      "  halo<<<1, 32>>>(d);\n"
      "  cudaDeviceSynchronize();\n"
      "  return 0;\n"
      "}\n";
  const LessonRun run = RunText(text);
  ASSERT_FALSE(run.program->ok());
  const std::string& f = run.program->failure;
  EXPECT_NE(f.find("line 3: column 3: a store of 4 bytes"), std::string::npos) << f;
  EXPECT_NE(f.find("index 32 of the __shared__ array s, which holds 32 elements of 4 bytes (0 "
                   "bytes past its end)"),
            std::string::npos)
      << f;
  EXPECT_NE(f.find("thread (31,0,0) of block (0,0,0)"), std::string::npos) << f;
}

// A thread's own array indexed past its end (int a[4], a[threadIdx.x]: thread 4 writes a[4]):
// named as that array, not left to overwrite the emulator's stack.
TEST(Programs, AnIndexPastAThreadsOwnArrayNamesTheArray) {
  const std::string text =
      "__global__ void own(int* out) {\n"
      "  int a[4] = {0, 0, 0, 0};\n"
      "  a[threadIdx.x] = 1;\n"
      "  out[threadIdx.x] = a[threadIdx.x & 3];\n"
      "}\n"
      "int main() {\n"
      "  int* d;\n"
      "  cudaMalloc(&d, 32 * sizeof(int));\n"
      "  own<<<1, 32>>>(d);\n"
      "  cudaDeviceSynchronize();\n"
      "  return 0;\n"
      "}\n";
  const LessonRun run = RunText(text);
  ASSERT_FALSE(run.program->ok());
  const std::string& f = run.program->failure;
  EXPECT_NE(f.find("index 4 of the thread's own array a, which holds 4 elements of 4 bytes"),
            std::string::npos)
      << f;
  EXPECT_NE(f.find("thread (4,0,0) of block (0,0,0)"), std::string::npos) << f;
}

// A read far past one buffer that lands beyond another: the address is named by the buffer
// nearest to it and the distance, not as an index of a buffer it was not meant for.
TEST(Programs, AnAddressFarFromEveryBufferNamesTheNearestAndTheDistance) {
  const std::string text =
      "__global__ void far(float* out, const float* in) {\n"
      "  out[threadIdx.x] = in[threadIdx.x + (1 << 20)];\n"
      "}\n"
      "int main() {\n"
      "  float *d_in, *d_out;\n"
      "  cudaMalloc(&d_in, 64 * sizeof(float));\n"
      "  cudaMalloc(&d_out, 64 * sizeof(float));\n"
      "  far<<<1, 32>>>(d_out, d_in);\n"
      "  cudaDeviceSynchronize();\n"
      "  return 0;\n"
      "}\n";
  const LessonRun run = RunText(text);
  ASSERT_FALSE(run.program->ok());
  const std::string& f = run.program->failure;
  // 4 MiB past a 256-byte buffer: far more than its own size from both, so no index is claimed.
  EXPECT_NE(f.find("of the program's buffers the nearest to the address"), std::string::npos) << f;
  EXPECT_NE(f.find("an index far outside the array it was meant for"), std::string::npos) << f;
  EXPECT_EQ(f.find("index 1048576"), std::string::npos) << f;
}

TEST(Programs, ABarrierNotEveryThreadReachesIsNamed) {
  const std::string text =
      "__global__ void k(float* out) {\n"
      "  if (threadIdx.x < 16) __syncthreads();\n"
      "  out[threadIdx.x] = 1.0f;\n"
      "}\n"
      "int main() { float* d; cudaMalloc(&d, 128); k<<<1, 32>>>(d); return 0; }\n";
  LessonRun run = RunText(text);
  ASSERT_FALSE(run.program->ok());
  EXPECT_NE(run.program->failure.find("threads 0-15 wait at __syncthreads() on line 2"),
            std::string::npos)
      << run.program->failure;
  EXPECT_NE(run.program->failure.find("threads 16-31 exited without reaching it"),
            std::string::npos)
      << run.program->failure;
}

TEST(Programs, AnEndlessLoopIsStoppedAtTheTimeLimit) {
  const std::string text =
      "__global__ void k() { volatile int spin = 1; while (spin) {} }\n"
      "int main() { k<<<1, 1>>>(); cudaDeviceSynchronize(); return 0; }\n";
  ProgramOptions o;
  o.timeout = std::chrono::milliseconds(1500);
  LessonRun run = RunText(text, o);
  ASSERT_FALSE(run.program->ok());
  EXPECT_NE(run.program->failure.find("ran longer than the limit of 1.50 s and was stopped"),
            std::string::npos)
      << run.program->failure;
}

// Launch 1 runs to its end; in launch 2 block 3 never ends, while blocks 0-2 do (the emulator's
// workers take the blocks in index order, and the one on block 3 stays there).
constexpr const char* kStuckInLaunch2 =
    "__global__ void fine(float* d) { d[threadIdx.x] = 1.0f; }\n"
    "__global__ void stuck(float* d) {\n"
    "  volatile int spin = blockIdx.x == 3;\n"
    "  while (spin) {}\n"
    "  d[threadIdx.x] = 2.0f;\n"
    "}\n"
    "int main() {\n"
    "  float* d; cudaMalloc(&d, 128);\n"
    "  fine<<<2, 32>>>(d); stuck<<<4, 32>>>(d); cudaDeviceSynchronize(); return 0;\n"
    "}\n";

// The time limit says how far the launch under way had got: a program that is only large can
// be given longer.
TEST(Programs, ATimeLimitSaysHowFarTheLaunchGot) {
  ProgramOptions o;
  o.timeout = std::chrono::milliseconds(1500);
  const LessonRun run = RunText(kStuckInLaunch2, o);
  ASSERT_FALSE(run.program->ok());
  const std::string& f = run.program->failure;
  EXPECT_NE(f.find("it was in launch 2 (stuck): 3 of 4 blocks"), std::string::npos) << f;
  EXPECT_NE(f.find(": if it is only large, a longer time limit (the CLI's --timeout, the program "
                   "panel's Time limit) lets it finish"),
            std::string::npos)
      << f;
  // One block left: no smaller size to suggest (and the program has no constant to name).
  EXPECT_EQ(f.find("-D NAME=VALUE"), std::string::npos) << f;
  ASSERT_EQ(run.launches.size(), 1u);  // the launch that finished is kept
  EXPECT_EQ(run.launches[0].kernel, "fine");
}

// A launch far too large for the limit: the message gives its pace and what the rest would take,
// and names the program's largest constants, which -D sets. 65,536 blocks of a warp, each thread
// 4,000 loads (each block some milliseconds here): in 2 s the emulator finishes a few hundred, so
// the rest is minutes, far past 4 times the limit however fast the machine.
TEST(Programs, ATimeLimitFarTooShortSaysThePaceAndTheSizeToSet) {
  const std::string text =
      "#include <cuda_runtime.h>\n"
      "#define BLOCKS 65536\n"     // line 2
      "const int STEPS = 4000;\n"  // line 3
      "__global__ void walk(float* d) {\n"
      "  float s = 0;\n"
      "  for (int i = 0; i < STEPS; ++i) s += d[(threadIdx.x + i) % 1024];\n"
      "  d[threadIdx.x] = s;\n"
      "}\n"
      "int main() {\n"
      "  float* d; cudaMalloc(&d, 4096);\n"
      "  walk<<<BLOCKS, 32>>>(d); cudaDeviceSynchronize(); return 0;\n"
      "}\n";
  ProgramOptions o;
  o.timeout = std::chrono::milliseconds(2000);
  const LessonRun run = RunText(text, o);
  ASSERT_FALSE(run.program->ok());
  const std::string& f = run.program->failure;
  EXPECT_NE(f.find("it was in launch 1 (walk): "), std::string::npos) << f;
  EXPECT_NE(f.find(" of 65,536 blocks ("), std::string::npos) << f;
  EXPECT_NE(f.find(" blocks a second: the launch's other blocks would take about "),
            std::string::npos)
      << f;
  EXPECT_NE(f.find(" more at that pace): if it is only large, a longer time limit"),
            std::string::npos)
      << f;
  // The largest first; STEPS (4,000) too, both at least 64.
  EXPECT_NE(f.find("or run it smaller: -D NAME=VALUE (the panel's Defines) sets the program's own "
                   "constants (BLOCKS is 65,536 at line 2, STEPS is 4,000 at line 3)"),
            std::string::npos)
      << f;
}

// Progress comes while the program runs, and Cancel stops it, keeping what finished.
TEST(Programs, ProgressIsReportedAndCancelStopsTheRun) {
  std::atomic<bool> cancel{false};
  std::vector<ProgramProgress> seen;
  ProgramOptions o;
  o.cancel = &cancel;
  o.on_progress = [&](const ProgramProgress& p) {
    seen.push_back(p);
    if (p.launch == 2 && p.blocks_done == 3) cancel = true;  // the user presses Cancel
  };
  const auto start = std::chrono::steady_clock::now();
  const LessonRun run = RunText(kStuckInLaunch2, o);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));  // not the 30 s
  ASSERT_FALSE(run.program->ok());
  EXPECT_NE(
      run.program->failure.find("stopped at your request in launch 2 (stuck): 3 of 4 blocks (the "
                                "launches that finished are kept)"),
      std::string::npos)
      << run.program->failure;
  ASSERT_EQ(run.launches.size(), 1u);
  ASSERT_FALSE(seen.empty());
  const ProgramProgress last{2, "stuck", 3, 4};
  EXPECT_EQ(seen.back(), last) << ProgressText(seen.back());
  for (std::size_t i = 1; i < seen.size(); ++i) {  // never backwards
    EXPECT_GE(std::make_pair(seen[i].launch, seen[i].blocks_done),
              std::make_pair(seen[i - 1].launch, seen[i - 1].blocks_done));
  }
}

TEST(Programs, ACrashInTheProgramIsReportedAndItsOutputKept) {
  const std::string text =
      "#include <cstdio>\n"
      "int main() { printf(\"before\\n\"); fflush(stdout); volatile int* p = nullptr; *p = 1; }\n";
  LessonRun run = RunText(text);
  ASSERT_FALSE(run.program->ok());
  EXPECT_NE(run.program->failure.find("segmentation fault (SIGSEGV)"), std::string::npos)
      << run.program->failure;
  EXPECT_EQ(run.program->stdout_text, "before\n");
}

// A failed assert() in a kernel, as on a GPU: CUDA's message (file, line, function, block,
// thread, expression), the launch ends, and the program learns it from cudaErrorAssert.
TEST(Programs, AFailedAssertInAKernelNamesItsLine) {
  const std::string text =
      "#include <cassert>\n"
      "__global__ void k() {\n"
      "  assert(threadIdx.x < 16);\n"
      "}\n"
      "int main() { k<<<1, 32>>>(); return cudaDeviceSynchronize() == cudaErrorAssert ? 5 : 0; }\n";
  LessonRun run = RunText(text);
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  EXPECT_EQ(run.program->exit_code, 5);  // the program saw cudaErrorAssert
  EXPECT_EQ(run.program->stdout_text,
            "test.cu:3: void k(): block: [0,0,0], thread: [16,0,0] Assertion `threadIdx.x < 16` "
            "failed.\n");
}

// The assert's expression reads an array: the program prints the expression as the student
// wrote it, not as rewritten.
TEST(Programs, AFailedAssertShowsTheExpressionAsWritten) {
  const std::string text =
      "#include <cassert>\n"
      "__global__ void k(int* a) {\n"
      "  assert(a[threadIdx.x] + a[0] == 7);\n"
      "}\n"
      "int main() {\n"
      "  int* a;\n"
      "  cudaMalloc(&a, 32 * sizeof(int));\n"
      "  k<<<1, 32>>>(a);\n"
      "  return 0;\n"
      "}\n";
  LessonRun run = RunText(text);
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  EXPECT_NE(run.program->stdout_text.find("Assertion `a[threadIdx.x] + a[0] == 7` failed"),
            std::string::npos)
      << run.program->stdout_text;
}

TEST(Programs, UnrewriteTextUndoesEveryInsertion) {
  EXPECT_EQ(UnrewriteText("x (*::ws::prog::Ld(&(a[(i + 1) * 2]), 65539u)) == 7 y"),
            "x a[(i + 1) * 2] == 7 y");
  EXPECT_EQ(UnrewriteText("(*::ws::prog::St(&(b[i]), 1u)) = (*::ws::prog::LdSt(&(c[j]), 22u))"),
            "b[i] = c[j]");
  EXPECT_EQ(UnrewriteText("atomicAdd(::ws::prog::At((&sum), 589838u), 1)"), "atomicAdd(&sum, 1)");
  // A counted tree of floating-point operations, with an access inside (collector_flops.cpp).
  EXPECT_EQ(UnrewriteText("assert((::ws::prog::CountFlops(2u), (x * (*::ws::prog::Ld(&(y[i]), "
                          "65539u)) + 1.0f)) < 4.0f)"),
            "assert(x * y[i] + 1.0f < 4.0f)");
  // Not an insertion (no site number): left alone.
  EXPECT_EQ(UnrewriteText("(*::ws::prog::Ld(&(a), x))"), "(*::ws::prog::Ld(&(a), x))");
  // The SIMT path's warp functions (collector_simt.cpp): each access's slot, the warp's FLOPs.
  EXPECT_EQ(UnrewriteText("(*::ws::simt::Ld<65539u>(ws_W, ws_l, 0u, &(a[(i + 1) * 2]))) == 7"),
            "a[(i + 1) * 2] == 7");
  EXPECT_EQ(UnrewriteText("(*::ws::simt::St<1u>(ws_W, ws_l, 0u, &(b[i]))) = "
                          "(*::ws::simt::LdSt<22u, ::ws::prog::kOpSeveral>(ws_W, ws_l, 1u, "
                          "&(c[j])))"),
            "b[i] = c[j]");
  EXPECT_EQ(UnrewriteText("atomicAdd(::ws::simt::At<589838u>(ws_W, ws_l, 3u, (&sum)), 1)"),
            "atomicAdd(&sum, 1)");
  // With the slots' bounds (collector_simt.cpp declares them before the statement's lanes run).
  EXPECT_EQ(UnrewriteText("{ [[maybe_unused]] ::ws::simt::Bounds ws_b0 = "
                          "::ws::simt::BoundsOf<65539u>(ws_W, 0u); [[maybe_unused]] "
                          "::ws::simt::Bounds ws_b12 = ::ws::simt::BoundsOf<7u>(ws_W, 12u); "
                          "(*::ws::simt::Ld<65539u>(ws_W, ws_l, 0u, ws_b0, &(a[i]))) + "
                          "(*::ws::simt::LdSt<7u>(ws_W, ws_l, 12u, ws_b12, &(c[j]))) }"),
            "{ a[i] + c[j] }");
  EXPECT_EQ(UnrewriteText("assert((ws_W.flops += 2u, (x * (*::ws::simt::Ld<65539u>(ws_W, ws_l, "
                          "0u, &(y[i]))) + 1.0f)) < 4.0f)"),
            "assert(x * y[i] + 1.0f < 4.0f)");
}

TEST(Programs, ACompileErrorStopsBeforeAnythingRuns) {
  LessonRun run = RunText("int main() {\n  return undefined_name;\n}\n");
  ASSERT_FALSE(run.program->ok());
  EXPECT_EQ(run.program->stage, ProgramStage::kCompile);
  ASSERT_FALSE(run.program->errors.empty());
  EXPECT_EQ(run.program->errors[0].line, 2u);
  EXPECT_EQ(run.program->failure.rfind("test.cu:2:10: error: use of undeclared identifier", 0), 0u)
      << run.program->failure;
}

TEST(Programs, AProgramWithoutMainOrWithAMissingFunctionIsTheUsersError) {
  LessonRun none = RunText("__global__ void k(float* a) { a[0] = 1.0f; }\n");
  ASSERT_FALSE(none.program->ok());
  EXPECT_EQ(none.program->stage, ProgramStage::kCompile);
  EXPECT_NE(none.program->failure.find("the program has no main()"), std::string::npos)
      << none.program->failure;
  LessonRun missing = RunText("int helper(int);\nint main() { return helper(1); }\n");
  ASSERT_FALSE(missing.program->ok());
  EXPECT_EQ(missing.program->failure.rfind("link error: undefined reference to `helper(int)'", 0),
            0u)
      << missing.program->failure;
}

// Standard headers after the CUDA ones, and __noinline__ (libstdc++ uses that name itself).
TEST(Programs, StandardHeadersAndNoinlineCompile) {
  LessonRun run = RunText(
      "#include <cuda_runtime.h>\n#include <memory>\n#include <vector>\n#include <cstdio>\n"
      "__device__ __noinline__ float twice(float v) { return 2 * v; }\n"
      "__global__ void k(float* a) { a[threadIdx.x] = twice(a[threadIdx.x]); }\n"
      "int main() {\n"
      "  std::vector<float> h(32, 1.0f); float* d; cudaMalloc(&d, 128);\n"
      "  cudaMemcpy(d, h.data(), 128, cudaMemcpyHostToDevice); k<<<1, 32>>>(d);\n"
      "  cudaMemcpy(h.data(), d, 128, cudaMemcpyDeviceToHost); printf(\"%g\\n\", h[31]);\n"
      "}\n");
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  EXPECT_EQ(run.program->stdout_text, "2\n");
}

TEST(Programs, TooMuchMemoryEndsInAMessage) {
  if (!ProgramMemoryLimitApplies()) GTEST_SKIP() << "sanitizer build: no memory limit is set";
  // 3 GiB through cudaMalloc, under a 1 GiB limit: cudaMalloc fails and says so, as on a GPU.
  const std::string text =
      "#include <cstdio>\n"
      "int main() {\n"
      "  float* d; cudaError_t e = cudaMalloc(&d, 3ull << 30);\n"
      "  printf(\"%s\\n\", cudaGetErrorString(e)); return e == cudaSuccess ? 0 : 1;\n"
      "}\n";
  ProgramOptions o;
  o.memory_limit_bytes = 1ull << 30;
  LessonRun run = RunText(text, o);
  EXPECT_EQ(run.program->stdout_text, "out of memory\n");
  EXPECT_EQ(run.program->exit_code, 1);
  EXPECT_NE(run.program->stderr_text.find("cudaMalloc: out of memory for 3221225472 bytes"),
            std::string::npos)
      << run.program->stderr_text;
}

TEST(Programs, RunningOutOfMemoryNamesMemoryAndTheLimit) {
  if (!ProgramMemoryLimitApplies()) GTEST_SKIP() << "sanitizer build: no memory limit is set";
  // 2 GiB from new under a 1 GiB limit: std::bad_alloc, which the runtime turns into the words
  // "out of memory" and the parent into the limit's (it was "SIGABRT: a failed assert?").
  const std::string text =
      "#include <cstdio>\n"
      "#include <vector>\n"
      "int main() {\n"
      "  std::vector<float> v(512u << 20, 1.0f);\n"
      "  printf(\"%g\\n\", v[7]);\n"
      "}\n";
  ProgramOptions o;
  o.memory_limit_bytes = 1ull << 30;
  LessonRun run = RunText(text, o);
  ASSERT_FALSE(run.program->ok());
  EXPECT_EQ(run.program->failure,
            "the program ran out of memory: it and Warpscope's records of it need more than the "
            "memory limit of 1024 MiB")
      << run.program->stderr_text;
}

// A cudaMalloc that failed for lack of memory, its error not checked, and its pointer passed to
// a kernel (two 16384 x 16384 matrices of an exercise under the 4 GiB limit): the access the
// kernel makes through it names the allocation, memory and the limit, where it named a host
// pointer before.
TEST(Programs, AnAccessThroughAFailedAllocationNamesMemoryAndTheLimit) {
  if (!ProgramMemoryLimitApplies()) GTEST_SKIP() << "sanitizer build: no memory limit is set";
  const std::string text =
      "#include <cstdio>\n"
      "__global__ void k(float* a) { a[threadIdx.x] = 1; }\n"
      "int main() {\n"
      "  float* d = nullptr; cudaMalloc(&d, 2ull << 30);\n"
      "  k<<<1, 32>>>(d); cudaDeviceSynchronize(); return 0;\n"
      "}\n";
  ProgramOptions o;
  o.memory_limit_bytes = 1ull << 30;
  LessonRun run = RunText(text, o);
  const std::string said = run.program->failure + run.program->stderr_text;
  EXPECT_NE(said.find("a store of 4 bytes at 0 is in no buffer from cudaMalloc, no __shared__ "
                      "array and no __device__ or __constant__ variable: cudaMalloc of "
                      "2147483648 bytes failed before it, out of memory under the memory limit "
                      "of 1024 MiB"),
            std::string::npos)
      << said;
}

// A failed allocation whose error the program checked, and later a host array passed to a kernel:
// the address is a host pointer's, far above any element of a null pointer, and the message says
// so, naming no allocation (a review found the old failure blamed).
TEST(Programs, AHostPointerAfterAHandledFailedAllocationIsNamedAsOne) {
  // (Under AddressSanitizer an allocation of 2^50 bytes aborts the program, by its own rule.)
  if (!ProgramMemoryLimitApplies()) GTEST_SKIP() << "sanitizer build: its allocator aborts";
  const std::string text =
      "#include <cstdio>\n"
      "__global__ void k(float* a) { a[threadIdx.x] = 1; }\n"
      "int main() {\n"
      "  float* d = nullptr;\n"
      "  if (cudaMalloc(&d, 1ull << 50) != cudaSuccess) cudaMalloc(&d, 128);\n"
      "  float host[32];\n"
      "  k<<<1, 32>>>(host); cudaDeviceSynchronize(); return 0;\n"
      "}\n";
  LessonRun run = RunText(text, ProgramOptions{});
  const std::string said = run.program->failure + run.program->stderr_text;
  EXPECT_NE(said.find("(a host pointer passed to a kernel?)"), std::string::npos) << said;
  EXPECT_EQ(said.find("failed before it"), std::string::npos) << said;
}

}  // namespace
}  // namespace ws
