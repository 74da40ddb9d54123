// The rounding a course's device code asks for, run unmodified on the emulator (docs/PROGRAMS.md
// "What is supported"): the directed-rounding intrinsics and the fused multiply-add rounded each
// way, by hand and against a GPU's output. Split from program_course_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "program_test_util.h"
#include "warpscope/program/program.h"

namespace ws {
namespace {

using test::ReadExample;
using test::RunText;

// Directed rounding (cuda-samples' interval): each way by hand. 1 + 2^-30 lies between 1 and the
// next float (0x3f800001): down and toward zero 1, up the next. 1/3 is 0x3eaaaaab to nearest,
// which is above it: down 0x3eaaaaaa. sqrt(2) to nearest is 0x3fb504f3, below it: up 0x3fb504f4.
// FLT_MAX x 2 overflows: down and toward zero FLT_MAX, up infinity. 2^-100 x 2^-100 underflows:
// down 0, up the smallest subnormal (0x00000001); for -2^-100 x 2^-100 down -0x00000001.
// 1 - 2^-60 in double: down and toward zero 0x3fefffffffffffff, up 1. The whole table against a
// GPU's: ProgramsOnGpu.DirectedRoundingIsTheGpusBitForBit (tests/programs/agreement/).
TEST(CoursePrograms, DirectedRoundingRoundsEachWay) {
  LessonRun run = RunText(
      "#include <cstdio>\n"
      "#include <cstring>\n"
      "__device__ unsigned F(float f) { unsigned u; memcpy(&u, &f, 4); return u; }\n"
      "__device__ unsigned long long D(double d) { unsigned long long u; memcpy(&u, &d, 8); "
      "return u; }\n"
      "__global__ void k(const float* v, unsigned long long* o) {\n"
      "  const float one = v[0], tiny = v[1], three = v[2], two = v[3], big = v[4], t = v[5];\n"
      "  o[0] = F(__fadd_rd(one, tiny)); o[1] = F(__fadd_ru(one, tiny)); o[2] = F(__fadd_rz(one, "
      "tiny));\n"
      "  o[3] = F(__fdiv_rd(one, three)); o[4] = F(__fdiv_ru(one, three));\n"
      "  o[5] = F(__fsqrt_rd(two)); o[6] = F(__fsqrt_ru(two));\n"
      "  o[7] = F(__fmul_rd(big, two)); o[8] = F(__fmul_ru(big, two)); o[9] = F(__fmul_rz(big, "
      "two));\n"
      "  o[10] = F(__fmul_rd(t, t)); o[11] = F(__fmul_ru(t, t)); o[12] = F(__fmul_rd(-t, t));\n"
      "  const double d = 1.0, e = 0x1p-60;\n"
      "  o[13] = D(__dsub_rd(d, e)); o[14] = D(__dsub_ru(d, e)); o[15] = D(__dsub_rz(d, e));\n"
      "  o[16] = F(__fadd_rz(-one, -tiny)); o[17] = F(__fsub_ru(-one, tiny)); }\n"
      "int main() { float h[6] = {1.0f, 0x1p-30f, 3.0f, 2.0f, 3.4028235e38f, 0x1p-100f};\n"
      "  float* v; unsigned long long* o; cudaMalloc(&v, sizeof h); cudaMalloc(&o, 18 * 8);\n"
      "  cudaMemcpy(v, h, sizeof h, cudaMemcpyHostToDevice); k<<<1, 1>>>(v, o);\n"
      "  unsigned long long r[18]; cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost);\n"
      "  for (int i = 0; i < 18; ++i) printf(\"%llx\\n\", r[i]); return 0; }\n");
  ASSERT_TRUE(run.program->ok()) << run.program->failure
                                 << (run.program->errors.empty() ? ""
                                                                 : run.program->errors[0].message);
  EXPECT_EQ(run.program->stdout_text,
            "3f800000\n3f800001\n3f800000\n"  // 1 + 2^-30: down, up, toward zero
            "3eaaaaaa\n3eaaaaab\n"            // 1/3
            "3fb504f3\n3fb504f4\n"            // sqrt(2)
            "7f7fffff\n7f800000\n7f7fffff\n"  // FLT_MAX x 2
            "0\n1\n80000001\n"                // 2^-200: under the subnormals
            "3fefffffffffffff\n3ff0000000000000\n3fefffffffffffff\n"  // 1 - 2^-60
            "bf800000\nbf800000\n");  // -(1 + 2^-30) toward zero, up
}

// A fused multiply-add rounded each way, by hand: (1 + 2^-23)^2 - 1 is 2^-22 + 2^-46, between
// 2^-22 (0x34800000) and the next float, a tie to even at nearest; 2 x 3 - 6 is an exact zero,
// -0 rounding down and +0 otherwise (IEEE 754); FLT_MAX x 2 + 0 overflows: back to FLT_MAX down
// and toward zero, infinity up; in double (1 + 2^-52)^2 - 1 is 2^-51 + 2^-104 (0x3cc0000000000000
// and the next). Then the agreement program's 128 rows of 25 results, each equal to the H100's
// (tests/programs/agreement/fma_rounding.gpu.txt, nvcc 13.0, 2026-12-05).
TEST(CoursePrograms, FmaRoundsEachWayAsTheGpuDoes) {
  LessonRun run = RunText(
      "#include <cstdio>\n"
      "#include <cstring>\n"
      "__device__ unsigned F(float f) { unsigned u; memcpy(&u, &f, 4); return u; }\n"
      "__device__ unsigned long long D(double d) { unsigned long long u; memcpy(&u, &d, 8); "
      "return u; }\n"
      "__global__ void k(const float* v, unsigned long long* o) {\n"
      "  const float e = v[0], one = v[1], two = v[2], three = v[3], big = v[4];\n"
      "  const float x = one + e;\n"
      "  o[0] = F(__fmaf_rd(x, x, -one)); o[1] = F(__fmaf_ru(x, x, -one));\n"
      "  o[2] = F(__fmaf_rz(x, x, -one)); o[3] = F(__fmaf_rn(x, x, -one));\n"
      "  o[4] = F(__fmaf_rd(two, three, -6.0f)); o[5] = F(__fmaf_ru(two, three, -6.0f));\n"
      "  o[6] = F(__fmaf_rd(big, two, 0.0f)); o[7] = F(__fmaf_ru(big, two, 0.0f));\n"
      "  o[8] = F(__fmaf_rz(big, two, 0.0f));\n"
      "  const double y = 1.0 + 0x1p-52;\n"
      "  o[9] = D(__fma_rd(y, y, -1.0)); o[10] = D(__fma_ru(y, y, -1.0)); }\n"
      "int main() { float h[5] = {0x1p-23f, 1.0f, 2.0f, 3.0f, 3.4028235e38f};\n"
      "  float* v; unsigned long long* o; cudaMalloc(&v, sizeof h); cudaMalloc(&o, 11 * 8);\n"
      "  cudaMemcpy(v, h, sizeof h, cudaMemcpyHostToDevice); k<<<1, 1>>>(v, o);\n"
      "  unsigned long long r[11]; cudaMemcpy(r, o, sizeof r, cudaMemcpyDeviceToHost);\n"
      "  for (int i = 0; i < 11; ++i) printf(\"%llx\\n\", r[i]); return 0; }\n");
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  EXPECT_EQ(run.program->stdout_text,
            "34800000\n34800001\n34800000\n34800000\n"  // 2^-22 + 2^-46
            "80000000\n0\n"                             // an exact zero: -0 down, +0 up
            "7f7fffff\n7f800000\n7f7fffff\n"            // FLT_MAX x 2
            "3cc0000000000000\n3cc0000000000001\n");    // 2^-51 + 2^-104
  const LessonRun all = RunText(ReadExample("../tests/programs/agreement/fma_rounding.cu"));
  ASSERT_TRUE(all.program->ok()) << all.program->failure << all.program->stderr_text;
  // FLOPs by hand: a thread's 25 fused multiply-adds count 2 each, __fmaf_ieee_rd's too (a
  // review found it counted none: 53 a thread), and its five operators 1 each (a / 3.0, b * 1.1,
  // the product's scaling by 2^-40, in[...] * 0.7 and the double product's by 2^-70; the calls
  // __fmul_rn and __dmul_rn are not counted, as no call but an fma is): 55 a thread, 128 threads.
  ASSERT_EQ(all.launches.size(), 1u);
  EXPECT_EQ(all.launches[0].stats.flops, 55u * 128);
  const std::string gpu = ReadExample("../tests/programs/agreement/fma_rounding.gpu.txt");
  ASSERT_EQ(std::count(gpu.begin(), gpu.end(), '\n'), 128);
  EXPECT_EQ(all.program->stdout_text, gpu);
}

}  // namespace
}  // namespace ws
