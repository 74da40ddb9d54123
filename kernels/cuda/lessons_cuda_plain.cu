// The lesson drivers instantiated for a real GPU without recording: the same kernels compiled
// with WS_PLAIN_BUILD (no record calls, the plain __syncthreads(), internal linkage), timed with
// CUDA events. This is what the timing plot and the bandwidth figures show.
#define WS_PLAIN_BUILD 1
#include "warpscope/kernels/cuda_backend.h"
// clang-format off
#include "lessons/drivers.h"
// clang-format on
#include "src/lesson_entry_points.h"

namespace ws {
namespace {

// A type of this file's own: the drivers instantiated with it (RunLessonOn<PlainCudaBackend>
// and the launch lambdas inside) get internal linkage, so the linker cannot merge them with the
// recorded build's RunLessonOn<CudaBackend>, which launches the recording kernels.
class PlainCudaBackend : public CudaBackend {
 public:
  explicit PlainCudaBackend(const RunOptions& options) : CudaBackend(options, kTimeOnly) {}
};

}  // namespace

Status TimeLessonCuda(const std::string& id, const std::string& variant, const Params& params,
                      const RunOptions& options, LessonRun* run) {
  PlainCudaBackend backend(options);
  if (Status s = backend.Init(); !s.ok()) return s;
  Status s = lessons::RunLessonOn(backend, id, variant, params, &run->check, &run->metrics);
  if (!s.ok()) return s;
  if (!backend.status().ok()) return backend.status();
  run->device = backend.device();
  run->launches = std::move(backend.launches());  // shapes only, no records
  run->timing.kind = "measured";
  run->timing.ms = backend.last_ms();
  run->timing.note = "uninstrumented build, CUDA events, median of " +
                     std::to_string(std::max(options.timed_runs, 1)) + " runs after a warm-up";
  return {};
}

}  // namespace ws
