// Half precision and bfloat16 on the emulator (issue 50, item 2; docs/PROGRAMS.md "Half
// precision"): cuda_fp16.h and cuda_bf16.h, each operation rounded once as IEEE says. The same
// program on a GPU must print the same bits (ProgramsOnGpu.HalfPrecisionIsTheGpusBitForBit).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "program_test_util.h"
#include "warpscope/program/program.h"

namespace ws {
namespace {

// tests/programs/agreement/half_bits.cu's rows: "i w0 w1 ... w23", the words in hex.
std::vector<std::vector<std::string>> Rows(const std::string& out) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::vector<std::string> row;
    std::string w;
    words >> w;  // the row's index
    while (words >> w) row.push_back(w);
    rows.push_back(row);
  }
  return rows;
}

TEST(CoursePrograms, HalfPrecisionRoundsAsIeee) {
  const LessonRun r = test::RunText(test::ReadExample("../tests/programs/agreement/half_bits.cu"));
  ASSERT_TRUE(r.program->ok()) << r.program->failure;
  const auto rows = Rows(r.program->stdout_text);
  ASSERT_EQ(rows.size(), 256u);
  for (const auto& row : rows) ASSERT_EQ(row.size(), 24u);
  // f to half by rn, rz, rd, ru (words 0-3). 65504 is the largest half (0x7bff); 65520 lies
  // halfway to 65536, which would need another exponent: by rn it overflows to infinity
  // (0x7c00), as IEEE says; 65519.99 stays below it. 2^-24 is the smallest subnormal (0x0001);
  // 2^-25 is halfway to 0, whose last bit is even: 0 by rn, 1 by ru; 2^-14 the smallest normal.
  const std::vector<std::vector<std::string>> conversions = {
      {"7bff", "7bff", "7bff", "7bff"},  // 65504
      {"7bff", "7bff", "7bff", "7c00"},  // 65519.99
      {"7c00", "7bff", "7bff", "7c00"},  // 65520
      {"fc00", "fbff", "fc00", "fbff"},  // -65520
      {"1", "1", "1", "1"},              // 2^-24
      {"0", "0", "0", "1"},              // 2^-25
      {"0", "0", "0", "1"},              // 2.98e-8, just under 2^-25
      {"400", "400", "400", "400"},      // 2^-14
  };
  for (std::size_t k = 0; k < conversions.size(); ++k)
    for (std::size_t m = 0; m < 4; ++m) EXPECT_EQ(rows[4 + k][m], conversions[k][m]) << 4 + k;
  EXPECT_EQ(rows[3][0], "2e66");  // 0.1 -> 0.0999755859375
  EXPECT_EQ(rows[3][3], "2e67");  // rounded up: 0.10003662109375
  // Row 2: a = 2^-24 (0x0001), b = 0.99951171875 (0x3bff, row 17's pattern). a + b keeps b;
  // a - b is -b; a x b and a / b are 2^-24 x (1 -+ 2^-11), rounded to 2^-24.
  EXPECT_EQ(rows[2][5], "3bff");
  EXPECT_EQ(rows[2][6], "bbff");
  EXPECT_EQ(rows[2][7], "1");
  EXPECT_EQ(rows[2][8], "1");
  // half to float is exact: 1.0 (row 6's a, 0x3c00) and -1.0 (row 8's, 0xbc00).
  EXPECT_EQ(rows[6][4], "3f800000");
  EXPECT_EQ(rows[8][4], "bf800000");
  // bfloat16: f = 0.1 is 0x3dcd (0.10009765625) by rn (word 21's low half).
  EXPECT_EQ(rows[3][21].substr(rows[3][21].size() - 4), "3dcd");
}

// A half is 2 bytes in memory: a warp's 32 halves are 64 bytes, 2 sectors of global memory and
// 16 banks' words of shared memory (one wavefront); atomicAdd of a half and of a pair adds in
// half precision: sum of 0.5 i for i < 64 is 1008, exact in half (its last bit there is 0.5).
TEST(CoursePrograms, HalfArraysCostTheirTwoBytesAndAddAtomically) {
  const LessonRun r = test::RunText(R"(#include <cstdio>
#include <cuda_fp16.h>
__global__ void k(const __half* in, __half* sum, __half2* pair) {
  __shared__ __half s[64];
  const int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  const __half v = s[t ^ 1];
  atomicAdd(sum, v);
  atomicAdd(pair, __halves2half2(v, __float2half(1.0f)));
}
int main() {
  __half *in, *sum;
  __half2* pair;
  cudaMallocManaged(&in, 64 * sizeof(__half));
  cudaMallocManaged(&sum, sizeof(__half));
  cudaMallocManaged(&pair, sizeof(__half2));
  for (int i = 0; i < 64; ++i) in[i] = __float2half(0.5f * i);
  *sum = __float2half(0.0f);
  *pair = __floats2half2_rn(0.f, 0.f);
  k<<<1, 64>>>(in, sum, pair);
  cudaDeviceSynchronize();
  printf("%g %g %g\n", __half2float(*sum), __low2float(*pair), __high2float(*pair));
}
)");
  ASSERT_TRUE(r.program->ok()) << r.program->failure;
  EXPECT_EQ(r.program->stdout_text, "1008 1008 64\n");
  ASSERT_EQ(r.launches.size(), 1u);
  const LaunchTrace& t = r.launches[0];
  std::size_t i = 0;
  ASSERT_NE(test::SiteAt(t, 6, 10, &i), nullptr);  // in[t]
  EXPECT_EQ(t.sites[i].size, 2u);
  EXPECT_EQ(t.stats.sites[i].requests, 2u);
  EXPECT_EQ(t.stats.sites[i].sectors, 4u);
  ASSERT_NE(test::SiteAt(t, 8, 20, &i), nullptr);  // s[t ^ 1]
  EXPECT_EQ(t.stats.sites[i].wavefronts, 2u);
  EXPECT_EQ(t.stats.sites[i].bank_conflict_max, 1u);
  ASSERT_NE(test::SiteAt(t, 10, 13, &i), nullptr);  // the pair's atomic: 4 bytes
  EXPECT_EQ(t.sites[i].op, AccessOp::kAtomic);
  EXPECT_EQ(t.sites[i].size, 4u);
}

// Where IEEE leaves a choice the GPU's is taken: max and min order -0 below +0 (an H200's
// max(-0, +0) is +0 and min(+0, -0) is -0, either way round), and +inf to a 64-bit integer is
// its largest value (cvt saturates), as is a float too large for __float2int_rz/_rn (and NaN is
// 0: an H200's half_bits.cu row of 1e10 * 64 gave INT_MAX where a C++ cast gives INT_MIN).
TEST(CoursePrograms, HalfMaxMinOfZerosAndInfinityToIntegersAreTheGpus) {
  const LessonRun r = test::RunText(R"(#include <cstdio>
#include <cuda_fp16.h>
int main() {
  __half a = __float2half(-0.0f), b = __float2half(0.0f), inf = __ushort_as_half(0x7c00);
  printf("%04x %04x %04x %04x %lld %llu\n", __half_as_ushort(__hmax(a, b)),
         __half_as_ushort(__hmax(b, a)), __half_as_ushort(__hmin(a, b)),
         __half_as_ushort(__hmin(b, a)), __half2ll_rz(inf), __half2ull_rz(inf));
  volatile float big = 6.4e11f, nan = __int_as_float(0x7fc00000);
  printf("%d %d %d\n", __float2int_rz(big), __float2int_rn(-big), __float2int_rz(nan));
  printf("%u %lld %d %d\n", __float2uint_rz(-5.0f), __float2ll_rn(1e30f), __double2int_rz(-1e12),
         __float2int_ru(big));
}
)");
  ASSERT_TRUE(r.program->ok()) << r.program->failure;
  EXPECT_EQ(r.program->stdout_text,
            "0000 0000 8000 8000 9223372036854775807 18446744073709551615\n"
            "2147483647 -2147483648 0\n0 9223372036854775807 -2147483648 2147483647\n");
}

}  // namespace
}  // namespace ws
