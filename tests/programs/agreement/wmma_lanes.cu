// nvcuda::wmma, on the emulator against the GPU (issue 53): the same program run as written on
// an H200 printed tests/programs/agreement/wmma_lanes.gpu.txt (nvcc 13.0, -arch=sm_90), and the
// emulator must print the same (CoursePrograms.WmmaIsTheGpusLaneForLane). One warp a kernel:
//   gemm    D = A B + C for each input type the GPU has a shape for (half and bf16 m16n16k16 with
//           float accumulators, s8 with int, tf32 m16n16k8, double m8n8k4), small integers so
//           that every result is exact;
//   scale   an accumulator loaded column major, each lane's x[i] times i + 1, stored row major:
//           which lane holds which element shows in every value;
//   copies  half's matrix_a and matrix_b hold each element twice in a lane (x[i] and x[i + 8]),
//           four times in m32n8k16's matrix_b and m8n32k16's matrix_a: one copy zeroed before
//           mma_sync shows which one the multiply reads.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include <cstdio>
#include <type_traits>

using namespace nvcuda;

template <typename T>
__host__ __device__ T From(int v) {
  return static_cast<T>(v);
}
template <>
__host__ __device__ __half From<__half>(int v) {
  return __int2half_rn(v);
}
template <>
__host__ __device__ __nv_bfloat16 From<__nv_bfloat16>(int v) {
  return __int2bfloat16_rn(v);
}

template <typename T>
struct Stored {
  using type = T;
};
template <>
struct Stored<wmma::precision::tf32> {
  using type = float;
};

template <int M, int N, int K, typename T, typename C, typename LA, typename LB>
__global__ void Gemm(const typename Stored<T>::type* a, const typename Stored<T>::type* b,
                     const C* c, C* d, int lda, int ldb) {
  wmma::fragment<wmma::matrix_a, M, N, K, T, LA> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, T, LB> fb;
  wmma::fragment<wmma::accumulator, M, N, K, C> fc;
  wmma::load_matrix_sync(fa, a, lda);
  wmma::load_matrix_sync(fb, b, ldb);
  wmma::load_matrix_sync(fc, c, N, wmma::mem_row_major);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, N, wmma::mem_row_major);
}

__global__ void Scale(const float* c, float* d) {
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> f;
  wmma::load_matrix_sync(f, c, 16, wmma::mem_col_major);
  for (int i = 0; i < f.num_elements; ++i) f.x[i] *= i + 1;
  wmma::store_matrix_sync(d, f, 16, wmma::mem_row_major);
}

// which: 0 zeroes A's x[0..7], 1 A's x[8..15], 2 B's x[0..7], 3 B's x[8..15].
__global__ void Copies(const __half* a, const __half* b, float* d, int which) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  for (int i = 0; i < 16; ++i) {
    if (which < 2 && (i < 8) == (which == 0)) fa.x[i] = __int2half_rn(0);
    if (which >= 2 && (i < 8) == (which == 2)) fb.x[i] = __int2half_rn(0);
  }
  wmma::fill_fragment(fc, 0.0f);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}

// The 128-element operands hold each element four times (x[0..3], x[4..7], x[8..11], x[12..15]):
// m32n8k16's matrix_b and m8n32k16's matrix_a, with group `group` zeroed before mma_sync.
template <int M, int N, int K, bool kZeroA>
__global__ void Copies4(const __half* a, const __half* b, float* d, int group) {
  wmma::fragment<wmma::matrix_a, M, N, K, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, M, N, K, __half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, M, N, K, float> fc;
  wmma::load_matrix_sync(fa, a, K);
  wmma::load_matrix_sync(fb, b, N);
  for (int i = 4 * group; i < 4 * group + 4; ++i) {
    if (kZeroA)
      fa.x[i] = __int2half_rn(0);
    else
      fb.x[i] = __int2half_rn(0);
  }
  wmma::fill_fragment(fc, 0.0f);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(d, fc, N, wmma::mem_row_major);
}

template <typename C>
void Print(const char* label, const C* d, int rows, int cols) {
  std::printf("%s\n", label);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) std::printf(" %g", static_cast<double>(d[r * cols + c]));
    std::printf("\n");
  }
}

// A (m x k) and B (k x n) hold small integers; C is r - c. Row or column major as the fragment's.
template <int M, int N, int K, typename T, typename C, typename LA, typename LB>
void RunGemm(const char* label) {
  using S = typename Stored<T>::type;
  constexpr bool kRowA = std::is_same_v<LA, wmma::row_major>;
  constexpr bool kRowB = std::is_same_v<LB, wmma::row_major>;
  S ha[M * K], hb[K * N];
  C hc[M * N], hd[M * N];
  for (int r = 0; r < M; ++r)
    for (int k = 0; k < K; ++k) ha[kRowA ? r * K + k : k * M + r] = From<S>((r * 3 + k) % 7 - 3);
  for (int k = 0; k < K; ++k)
    for (int c = 0; c < N; ++c) hb[kRowB ? k * N + c : c * K + k] = From<S>((k + 2 * c) % 5 - 2);
  for (int i = 0; i < M * N; ++i) hc[i] = static_cast<C>(i / N - i % N);
  S *a, *b;
  C *c, *d;
  cudaMalloc(&a, sizeof ha);
  cudaMalloc(&b, sizeof hb);
  cudaMalloc(&c, sizeof hc);
  cudaMalloc(&d, sizeof hd);
  cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice);
  cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice);
  cudaMemcpy(c, hc, sizeof hc, cudaMemcpyHostToDevice);
  Gemm<M, N, K, T, C, LA, LB><<<1, 32>>>(a, b, c, d, kRowA ? K : M, kRowB ? N : K);
  cudaMemcpy(hd, d, sizeof hd, cudaMemcpyDeviceToHost);
  Print(label, hd, M, N);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  cudaFree(d);
}

int main() {
  RunGemm<16, 16, 16, __half, float, wmma::row_major, wmma::col_major>("gemm half m16n16k16");
  RunGemm<16, 16, 16, __nv_bfloat16, float, wmma::col_major, wmma::row_major>(
      "gemm bf16 m16n16k16");
  RunGemm<32, 8, 16, __half, float, wmma::row_major, wmma::row_major>("gemm half m32n8k16");
  RunGemm<16, 16, 16, signed char, int, wmma::row_major, wmma::col_major>("gemm s8 m16n16k16");
  RunGemm<16, 16, 8, wmma::precision::tf32, float, wmma::row_major, wmma::col_major>(
      "gemm tf32 m16n16k8");
  RunGemm<8, 8, 4, double, double, wmma::row_major, wmma::row_major>("gemm double m8n8k4");

  float hc[256], hd[256];
  for (int i = 0; i < 256; ++i) hc[i] = static_cast<float>(i);
  float *c, *d;
  cudaMalloc(&c, sizeof hc);
  cudaMalloc(&d, sizeof hd);
  cudaMemcpy(c, hc, sizeof hc, cudaMemcpyHostToDevice);
  Scale<<<1, 32>>>(c, d);
  cudaMemcpy(hd, d, sizeof hd, cudaMemcpyDeviceToHost);
  Print("scale", hd, 16, 16);

  __half ha[256], hb[256];
  for (int i = 0; i < 256; ++i) {
    ha[i] = __int2half_rn(i % 16 + 1);                // A(r, k) = k + 1
    hb[i] = __int2half_rn(i / 16 == i % 16 ? 1 : 0);  // B = I
  }
  __half *a, *b;
  cudaMalloc(&a, 2 * sizeof ha);
  cudaMalloc(&b, 2 * sizeof hb);
  cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice);
  cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice);
  const char* labels[] = {"copies: A's x[0..7] zeroed", "copies: A's x[8..15] zeroed",
                          "copies: B's x[0..7] zeroed", "copies: B's x[8..15] zeroed"};
  for (int which = 0; which < 4; ++which) {
    // B's case: A = I, B(k, n) = n + 1, so that D shows B.
    Copies<<<1, 32>>>(which < 2 ? a : b, which < 2 ? b : a, d, which);
    cudaMemcpy(hd, d, sizeof hd, cudaMemcpyDeviceToHost);
    Print(labels[which], hd, 16, 16);
  }
  // m32n8k16: A(r, k) = 1 where k = r mod 16, B(k, n) = 8 k + n + 1, so D shows B twice.
  // m8n32k16: A(r, k) = 16 r + k + 1, B(k, n) = 1 where n = k, so D's first 16 columns show A.
  __half a4[512], b4[512];
  float d4[256];
  for (int shape = 0; shape < 2; ++shape) {
    for (int i = 0; i < 512; ++i) {
      a4[i] = __int2half_rn(shape == 0 ? (i % 16 == (i / 16) % 16 ? 1 : 0) : i + 1);
      b4[i] = __int2half_rn(shape == 0 ? i + 1 : (i % 32 == i / 32 ? 1 : 0));
    }
    cudaMemcpy(a, a4, shape == 0 ? 1024 : 256, cudaMemcpyHostToDevice);
    cudaMemcpy(b, b4, shape == 0 ? 256 : 1024, cudaMemcpyHostToDevice);
    for (int group = 0; group < 4; ++group) {
      if (shape == 0)
        Copies4<32, 8, 16, false><<<1, 32>>>(a, b, d, group);
      else
        Copies4<8, 32, 16, true><<<1, 32>>>(a, b, d, group);
      cudaMemcpy(d4, d, sizeof d4, cudaMemcpyDeviceToHost);
      char label[80];
      std::snprintf(label, sizeof label, "copies: %s's x[%d..%d] zeroed, %s",
                    shape == 0 ? "B" : "A", 4 * group, 4 * group + 3,
                    shape == 0 ? "m32n8k16" : "m8n32k16");
      Print(label, d4, shape == 0 ? 32 : 8, shape == 0 ? 8 : 32);
    }
  }
  std::printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
