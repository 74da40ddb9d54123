// Template launches and extern __shared__ arrays on the emulator (program_templates_programs.h):
// each program's output, launches and per-site figures by hand, and the forms still refused, each
// with its line. The rewriter's text for the issue's two shapes is in program_rewrite_test.cpp
// (built only where the rewriter's library is).
#include <gtest/gtest.h>

#include "program_templates_programs.h"
#include "program_test_util.h"

namespace ws {
namespace {

using test::RunText;

TEST(TemplatePrograms, EachShapeRunsWithItsFigures) {
  for (const test::TemplateProgram& p : test::TemplatePrograms()) {
    SCOPED_TRACE(p.name);
    test::ExpectTemplateFigures(p, RunText(p.text));
  }
}

TEST(TemplatePrograms, ExternSharedDeclaredByAMacroRunsAndOneUsedInAMacroIsNamed) {
  // A declaration written by a macro is commented out at the macro's use: 32 threads store
  // s[t] = t and read s[31 - t], so out[0] = 31.
  const std::string declared =
      "#include <cstdio>\n"
      "#define DYNAMIC_FLOATS(name) extern __shared__ float name[]\n"
      "__global__ void k(float* out) {\n"
      "  DYNAMIC_FLOATS(s);\n"
      "  s[threadIdx.x] = threadIdx.x;\n"
      "  __syncthreads();\n"
      "  out[threadIdx.x] = s[31 - threadIdx.x];\n"
      "}\n"
      "int main() {\n"
      "  float* out;\n"
      "  cudaMallocManaged(&out, 32 * sizeof(float));\n"
      "  k<<<1, 32, 128>>>(out);\n"
      "  cudaDeviceSynchronize();\n"
      "  printf(\"%g\\n\", out[0]);\n"
      "}\n";
  LessonRun run = RunText(declared);
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  EXPECT_EQ(run.program->stdout_text, "31\n");
  ASSERT_EQ(run.launches.size(), 1u);
  const SiteInfo* load = test::SiteAt(run.launches[0], 7, 22);  // s[31 - threadIdx.x]
  ASSERT_NE(load, nullptr);
  EXPECT_EQ(load->space, MemorySpace::kShared);

  // The name inside a macro's body cannot become the launch's memory there: refused at the use.
  std::string used = declared;
  used.replace(used.find("s[31 - threadIdx.x]"), 19, "AT(31 - threadIdx.x)");
  used.insert(used.find("__global__"), "#define AT(i) s[i]\n");
  run = RunText(used);
  ASSERT_FALSE(run.program->ok());
  ASSERT_FALSE(run.program->errors.empty()) << run.program->failure;
  EXPECT_EQ(run.program->errors[0].message,
            "extern __shared__ s used inside a macro is not supported (yet): write the use out");
  EXPECT_EQ(run.program->errors[0].line, 8u);  // the AT(...) line, one down for the #define
  EXPECT_EQ(run.program->errors[0].column, 22u);
}

// cudaTensorCoreGemm's two shapes: `extern __shared__ half shmem[][CHUNK_K * K + SKEW_HALF]`, an
// array of rows (the launch's memory as rows of 8 floats here), and a launch written out inside a
// macro's argument (its checkKernelErrors((compute_gemm<<<...>>>(...)))), edited where it is
// spelled, its default argument written out there too. By hand: thread t stores t into row t / 8,
// column t % 8, and reads row 3 - t / 8, column t % 8, which thread (3 - t / 8) x 8 + t % 8 stored:
// out[0] = 24, out[31] = 7, and out sums to 0..31's 496.
TEST(TemplatePrograms, AnExternArrayOfRowsAndALaunchInAMacrosArgumentRun) {
  const LessonRun run = RunText(R"(#include <cstdio>
#define CHECK(call) do { call; if (cudaGetLastError() != cudaSuccess) return 1; } while (0)
__global__ void k(float* out, int scale = 1) {
  extern __shared__ float rows[][8];
  rows[threadIdx.x / 8][threadIdx.x % 8] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = scale * rows[3 - threadIdx.x / 8][threadIdx.x % 8];
}
int main() {
  float* out;
  cudaMallocManaged(&out, 32 * sizeof(float));
  CHECK((k<<<1, 32, 32 * sizeof(float)>>>(out)));
  cudaDeviceSynchronize();
  float s = 0;
  for (int i = 0; i < 32; ++i) s += out[i];
  printf("%g %g %g\n", out[0], out[31], s);
  return 0;
}
)");
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  EXPECT_EQ(run.program->stdout_text, "24 7 496\n");
  ASSERT_EQ(run.launches.size(), 1u);
  EXPECT_EQ(run.launches[0].kernel, "k");
  const SiteInfo* load = test::SiteAt(run.launches[0], 7, 30);  // rows[3 - threadIdx.x / 8][...]
  ASSERT_NE(load, nullptr);
  EXPECT_EQ(load->space, MemorySpace::kShared);
}

// 64 KB of dynamic shared memory, past the 48 KB a block has on hopper without asking: refused
// with the way to ask, and run once the kernel asks (cudaTensorCoreGemm's compute_gemm asks for
// 64 KB so). By hand: big[i] = i, thread t reads big[16383 - t]: out[0] = 16383, out[31] = 16352.
TEST(TemplatePrograms, AKernelThatAsksForMoreSharedMemoryGetsIt) {
  const std::string text = R"(#include <cstdio>
__global__ void k(float* out) {
  extern __shared__ float big[];
  for (int i = threadIdx.x; i < 16384; i += blockDim.x) big[i] = i;
  __syncthreads();
  out[threadIdx.x] = big[16383 - threadIdx.x];
}
int main() {
  float* out;
  cudaMallocManaged(&out, 32 * sizeof(float));
  if (ASK) cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536);
  k<<<1, 32, 65536>>>(out);
  cudaDeviceSynchronize();
  printf("%g %g\n", out[0], out[31]);
  return 0;
}
)";
  ProgramOptions o;
  o.defines = {"ASK=1"};
  const LessonRun asked = RunText(text, o);
  ASSERT_TRUE(asked.program->ok()) << asked.program->failure;
  EXPECT_EQ(asked.program->stdout_text, "16383 16352\n");
  o.defines = {"ASK=0"};
  const LessonRun not_asked = RunText(text, o);
  ASSERT_FALSE(not_asked.program->ok());
  EXPECT_NE(not_asked.program->failure.find(
                "65536 bytes of shared memory per block are over the limit of 49152 bytes on "
                "hopper (a block may have up to 232448 once its kernel asks"),
            std::string::npos)
      << not_asked.program->failure;
}

}  // namespace
}  // namespace ws
