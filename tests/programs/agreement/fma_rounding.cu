// A fused multiply-add rounded each way, bit for bit: __fmaf_rd/ru/rz/rn and __fma_rd/ru/rz/rn
// (and __fmaf_ieee_rd) over a spread of values, each row's a and b with three c: another value
// (c1), minus a x b rounded to nearest (c2: the sum is then the product's own rounding error,
// which only an exact fma sees), and a value 2^-40 of the product's size (c3: far below its last
// place). Specials first (zeros of both signs, ones, the largest float, infinities, subnormals),
// then a linear congruential spread of bit patterns. The emulator's output must equal an
// H100/H200's, kept in fma_rounding.gpu.txt (CoursePrograms.FmaRoundsEachWayAsTheGpuDoes;
// ProgramsOnGpu.FmaRoundingIsTheGpusBitForBit runs both). A NaN prints as "nan" (a GPU's NaN bits
// are its own).
#include <cstdio>
#include <cstring>

#define N 128
#define OPS 25

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

__global__ void fused(const float* in, unsigned long long* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  const float a = in[i], b = in[(i * 7 + 3) % N];
  const float cs[3] = {in[(i * 13 + 5) % N], -__fmul_rn(a, b), __fmul_rn(a, b) * 0x1p-40f};
  const double da = a / 3.0, db = b * 1.1;
  const double ds[3] = {in[(i * 13 + 5) % N] * 0.7, -__dmul_rn(da, db),
                        __dmul_rn(da, db) * 0x1p-70};
  unsigned long long* o = out + i * OPS;
  for (int k = 0; k < 3; ++k) {
    const float c = cs[k];
    o[k * 4 + 0] = Bits(__fmaf_rd(a, b, c));
    o[k * 4 + 1] = Bits(__fmaf_ru(a, b, c));
    o[k * 4 + 2] = Bits(__fmaf_rz(a, b, c));
    o[k * 4 + 3] = Bits(__fmaf_rn(a, b, c));
    const double dc = ds[k];
    o[12 + k * 4 + 0] = Bits(__fma_rd(da, db, dc));
    o[12 + k * 4 + 1] = Bits(__fma_ru(da, db, dc));
    o[12 + k * 4 + 2] = Bits(__fma_rz(da, db, dc));
    o[12 + k * 4 + 3] = Bits(__fma_rn(da, db, dc));
  }
  o[24] = Bits(__fmaf_ieee_rd(a, b, cs[1]));
}

int main() {
  static float in[N];
  const unsigned specials[] = {0x00000000u, 0x80000000u, 0x3f800000u, 0xbf800000u,
                               0x40400000u, 0x3eaaaaabu, 0x7f7fffffu, 0xff7fffffu,
                               0x7f800000u, 0xff800000u, 0x00000001u, 0x80000001u,
                               0x00800000u, 0x3fb504f3u, 0x4b000001u, 0x33800000u};
  const int n_specials = sizeof specials / sizeof specials[0];
  unsigned x = 2024u;
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
  fused<<<N / 32, 32>>>(d_in, d_out);
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
        printf(k < 12 || k == 24 ? " %08llx" : " %016llx", out[i * OPS + k]);
    }
    printf("\n");
  }
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
