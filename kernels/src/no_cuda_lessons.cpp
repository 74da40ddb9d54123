// Built when nvcc was not found: there is no CUDA runner.
#include "lesson_registry.h"

namespace ws {

bool HaveCudaRunner() {
  return false;
}
GpuRunner FindRecordedGpuRunner(const std::string&) {
  return nullptr;
}
GpuRunner FindTimedGpuRunner(const std::string&) {
  return nullptr;
}

}  // namespace ws
