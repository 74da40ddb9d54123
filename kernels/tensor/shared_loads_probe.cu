// Which instructions nvcuda::wmma's load_matrix_sync, mma_sync and store_matrix_sync become when
// the tile is in shared memory (issue 53: a load from shared memory is to be costed as the
// requests the hardware makes). scripts/gpu-fragment-probe.sh compiles it for the GPU it runs on
// and keeps the shared-memory and tensor instructions of its SASS (cuobjdump -sass) in
// OUT_DIR/shared-loads.sass. `skew` pads each tile row, as cudaTensorCoreGemm's SKEW_HALF does.
// Nothing is run: only the compiled code is read.
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;
template <typename L, typename LB>
__global__ void HalfFromShared(const half* a, const half* b, float* c, int skew) {
  __shared__ half sa[16 * 24], sb[16 * 24];
  for (int i = threadIdx.x; i < 16 * 24; i += 32) sa[i] = a[i], sb[i] = b[i];
  __syncthreads();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, L> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, LB> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, sa, 16 + skew);
  wmma::load_matrix_sync(fb, sb, 16 + skew);
  wmma::mma_sync(fc, fa, fb, fc);
  __shared__ float scs[16 * 24];
  wmma::store_matrix_sync(scs, fc, 16 + skew, wmma::mem_row_major);
  __syncthreads();
  for (int i = threadIdx.x; i < 256; i += 32) c[i] = scs[i];
}
template __global__ void HalfFromShared<wmma::row_major, wmma::col_major>(const half*, const half*,
                                                                          float*, int);
template __global__ void HalfFromShared<wmma::col_major, wmma::row_major>(const half*, const half*,
                                                                          float*, int);
__global__ void Tf32FromShared(const float* a, float* c) {
  __shared__ float sa[16 * 8];
  for (int i = threadIdx.x; i < 128; i += 32) sa[i] = a[i];
  __syncthreads();
  wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
  wmma::load_matrix_sync(fa, sa, 8);
  for (int i = 0; i < fa.num_elements; ++i) c[threadIdx.x * 4 + i] = fa.x[i];
}
__global__ void S8FromShared(const signed char* a, int* c) {
  __shared__ signed char sa[16 * 16];
  for (int i = threadIdx.x; i < 256; i += 32) sa[i] = a[i];
  __syncthreads();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
  wmma::load_matrix_sync(fa, sa, 16);
  for (int i = 0; i < fa.num_elements; ++i) c[threadIdx.x * 8 + i] = fa.x[i];
}
