// Built when nvcc was not found.
#include "lesson_entry_points.h"

namespace ws {

Status RunLessonCuda(const std::string&, const std::string&, const Params&, const RunOptions&,
                     LessonRun*) {
  return Status::Error(
      "this build of Warpscope has no CUDA runner (nvcc was not found at build "
      "time); use --backend emu");
}

Status RunTransfersCuda(const std::string&, const Params&, const RunOptions&, LessonRun*) {
  return Status::Error(
      "transfers measures copies between this machine and a GPU, and this build of Warpscope "
      "has no CUDA runner (nvcc was not found at build time)");
}

}  // namespace ws
