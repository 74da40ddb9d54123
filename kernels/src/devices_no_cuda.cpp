// Built when nvcc was not found: the CPU emulator is the only backend.
#include "warpscope/kernels/devices.h"

namespace ws {

DeviceQuery QueryDevices() {
  DeviceQuery q;
  q.cuda_built = false;
  q.why_no_gpu = "this build of Warpscope has no CUDA runner (nvcc was not found at build time)";
  return q;
}

}  // namespace ws
