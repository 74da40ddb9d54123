// What a multi-GPU machine offers the multi-gpu lesson (issue 20): peer access between each
// pair of GPUs, and the bandwidth and latency of a ghost-plane-sized copy three ways: peer to
// peer (cudaMemcpyPeerAsync with peer access on), staged through pinned host memory, and the
// same peer copy with peer access off (the driver stages it).
//   nvcc -O2 -o p2p_probe bench/p2p_probe.cu && ./p2p_probe
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

#define CHECK(x)                                                                     \
  do {                                                                               \
    cudaError_t e_ = (x);                                                            \
    if (e_ != cudaSuccess) {                                                         \
      std::printf("%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      return 1;                                                                      \
    }                                                                                \
  } while (0)

// Median time in microseconds of `copy` on `stream`, timed with events on device `dev`.
template <typename F>
float MedianUs(int dev, cudaStream_t stream, F copy) {
  cudaSetDevice(dev);
  cudaEvent_t a, b;
  cudaEventCreate(&a);
  cudaEventCreate(&b);
  copy();  // warm-up
  cudaStreamSynchronize(stream);
  std::vector<float> t;
  for (int i = 0; i < 9; ++i) {
    cudaEventRecord(a, stream);
    copy();
    cudaEventRecord(b, stream);
    cudaEventSynchronize(b);
    float ms = 0;
    cudaEventElapsedTime(&ms, a, b);
    t.push_back(ms * 1000.0f);
  }
  std::sort(t.begin(), t.end());
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return t[t.size() / 2];
}

int main() {
  int n = 0;
  CHECK(cudaGetDeviceCount(&n));
  std::printf("GPUs: %d\n", n);
  for (int d = 0; d < n; ++d) {
    cudaDeviceProp p;
    CHECK(cudaGetDeviceProperties(&p, d));
    std::printf("  %d: %s, %d SMs, bus %02x:%02x\n", d, p.name, p.multiProcessorCount, p.pciBusID,
                p.pciDeviceID);
  }
  if (n < 2) return 0;
  // Sizes: one ghost plane of a 256x256 and a 1024x1024 float grid, and 64 MB.
  const size_t sizes[] = {4, 256 * 256 * 4, 1024 * 1024 * 4, 64u << 20};
  for (int src = 0; src < n; ++src) {
    for (int dst = 0; dst < n; ++dst) {
      if (src == dst) continue;
      int can = 0;
      CHECK(cudaDeviceCanAccessPeer(&can, dst, src));
      int rank = 0, atomics = 0;
      cudaDeviceGetP2PAttribute(&rank, cudaDevP2PAttrPerformanceRank, src, dst);
      cudaDeviceGetP2PAttribute(&atomics, cudaDevP2PAttrNativeAtomicSupported, src, dst);
      std::printf("%d -> %d: peer access %s, performance rank %d, native atomics %d\n", src, dst,
                  can ? "yes" : "no", rank, atomics);
    }
  }
  std::vector<void*> buf(n);
  std::vector<cudaStream_t> stream(n);
  void* host = nullptr;
  CHECK(cudaMallocHost(&host, sizes[3]));
  for (int d = 0; d < n; ++d) {
    CHECK(cudaSetDevice(d));
    CHECK(cudaMalloc(&buf[d], sizes[3]));
    CHECK(cudaStreamCreate(&stream[d]));
  }
  for (int pass = 0; pass < 2; ++pass) {
    const bool peer = pass == 1;
    if (peer) {
      for (int d = 0; d < n; ++d) {
        CHECK(cudaSetDevice(d));
        for (int o = 0; o < n; ++o) {
          int can = 0;
          cudaDeviceCanAccessPeer(&can, d, o);
          if (o != d && can) CHECK(cudaDeviceEnablePeerAccess(o, 0));
        }
      }
    }
    std::printf("\n%s\n", peer ? "peer access on" : "peer access off");
    for (size_t bytes : sizes) {
      const float p2p = MedianUs(
          0, stream[0], [&] { cudaMemcpyPeerAsync(buf[1], 1, buf[0], 0, bytes, stream[0]); });
      std::printf("  %10zu B  0->1 cudaMemcpyPeerAsync %9.2f us  %7.2f GB/s\n", bytes, p2p,
                  bytes / (p2p * 1e3));
      if (!peer) {
        const float staged = MedianUs(0, stream[0], [&] {
          cudaMemcpyAsync(host, buf[0], bytes, cudaMemcpyDeviceToHost, stream[0]);
          cudaMemcpyAsync(buf[1], host, bytes, cudaMemcpyHostToDevice, stream[0]);
        });
        std::printf("  %10zu B  0->host->1 (pinned)     %9.2f us  %7.2f GB/s\n", bytes, staged,
                    bytes / (staged * 1e3));
      }
    }
  }
  return 0;
}
