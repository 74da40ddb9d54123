// What the hazard pass costs on the GPU: the transpose lesson's padded kernel at tile 32 on 4,096²
// floats (as bench/gpu_tally_micro.cu records it: a global load, a shared store, the barrier, a
// shared load, a global store), run as the hazard unit runs a lesson's kernel (mode kHazards, its
// shared words' shadow in the block's own shared memory past the launch's dynamic bytes, the input
// buffer read only, the output's words shadowed in device memory), against the kernel alone. Each
// run's flagged blocks are counted: none (the padded transpose has no race). A standalone program
// (nvcc only, no CMake build) so that one short device call can compare two builds of the hazard
// code: bench/gpu_hazard_micro.sh builds it against this tree's headers and, given a folder, an
// older tree's, with and without a cap of 32 registers.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "gpu_micro_timing.h"  // Alloc, EventMs
#include "warpscope/kernels/ws_cuda_device.h"
#include "ws_cuda_check.h"

// The lesson form's entry, first in the kernel as in a lesson's (a build may define it: the lean
// recording build does, ws_cuda_tally.h; the hazard build defines none).
#if !defined(WS_KERNEL_ENTRY)
#define WS_KERNEL_ENTRY
#endif

namespace {

template <bool kChecked>
__global__ void Transpose(float* out, const float* in, int width, int input_buffer) {
  if constexpr (kChecked) {
    WS_KERNEL_ENTRY
  }
  __shared__ float tile[32][33];
  const unsigned tx = threadIdx.x, ty = threadIdx.y;
  const unsigned x = blockIdx.x * 32 + tx, y = blockIdx.y * 32 + ty;
  const auto buffer = static_cast<std::uint32_t>(input_buffer);  // 1: the output's is 0
  // Shared offsets in the block's shared window, as a lesson's Shared<T> gives them.
  const auto tile_at = static_cast<std::uint32_t>(__cvta_generic_to_shared(&tile[0][0]));
  if (kChecked) {
    ws::dev::RecordAccess(
        ws::MakeSiteKey(ws::MakePlace(0x1234, 20), ws::kKeyGlobal, ws::kKeyLoad, 4, buffer),
        (y * width + x) * 4);
    ws::dev::RecordAccess(
        ws::MakeSiteKey(ws::MakePlace(0x1234, 20), ws::kKeyShared, ws::kKeyStore, 4, 0),
        tile_at + (ty * 33 + tx) * 4);
  }
  tile[ty][tx] = in[y * width + x];
  if (kChecked) {
    ws::dev::SyncThreads(ws::MakePlace(0x1234, 21));
  } else {
    (__syncthreads)();
  }
  const unsigned x2 = blockIdx.y * 32 + tx, y2 = blockIdx.x * 32 + ty;
  if (kChecked) {
    ws::dev::RecordAccess(
        ws::MakeSiteKey(ws::MakePlace(0x1234, 22), ws::kKeyShared, ws::kKeyLoad, 4, 0),
        tile_at + (tx * 33 + ty) * 4);
    ws::dev::RecordAccess(
        ws::MakeSiteKey(ws::MakePlace(0x1234, 22), ws::kKeyGlobal, ws::kKeyStore, 4, buffer - 1),
        (y2 * width + x2) * 4);
  }
  out[y2 * width + x2] = tile[tx][ty];
}

}  // namespace

int main(int argc, char** argv) {
  const unsigned side = argc > 1 ? static_cast<unsigned>(std::atoi(argv[1])) : 4096;
  const std::size_t n = std::size_t{side} * side;
  const dim3 grid(side / 32, side / 32), block(32, 32);
  const std::size_t blocks = std::size_t{grid.x} * grid.y, threads = 1024;
  float* in = Alloc<float>(n);
  float* out = Alloc<float>(n);
  // The block's shared window (the tile's 4,224 bytes) and 1 KB, as the backend sizes it, its
  // shadow 8 bytes a word past the launch's dynamic bytes (none), from byte 0.
  const unsigned shared_words = (4224 + 1024 + 3) / 4, shadow_bytes = shared_words * 8;
  ws::dev::RecorderState st{};
  st.mode = ws::dev::kHazards;
  st.hazard_mode = ws::dev::kHazardsBuild;
  st.threads_per_block = threads;
  st.warps_per_block = threads / 32;
  st.shared_shadow_words = shared_words;
  st.hazard_shared_bytes = shadow_bytes;
  st.hazard_shared_offset = 0;
  st.hazard_tag = 0x5eed1234u;
  st.hazard_read_only = 1ull << 1;  // the input, buffer 1
  std::vector<unsigned long long> table = {1, n, ws::dev::kReadOnlyBuffer, 0};
  auto* table_d = Alloc<unsigned long long>(table.size());
  WS_CUDA_CHECK(cudaMemcpy(table_d, table.data(), table.size() * 8, cudaMemcpyHostToDevice));
  st.buffer_shadow = table_d;
  st.buffer_shadow_count = 2;
  st.global_shadow = Alloc<unsigned long long>(n);
  st.thread_epoch = Alloc<unsigned short>(blocks * threads);
  st.hazard_block = Alloc<unsigned char>(blocks);
  st.hazard_counts = Alloc<unsigned long long>(2);
  st.files = Alloc<const char*>(ws::dev::kDeviceFileTags);
  WS_CUDA_CHECK(cudaFuncSetAttribute(Transpose<true>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     static_cast<int>(shadow_bytes)));
  auto time = [&](const char* label, auto kernel, unsigned dynamic, bool checked) {
    WS_CUDA_CHECK(cudaMemcpyToSymbol(ws_recorder_state, &st, sizeof st));
    std::vector<float> ms;
    for (int i = 0; i < 15; ++i) {
      if (checked) {
        WS_CUDA_CHECK(cudaMemset(st.global_shadow, 0, n * 8));
        WS_CUDA_CHECK(cudaMemset(st.thread_epoch, 0, blocks * threads * 2));
        WS_CUDA_CHECK(cudaMemset(st.hazard_block, 0, blocks));
        WS_CUDA_CHECK(cudaMemset(st.hazard_counts, 0, 16));
        // A fresh tag each launch, as the backend's launch count gives one.
        st.hazard_tag = 0x5eed1234u + static_cast<unsigned>(i) * 0x9e3779b9u;
        WS_CUDA_CHECK(cudaMemcpyToSymbol(ws_recorder_state, &st, sizeof st));
      }
      ms.push_back(
          EventMs([&] { kernel<<<grid, block, dynamic>>>(out, in, static_cast<int>(side), 1); }));
    }
    std::sort(ms.begin(), ms.end());
    cudaFuncAttributes attr{};
    WS_CUDA_CHECK(cudaFuncGetAttributes(&attr, kernel));
    std::vector<unsigned char> flags(blocks);
    WS_CUDA_CHECK(cudaMemcpy(flags.data(), st.hazard_block, blocks, cudaMemcpyDeviceToHost));
    const auto flagged = std::count(flags.begin(), flags.end(), 1);
    std::printf("%-34s %8.4f ms  (min %.4f)  %3d registers  %zu bytes local  flagged %ld of %zu\n",
                label, ms[ms.size() / 2], ms[0], attr.numRegs, attr.localSizeBytes,
                checked ? static_cast<long>(flagged) : 0L, blocks);
    return ms[ms.size() / 2];
  };
  std::printf("transpose padded, tile 32, %u x %u floats\n", side, side);
  const float plain = time("plain", Transpose<false>, 0, false);
  const float checked = time("hazard pass", Transpose<true>, shadow_bytes, true);
  std::printf("hazard pass / plain: %.2fx\n", checked / plain);
  return 0;
}
