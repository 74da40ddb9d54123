// Which lane holds which element of an nvcuda::wmma fragment: NVIDIA documents the fragments as
// opaque ("the mapping of matrix elements into fragment internal storage is unspecified"), so it
// is measured. For every fragment type the GPU has (shapes m16n16k16, m32n8k16, m8n32k16 for half,
// bf16 and 8-bit integers, m16n16k8 for tf32, m8n8k4 for double; matrix_a and matrix_b in both
// layouts, the accumulators), a tile in memory holds each element's row, and then its column, as
// small integers (exact in every element type); load_matrix_sync fills the fragment, and every
// lane writes out x[i] for each i. The output (stdout) is the table the emulator uses:
// kernels/tensor/fragments.tsv, one line a fragment type and lane: where each x[i] is in the tile.
// A standalone program (nvcc only): scripts/gpu-fragment-probe.sh builds and runs it on the GPU
// machine and checks that every element of every fragment is held (it counts the elements a lane
// holds twice, as half's matrix_a and matrix_b do on an H200, and those several lanes hold).
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "ws_cuda_check.h"

using namespace nvcuda;

namespace {

// The element type in memory for a fragment's type (tf32's is float).
template <typename T>
struct Stored {
  using type = T;
};
template <>
struct Stored<wmma::precision::tf32> {
  using type = float;
};

template <typename T>
__host__ __device__ T FromInt(int v) {
  return static_cast<T>(v);
}
template <>
__host__ __device__ __half FromInt<__half>(int v) {
  return __int2half_rn(v);
}
template <>
__host__ __device__ __nv_bfloat16 FromInt<__nv_bfloat16>(int v) {
  return __int2bfloat16_rn(v);
}
template <typename T>
__device__ int ToInt(T v) {
  return static_cast<int>(v);
}
template <>
__device__ int ToInt<__half>(__half v) {
  return __half2int_rn(v);
}
template <>
__device__ int ToInt<__nv_bfloat16>(__nv_bfloat16 v) {
  return __bfloat162int_rn(v);
}

// One warp: loads the tile at `tile` (leading dimension ldm) into the fragment and writes each
// lane's x[i] at out[lane * 64 + i].
template <typename Use, int M, int N, int K, typename T, typename Layout>
__global__ void Probe(const typename Stored<T>::type* tile, unsigned ldm, int* out, int* count) {
  wmma::fragment<Use, M, N, K, T, Layout> f;
  wmma::load_matrix_sync(f, tile, ldm);
  for (int i = 0; i < f.num_elements; ++i) out[threadIdx.x * 64 + i] = ToInt(f.x[i]);
  if (threadIdx.x == 0) *count = f.num_elements;
}
template <typename Use, int M, int N, int K, typename T, wmma::layout_t kMem>
__global__ void ProbeAccumulator(const T* tile, unsigned ldm, int* out, int* count) {
  wmma::fragment<Use, M, N, K, T> f;
  wmma::load_matrix_sync(f, tile, ldm, kMem);
  for (int i = 0; i < f.num_elements; ++i) out[threadIdx.x * 64 + i] = ToInt(f.x[i]);
  if (threadIdx.x == 0) *count = f.num_elements;
}

int failures = 0;

template <typename L>
struct Tag {  // wmma's layouts are incomplete types: passed by name
  using type = L;
};

// Runs a probe on a tile of rows x cols whose elements hold their row (what = 0), then their
// column (what = 1), stored row-major or column-major, and prints the table's lines. `launch` a
// function, not a template parameter: one Measure per element type, not one per fragment type
// (the emulator's test compiles this program under the sanitizers).
template <typename S>
void Measure(const char* shape, const char* use, const char* type, const char* layout, int rows,
             int cols, bool row_major, void (*launch)(const S*, unsigned, int*, int*)) {
  int got[2][32 * 64] = {};
  int elements = 0;
  for (int what = 0; what < 2; ++what) {
    const unsigned ldm = row_major ? cols : rows;
    std::vector<S> host(static_cast<std::size_t>(rows) * cols);
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < cols; ++c) {
        host[row_major ? r * ldm + c : c * ldm + r] = FromInt<S>(what == 0 ? r : c);
      }
    }
    S* tile = nullptr;
    int* out = nullptr;
    int* count = nullptr;
    WS_CUDA_CHECK(cudaMalloc(&tile, host.size() * sizeof(S)));
    WS_CUDA_CHECK(cudaMalloc(&out, sizeof got[0]));
    WS_CUDA_CHECK(cudaMalloc(&count, sizeof(int)));
    WS_CUDA_CHECK(cudaMemcpy(tile, host.data(), host.size() * sizeof(S), cudaMemcpyHostToDevice));
    WS_CUDA_CHECK(cudaMemset(out, 0xff, sizeof got[0]));
    launch(tile, ldm, out, count);
    WS_CUDA_CHECK(cudaGetLastError());
    WS_CUDA_CHECK(cudaDeviceSynchronize());
    WS_CUDA_CHECK(cudaMemcpy(got[what], out, sizeof got[0], cudaMemcpyDeviceToHost));
    WS_CUDA_CHECK(cudaMemcpy(&elements, count, sizeof(int), cudaMemcpyDeviceToHost));
    WS_CUDA_CHECK(cudaFree(tile));
    WS_CUDA_CHECK(cudaFree(out));
    WS_CUDA_CHECK(cudaFree(count));
  }
  // A line a lane: x[0], x[1], ... as row,col. Every element of the tile held at least once,
  // none outside it; counted: elements a lane holds at two places of x, and elements that
  // several lanes hold.
  std::vector<int> lanes(static_cast<std::size_t>(rows) * cols, 0);
  int twice = 0;
  for (int lane = 0; lane < 32; ++lane) {
    std::printf("%s\t%s\t%s\t%s\t%d\t%d\t", shape, use, type, layout, elements, lane);
    std::vector<char> mine(static_cast<std::size_t>(rows) * cols, 0);
    for (int i = 0; i < elements; ++i) {
      const int r = got[0][lane * 64 + i], c = got[1][lane * 64 + i];
      std::printf("%s%d,%d", i == 0 ? "" : " ", r, c);
      if (r < 0 || r >= rows || c < 0 || c >= cols) {
        std::fprintf(stderr, "%s %s %s %s: lane %d x[%d] = (%d, %d), outside %dx%d\n", shape, use,
                     type, layout, lane, i, r, c, rows, cols);
        ++failures;
        continue;
      }
      const std::size_t e = static_cast<std::size_t>(r) * cols + c;
      if (mine[e]++ == 0) {
        ++lanes[e];
      } else {
        ++twice;
      }
    }
    std::printf("\n");
  }
  int missing = 0, several = 0;
  for (int n : lanes) {
    missing += n == 0;
    several += n > 1;
  }
  std::fprintf(stderr,
               "%s %s %s %s: %d elements a lane, %d of %d held, %d twice in one lane, %d by "
               "several lanes\n",
               shape, use, type, layout, elements, rows * cols - missing, rows * cols, twice,
               several);
  if (missing != 0) ++failures;
}

template <typename T, int M, int N, int K>
void Inputs(const char* shape, const char* type) {
  using S = typename Stored<T>::type;
  auto a = [&](auto layout, const char* name, bool row) {
    using L = typename decltype(layout)::type;
    Measure<S>(shape, "a", type, name, M, K, row, [](const S* t, unsigned ldm, int* o, int* c) {
      Probe<wmma::matrix_a, M, N, K, T, L><<<1, 32>>>(t, ldm, o, c);
    });
  };
  auto b = [&](auto layout, const char* name, bool row) {
    using L = typename decltype(layout)::type;
    Measure<S>(shape, "b", type, name, K, N, row, [](const S* t, unsigned ldm, int* o, int* c) {
      Probe<wmma::matrix_b, M, N, K, T, L><<<1, 32>>>(t, ldm, o, c);
    });
  };
  a(Tag<wmma::row_major>{}, "row", true);
  a(Tag<wmma::col_major>{}, "col", false);
  b(Tag<wmma::row_major>{}, "row", true);
  b(Tag<wmma::col_major>{}, "col", false);
}

template <typename T, int M, int N, int K>
void Accumulator(const char* shape, const char* type) {
  Measure<T>(shape, "c", type, "row", M, N, true, [](const T* t, unsigned ldm, int* o, int* c) {
    ProbeAccumulator<wmma::accumulator, M, N, K, T, wmma::mem_row_major><<<1, 32>>>(t, ldm, o, c);
  });
  Measure<T>(shape, "c", type, "col", M, N, false, [](const T* t, unsigned ldm, int* o, int* c) {
    ProbeAccumulator<wmma::accumulator, M, N, K, T, wmma::mem_col_major><<<1, 32>>>(t, ldm, o, c);
  });
}

template <int M, int N, int K>
void Shape(const char* shape) {
  Inputs<__half, M, N, K>(shape, "half");
  Inputs<__nv_bfloat16, M, N, K>(shape, "bf16");
  Inputs<signed char, M, N, K>(shape, "s8");
  Inputs<unsigned char, M, N, K>(shape, "u8");
  Accumulator<float, M, N, K>(shape, "float");
  Accumulator<__half, M, N, K>(shape, "half");
  Accumulator<int, M, N, K>(shape, "int");
}

}  // namespace

int main() {
  cudaDeviceProp p{};
  WS_CUDA_CHECK(cudaGetDeviceProperties(&p, 0));
  std::printf("# %s, compute %d.%d, CUDA runtime %d\n", p.name, p.major, p.minor, CUDART_VERSION);
  std::printf("# shape\tuse\ttype\tlayout\telements\tlane\tx[0] x[1] ... as row,col\n");
  Shape<16, 16, 16>("m16n16k16");
  Shape<32, 8, 16>("m32n8k16");
  Shape<8, 32, 16>("m8n32k16");
  Inputs<wmma::precision::tf32, 16, 16, 8>("m16n16k8", "tf32");
  Accumulator<float, 16, 16, 8>("m16n16k8", "float");
  Inputs<double, 8, 8, 4>("m8n8k4", "double");
  Accumulator<double, 8, 8, 4>("m8n8k4", "double");
  std::fprintf(
      stderr, "%s\n",
      failures == 0 ? "every fragment holds its whole tile" : "FAILED: see the lines above");
  return failures == 0 ? 0 : 1;
}
