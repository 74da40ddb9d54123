// A 16x16x16 matrix multiply on the tensor cores by one warp (nvcuda::wmma), its tiles staged in
// shared memory as cuda-samples' cudaTensorCoreGemm stages them. Open it in Warpscope and look at
// the Fragments view: which lane holds which element of A, B and the accumulator (measured on an
// H200; NVIDIA does not document it), and the shared-memory rows each lane's load_matrix_sync
// reads. kSkew pads each row of the staged tiles: with rows of 64 halves (128 bytes) and no skew,
// the eight rows of each 8x8 matrix ldmatrix reads fall in the same four banks and its load takes
// 32 wavefronts; 8 halves of skew spread them over all 32 banks, and it takes 4; 16 halves
// (cudaTensorCoreGemm's SKEW_HALF) put them 160 bytes apart, two rows in each group of four banks:
// 8 (an H200 counted 32, 4 and 8: docs/ncu-agreement.md).
#include <cuda_fp16.h>
#include <mma.h>

#include <cstdio>

using namespace nvcuda;

constexpr int kWidth = 64;  // halves a staged row holds: the block's K of a larger GEMM
constexpr int kSkew = 0;    // warpscope: param kSkew 0..16 step 8 (halves of padding a row)
constexpr int kLd = kWidth + kSkew;

__global__ void tile_mma(const half* a, const half* b, float* c) {
  __shared__ half as[16][kLd];
  __shared__ half bs[16][kLd];
  const int lane = threadIdx.x;
  // Stage A (16 x 16, row major) and B (16 x 16, column major) into the tiles' first 16 columns.
  for (int i = lane; i < 256; i += 32) {
    as[i / 16][i % 16] = a[i];
    bs[i / 16][i % 16] = b[i];
  }
  __syncwarp();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, &as[0][0], kLd);
  wmma::load_matrix_sync(fb, &bs[0][0], kLd);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(c, acc, 16, wmma::mem_row_major);
}

int main() {
  half a[256], b[256];
  float c[256];
  // Small integers: every product and sum is exact in half and float.
  for (int i = 0; i < 256; ++i) {
    a[i] = __int2half_rn(i / 16 - i % 16);   // A[r][k] = r - k
    b[i] = __int2half_rn((i % 16) % 3 - 1);  // column major: B[k][n] = k mod 3 - 1
  }
  half *da = nullptr, *db = nullptr;
  float* dc = nullptr;
  cudaMalloc(&da, sizeof a);
  cudaMalloc(&db, sizeof b);
  cudaMalloc(&dc, sizeof c);
  cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice);
  tile_mma<<<1, 32>>>(da, db, dc);
  cudaMemcpy(c, dc, sizeof c, cudaMemcpyDeviceToHost);
  // C[r][n] = sum over k of (r - k)(k mod 3 - 1): the same for every n.
  int wrong = 0;
  for (int r = 0; r < 16; ++r) {
    float want = 0;
    for (int k = 0; k < 16; ++k) want += static_cast<float>((r - k) * (k % 3 - 1));
    for (int n = 0; n < 16; ++n) wrong += c[r * 16 + n] != want;
  }
  std::printf("C[0][0] = %g, C[15][15] = %g: %s\n", c[0], c[255], wrong == 0 ? "PASS" : "FAIL");
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  return wrong == 0 ? 0 : 1;
}
