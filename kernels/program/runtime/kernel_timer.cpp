// libws_kernel_timer: each kernel's time on the GPU, for a program run as written (nothing of
// Warpscope compiled into it). The CUDA driver loads this library at cuInit when
// CUDA_INJECTION64_PATH names it and calls InitializeInjection; that asks CUPTI's activity API
// for every kernel's start and end on the GPU's clock (the records Nsight Systems draws), and
// writes one line per kernel to the file WS_KERNEL_TIMES names:
//
//   START_NS END_NS NAME        (NAME as the compiler mangled it)
//
// in the order CUPTI delivers them (the reader sorts by start). Records are written as CUPTI
// hands over its buffers, and the rest at exit; a program that crashes loses the last buffer.
// Where WS_KERNEL_COUNTERS names a file instead, the run counts (kernel_counters.cpp) and is not
// timed.
#include <cupti.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>

#include "kernel_counters.h"

namespace {

std::mutex g_mutex;
FILE* g_out = nullptr;  // guarded by g_mutex

constexpr std::size_t kBufferBytes = 1 << 20;

void CUPTIAPI BufferRequested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  // CUPTI wants 8-byte alignment.
  *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer != nullptr ? kBufferBytes : 0;
  *max_records = 0;  // as many as fit
}

void CUPTIAPI BufferCompleted(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t,
                              std::size_t valid) {
  std::lock_guard<std::mutex> lock(g_mutex);
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || g_out == nullptr) continue;
    const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
    std::fprintf(g_out, "%llu %llu %s\n", static_cast<unsigned long long>(k->start),
                 static_cast<unsigned long long>(k->end), k->name != nullptr ? k->name : "?");
  }
  std::free(buffer);
}

void FlushAtExit() {
  cuptiActivityFlushAll(1);  // delivers every buffer, full or not, to BufferCompleted
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_out != nullptr) std::fclose(g_out);
  g_out = nullptr;
}

}  // namespace

// The driver's entry point for an injection library. Returns 1 (loaded) even when timing could
// not start: the program runs as it would without it, and the reader finds no times.
extern "C" __attribute__((visibility("default"))) int InitializeInjection() {
  if (const char* counters = std::getenv("WS_KERNEL_COUNTERS"); counters != nullptr && *counters)
    return (ws::prog::StartKernelCounters(counters), 1);
  const char* path = std::getenv("WS_KERNEL_TIMES");
  if (path == nullptr || *path == '\0') return 1;
  g_out = std::fopen(path, "w");
  if (g_out == nullptr) return 1;
  if (cuptiActivityRegisterCallbacks(BufferRequested, BufferCompleted) != CUPTI_SUCCESS ||
      cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) != CUPTI_SUCCESS) {
    std::fputs("error: CUPTI would not time the kernels\n", g_out);
    std::fclose(g_out);
    g_out = nullptr;
    return 1;
  }
  std::atexit(FlushAtExit);
  return 1;
}
