// The lesson drivers instantiated for a real GPU.
#include "warpscope/kernels/cuda_backend.h"
// clang-format off
#include "lessons/drivers.h"
// clang-format on
#include "src/lesson_entry_points.h"

namespace ws {

Status RunLessonCuda(const std::string& id, const std::string& variant, const Params& params,
                     const RunOptions& options, LessonRun* run) {
  CudaBackend backend(options);
  if (Status s = backend.Init(); !s.ok()) return s;
  Status s = lessons::RunLessonOn(backend, id, variant, params, &run->check, &run->metrics);
  if (!s.ok()) return s;
  if (!backend.status().ok()) return backend.status();
  run->device = backend.device();
  run->launches = std::move(backend.launches());
  run->timing = {"measured", backend.last_ms(),
                 "CUDA events, median of 5 runs after a warm-up, recording switched off"};
  return {};
}

}  // namespace ws
