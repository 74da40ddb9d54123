// The host's side of the hazard pass's launch (nvcc units only: it calls the CUDA runtime): the
// shadow of shared memory (ws_cuda_hazards.h) added to a launch's dynamic shared memory. Used by
// the lessons' WS_LAUNCH (cuda_backend.h) and a program's launches (ws_program_cuda.h).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "warpscope/kernels/ws_cuda_record_format.h"

namespace ws {

// The event a timed pass starts at (CudaBackend's passes set it, null otherwise): recorded here,
// right before the kernel is launched, so that a pass's time is its kernel's and not the host's
// setting of the recorder's state (a synchronous cudaMemcpyToSymbol, tens of microseconds of an
// idle GPU between the events for a lesson's small launch) nor the shadow's attribute calls.
inline cudaEvent_t& PassStartEvent() {
  static thread_local cudaEvent_t start = nullptr;
  return start;
}
inline void RecordPassStart() {
  if (cudaEvent_t& start = PassStartEvent(); start != nullptr) {
    // Its error is not the launch's (the launch reads cudaGetLastError after it): taken back here.
    if (cudaEventRecord(start) != cudaSuccess) (void)cudaGetLastError();
    start = nullptr;
  }
}

// Launches (`launch(dynamic bytes)`) with the hazard pass's shadow of shared memory added to the
// launch's `dynamic` bytes where `st` carries one: where the sum is past the kernel's largest
// dynamic size, that is set to the sum for this launch (CUDA's 48 KB without it count the static
// bytes too: a kernel with 16 KB of static arrays failed to launch with a 35 KB shadow) and set
// back after it, so that the program's own launches meet the limit they meet without Warpscope.
// `kernel`: the kernel's address, as the runtime's calls take it.
template <typename Kernel, typename Launch>
cudaError_t LaunchWithSharedShadow(Kernel kernel, std::size_t dynamic, const dev::RecorderState& st,
                                   Launch&& launch) {
  if (st.hazard_shared_bytes == 0) {
    RecordPassStart();
    return launch(dynamic);
  }
  cudaFuncAttributes a{};
  cudaError_t e = cudaFuncGetAttributes(&a, kernel);
  if (e != cudaSuccess) return e;
  const std::size_t total = dynamic + st.hazard_shared_bytes;
  if (total <= static_cast<std::size_t>(a.maxDynamicSharedSizeBytes)) {  // the limit holds it
    RecordPassStart();
    return launch(total);
  }
  e = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                           static_cast<int>(total));
  if (e != cudaSuccess) return e;
  RecordPassStart();
  e = launch(total);
  const cudaError_t back = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                a.maxDynamicSharedSizeBytes);
  return e != cudaSuccess ? e : back;
}

}  // namespace ws
