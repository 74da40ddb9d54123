// Half and bfloat16 arithmetic bit for bit (issue 50, item 2): every listed intrinsic over a
// spread of values, printed as bits. The emulator's output must equal an H100/H200's
// (ProgramsOnGpu.HalfPrecisionIsTheGpusBitForBit); the emulator's own test checks rows by hand
// (CoursePrograms.HalfPrecisionRoundsAsIeee). 256 rows of 24 words: a, b, c are 16-bit
// patterns (specials first, then a linear congruential spread: every exponent, NaNs included),
// f a float over half's range and beyond.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cstdio>
#include <cstring>

#define N 256
#define OPS 24

__global__ void bits(const unsigned short* in, const float* fin, unsigned* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  const __half a = __ushort_as_half(in[i]), b = __ushort_as_half(in[(i * 7 + 3) % N]),
               c = __ushort_as_half(in[(i * 13 + 5) % N]);
  const float f = fin[i];
  unsigned* o = out + i * OPS;
  o[0] = __half_as_ushort(__float2half_rn(f));
  o[1] = __half_as_ushort(__float2half_rz(f));
  o[2] = __half_as_ushort(__float2half_rd(f));
  o[3] = __half_as_ushort(__float2half_ru(f));
  const float fa = __half2float(a);
  unsigned fbits;
  memcpy(&fbits, &fa, 4);
  o[4] = fbits;
  o[5] = __half_as_ushort(__hadd(a, b));
  o[6] = __half_as_ushort(__hsub(a, b));
  o[7] = __half_as_ushort(__hmul(a, b));
  o[8] = __half_as_ushort(__hdiv(a, b));
  o[9] = __half_as_ushort(__hfma(a, b, c));
  o[10] = __half_as_ushort(__hadd_sat(a, b));
  o[11] = __half_as_ushort(__hfma_sat(a, b, c));
  o[12] = __half_as_ushort(__hmax(a, b)) | (unsigned(__half_as_ushort(__hmin(a, b))) << 16);
  o[13] = __heq(a, b) | __hlt(a, b) << 1 | __hge(a, b) << 2 | __hneu(a, b) << 3 | __hisnan(a) << 4 |
          (__hisinf(a) != 0) << 5;
  o[14] = __half_as_ushort(__hneg(a)) | (unsigned(__half_as_ushort(__habs(b))) << 16);
  o[15] = __half_as_ushort(hsqrt(__habs(a)));
  o[16] = unsigned(__half2int_rz(a)) ^ unsigned(__half2int_rn(b));
  // (a + b * c written so would be one fma on a GPU: nvcc contracts a multiply and an add, as
  // it does for float; the _rn forms are never contracted.)
  // (__float2int_rz, not int(): a C++ cast of 1e10 * 64 is undefined; the intrinsic saturates.)
  o[17] = __half_as_ushort(__int2half_rn(__float2int_rz(f * 64.0f))) |
          (unsigned(__half_as_ushort(__hadd_rn(a, __hmul_rn(b, c)))) << 16);
  const __half2 p = __halves2half2(a, b), q = __halves2half2(c, a);
  const __half2 r = __hfma2(p, q, __hadd2(p, q)), s = __hsub2(__hmul2_rn(p, q), p);
  o[18] = __half_as_ushort(r.x) | (unsigned(__half_as_ushort(r.y)) << 16);
  o[19] = __half_as_ushort(s.x) | (unsigned(__half_as_ushort(s.y)) << 16);
  const __nv_bfloat16 x = __ushort_as_bfloat16(in[i]),
                      y = __ushort_as_bfloat16(in[(i * 7 + 3) % N]),
                      z = __ushort_as_bfloat16(in[(i * 13 + 5) % N]);
  const float fx = __bfloat162float(x);
  memcpy(&fbits, &fx, 4);
  o[20] = fbits;
  o[21] = __bfloat16_as_ushort(__float2bfloat16_rn(f)) |
          (unsigned(__bfloat16_as_ushort(__hadd(x, y))) << 16);
  o[22] =
      __bfloat16_as_ushort(__hmul(x, y)) | (unsigned(__bfloat16_as_ushort(__hfma(x, y, z))) << 16);
  o[23] = __bfloat16_as_ushort(__hsub(x, y)) | (unsigned(__bfloat16_as_ushort(__hmax(x, y))) << 16);
}

int main() {
  static const unsigned short specials[] = {0x0000, 0x8000, 0x0001, 0x8001, 0x03ff, 0x0400,
                                            0x3c00, 0x3c01, 0xbc00, 0x3555, 0x4248, 0x7bff,
                                            0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x3800, 0x3bff,
                                            0x0200, 0x5640, 0x1400, 0x6400, 0x2e66, 0x4000};
  static const float fspecials[] = {
      0.0f,     -0.0f,     1.0f,           0.1f,          65504.0f, 65519.99f,
      65520.0f, -65520.0f, 5.9604645e-8f,  2.9802322e-8f, 2.98e-8f, 6.1035156e-5f,
      1e-10f,   1e10f,     -1.0009765625f, 2049.0f,       2051.0f,  0.33333334f};
  unsigned short in[N];
  float fin[N];
  unsigned seed = 12345u;
  for (int i = 0; i < N; ++i) {
    seed = seed * 1103515245u + 12345u;
    in[i] = i < int(sizeof specials / 2) ? specials[i] : static_cast<unsigned short>(seed >> 16);
    seed = seed * 1103515245u + 12345u;
    const int e = int((seed >> 8) % 48u) - 30;  // 2^-30 .. 2^17
    const float m = 1.0f + float(seed & 0xffu) / 256.0f + float((seed >> 20) & 0xfffu) / 1048576.0f;
    fin[i] =
        i < int(sizeof fspecials / 4) ? fspecials[i] : ((seed >> 31) ? -1.0f : 1.0f) * ldexpf(m, e);
  }
  unsigned short* d_in;
  float* d_f;
  unsigned* d_out;
  cudaMalloc(&d_in, sizeof in);
  cudaMalloc(&d_f, sizeof fin);
  cudaMalloc(&d_out, N * OPS * sizeof(unsigned));
  cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice);
  cudaMemcpy(d_f, fin, sizeof fin, cudaMemcpyHostToDevice);
  bits<<<N / 128, 128>>>(d_in, d_f, d_out);
  static unsigned out[N * OPS];
  cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  for (int i = 0; i < N; ++i) {
    printf("%3d", i);
    for (int k = 0; k < OPS; ++k) printf(" %x", out[i * OPS + k]);
    printf("\n");
  }
  return 0;
}
