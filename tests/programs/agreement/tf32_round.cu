// tf32 on the tensor cores, bit for bit (issue 53): what wmma::__float_to_tf32 gives for 32
// floats (ties, the largest finite values, infinities, NaNs, subnormals), and what a tf32
// mma_sync makes of inputs whose 13 low fraction bits are not clear. The emulator's output must
// equal an H100/H200's (ProgramsOnGpu.Tf32IsTheGpusBitForBit); the emulator's own test checks
// rows by hand (CoursePrograms.Tf32RoundsToNearestTiesAway).
#include <mma.h>
#include <cstdio>
#include <cstring>

using namespace nvcuda;

#define N 32

__global__ void round_tf32(const float* in, float* out) {
  const int i = threadIdx.x;
  if (i < N) out[i] = wmma::__float_to_tf32(in[i]);
}

// D = A x B with B's column j holding 1 at row j % 8 and 0 elsewhere: D[i][j] is A[i][j % 8] as
// the multiply read it. A's rows are 1 + a spread of low fraction bits, each row another spread.
__global__ void mma_tf32(const float* a, const float* b, float* d) {
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
  wmma::load_matrix_sync(fa, a, 8);
  wmma::load_matrix_sync(fb, b, 8);
  wmma::fill_fragment(fc, 0.0f);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}

static float FromBits(unsigned u) {
  float f;
  memcpy(&f, &u, 4);
  return f;
}

static unsigned Bits(float f) {
  unsigned u;
  memcpy(&u, &f, 4);
  return u;
}

int main() {
  const unsigned in_bits[N] = {
      0x00000000u, 0x80000000u, 0x3f800000u, 0x3f800fffu, 0x3f801000u, 0x3f801001u, 0x3f801fffu,
      0x3f802000u, 0x3f803000u, 0xbf801000u, 0xbf800fffu, 0xbf803000u, 0x7f7fffffu, 0x7f7fefffu,
      0x7f7ff000u, 0xff7ff000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0x7fc00001u, 0x7f800001u,
      0xffc01234u, 0x00000fffu, 0x00001000u, 0x00001001u, 0x80001000u, 0x007ff000u, 0x007fffffu,
      0x00800000u, 0x3eaaaaabu, 0x40490fdbu, 0x4d800000u};
  float h_in[N], h_out[N];
  for (int i = 0; i < N; ++i) h_in[i] = FromBits(in_bits[i]);
  float *d_in, *d_out;
  cudaMalloc(&d_in, sizeof h_in);
  cudaMalloc(&d_out, sizeof h_out);
  cudaMemcpy(d_in, h_in, sizeof h_in, cudaMemcpyHostToDevice);
  round_tf32<<<1, N>>>(d_in, d_out);
  cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
  for (int i = 0; i < N; ++i) printf("round %08x %08x\n", in_bits[i], Bits(h_out[i]));

  // A: 16 x 8, row major; row i, column k: 1.0 plus (i * 8 + k) * 0x1ff low fraction bits (some
  // below half of tf32's last place, some above, some on it); B: 8 x 16, column major.
  float h_a[16 * 8], h_b[8 * 16], h_d[16 * 16];
  for (int i = 0; i < 16; ++i)
    for (int k = 0; k < 8; ++k) h_a[i * 8 + k] = FromBits(0x3f800000u + (i * 8 + k) * 0x1ffu);
  for (int j = 0; j < 16; ++j)
    for (int k = 0; k < 8; ++k) h_b[j * 8 + k] = k == j % 8 ? 1.0f : 0.0f;
  float *d_a, *d_b, *d_d;
  cudaMalloc(&d_a, sizeof h_a);
  cudaMalloc(&d_b, sizeof h_b);
  cudaMalloc(&d_d, sizeof h_d);
  cudaMemcpy(d_a, h_a, sizeof h_a, cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, h_b, sizeof h_b, cudaMemcpyHostToDevice);
  mma_tf32<<<1, 32>>>(d_a, d_b, d_d);
  cudaMemcpy(h_d, d_d, sizeof h_d, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 16; ++i)
    for (int k = 0; k < 8; ++k)
      printf("mma %08x %08x\n", Bits(h_a[i * 8 + k]), Bits(h_d[i * 16 + k]));
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
