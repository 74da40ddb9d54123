#include "warpscope/kernels/devices.h"

namespace ws {

std::string DefaultBackendLabel(const DeviceQuery& query) {
  if (!query.gpus.empty()) return query.gpus.front().name;
  return "CPU emulator";
}

}  // namespace ws
