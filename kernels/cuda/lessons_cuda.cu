// The lesson drivers instantiated for a real GPU, with recording (see lessons_cuda_plain.cu for
// the build the timings come from).
#include "warpscope/kernels/cuda_backend.h"
// clang-format off
#include "lessons/drivers.h"
// clang-format on
#include "src/lesson_entry_points.h"

namespace ws {

Status RunLessonCuda(const std::string& id, const std::string& variant, const Params& params,
                     const RunOptions& options, LessonRun* run) {
  LessonRun timed;
  if (!options.record) {  // the uninstrumented build only (what a profiler should see)
    Status s = TimeLessonCuda(id, variant, params, options, &timed);
    if (!s.ok()) return s;
    run->device = timed.device;
    run->launches = std::move(timed.launches);
    run->check = timed.check;
    run->metrics = timed.metrics;
    run->timing = timed.timing;
    return {};
  }
  {
    CudaBackend backend(options, CudaBackend::kRecord);
    if (Status s = backend.Init(); !s.ok()) return s;
    Status s = lessons::RunLessonOn(backend, id, variant, params, &run->check, &run->metrics);
    if (!s.ok()) return s;
    if (!backend.status().ok()) return backend.status();
    run->device = backend.device();
    run->launches = std::move(backend.launches());
    const CaptureCost& cost = backend.capture_cost();
    run->timing.record_ms = cost.record_ms;
    run->timing.count_ms = cost.count_ms;
    run->timing.record_bytes = cost.record_bytes;
    run->timing.records = cost.records;
  }
  // The same driver again on the uninstrumented kernels, for the time; its output must agree.
  if (Status s = TimeLessonCuda(id, variant, params, options, &timed); !s.ok()) return s;
  if (timed.check.ok != run->check.ok)
    return Status::Error(
        "the uninstrumented build's output check differs from the recorded "
        "build's: " +
        timed.check.message);
  // The block timeline is the GPU's own schedule: take it from the build without recording.
  if (id == "scalability") run->metrics = timed.metrics;
  run->timing.kind = timed.timing.kind;
  run->timing.ms = timed.timing.ms;
  run->timing.note = timed.timing.note;
  return {};
}

}  // namespace ws
