// Directed rounding bit for bit (cuda-samples' interval calls __fadd_rd and its kin): add, sub,
// mul, div, rcp and sqrt of float and double, each rounded down, up and toward zero, over a
// spread of values (specials first, then a linear congruential spread of bit patterns: every
// exponent, subnormals, infinities). The emulator's output must equal an H100/H200's
// (ProgramsOnGpu.DirectedRoundingIsTheGpusBitForBit); the emulator's own test checks rows by hand
// (CoursePrograms.DirectedRoundingRoundsEachWay). A NaN prints as "nan" (a GPU's NaN bits are
// its own).
#include <cstdio>
#include <cstring>

#define N 256
#define OPS 36

__device__ unsigned long long Bits(double d) {
  if (d != d) return 0x7ff8dead7ff8deadull;
  unsigned long long u;
  memcpy(&u, &d, 8);
  return u;
}

__device__ unsigned long long Bits(float f) {
  if (f != f) return 0x7ff8dead7ff8deadull;
  unsigned u;
  memcpy(&u, &f, 4);
  return u;
}

__global__ void rounding(const float* in, unsigned long long* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  const float a = in[i], b = in[(i * 7 + 3) % N];
  const double da = a / 3.0, db = b * 1.1;
  unsigned long long* o = out + i * OPS;
  o[0] = Bits(__fadd_rd(a, b));
  o[1] = Bits(__fadd_ru(a, b));
  o[2] = Bits(__fadd_rz(a, b));
  o[3] = Bits(__fsub_rd(a, b));
  o[4] = Bits(__fsub_ru(a, b));
  o[5] = Bits(__fsub_rz(a, b));
  o[6] = Bits(__fmul_rd(a, b));
  o[7] = Bits(__fmul_ru(a, b));
  o[8] = Bits(__fmul_rz(a, b));
  o[9] = Bits(__fdiv_rd(a, b));
  o[10] = Bits(__fdiv_ru(a, b));
  o[11] = Bits(__fdiv_rz(a, b));
  o[12] = Bits(__frcp_rd(a));
  o[13] = Bits(__frcp_ru(a));
  o[14] = Bits(__frcp_rz(a));
  o[15] = Bits(__fsqrt_rd(a));
  o[16] = Bits(__fsqrt_ru(a));
  o[17] = Bits(__fsqrt_rz(a));
  o[18] = Bits(__dadd_rd(da, db));
  o[19] = Bits(__dadd_ru(da, db));
  o[20] = Bits(__dadd_rz(da, db));
  o[21] = Bits(__dsub_rd(da, db));
  o[22] = Bits(__dsub_ru(da, db));
  o[23] = Bits(__dsub_rz(da, db));
  o[24] = Bits(__dmul_rd(da, db));
  o[25] = Bits(__dmul_ru(da, db));
  o[26] = Bits(__dmul_rz(da, db));
  o[27] = Bits(__ddiv_rd(da, db));
  o[28] = Bits(__ddiv_ru(da, db));
  o[29] = Bits(__ddiv_rz(da, db));
  o[30] = Bits(__drcp_rd(da));
  o[31] = Bits(__drcp_ru(da));
  o[32] = Bits(__drcp_rz(da));
  o[33] = Bits(__dsqrt_rd(da));
  o[34] = Bits(__dsqrt_ru(da));
  o[35] = Bits(__dsqrt_rz(da));
}

int main() {
  static float in[N];
  const unsigned specials[] = {0x00000000u, 0x80000000u, 0x3f800000u, 0x40000000u,
                               0x40400000u, 0x3eaaaaabu, 0x7f7fffffu, 0xff7fffffu,
                               0x7f800000u, 0xff800000u, 0x00000001u, 0x80000001u,
                               0x00800000u, 0x3fb504f3u, 0x4b000001u, 0x33800000u};
  const int n_specials = sizeof specials / sizeof specials[0];
  unsigned x = 12345u;
  for (int i = 0; i < N; ++i) {
    unsigned u;
    if (i < n_specials) {
      u = specials[i];
    } else {
      x = x * 1664525u + 1013904223u;
      u = x;
      if ((u & 0x7f800000u) == 0x7f800000u) u ^= 0x40000000u;  // no NaN among the operands
    }
    memcpy(&in[i], &u, 4);
  }
  float* d_in;
  unsigned long long* d_out;
  cudaMalloc(&d_in, sizeof in);
  cudaMalloc(&d_out, sizeof(unsigned long long) * N * OPS);
  cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice);
  rounding<<<N / 64, 64>>>(d_in, d_out);
  static unsigned long long out[N * OPS];
  cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  for (int i = 0; i < N; ++i) {
    unsigned u;
    memcpy(&u, &in[i], 4);
    printf("%08x", u);
    for (int k = 0; k < OPS; ++k) {
      if (out[i * OPS + k] == 0x7ff8dead7ff8deadull)
        printf(" nan");
      else
        printf(k < 18 ? " %08llx" : " %016llx", out[i * OPS + k]);
    }
    printf("\n");
  }
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
