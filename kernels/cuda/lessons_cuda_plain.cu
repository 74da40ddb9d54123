// Every kernel lesson, instantiated for a real GPU without recording: the same kernels compiled
// with WS_PLAIN_BUILD (no record calls, the plain __syncthreads(), internal linkage), timed with
// CUDA events. This is what the timing plot and the bandwidth figures show.
#define WS_PLAIN_BUILD 1
#include <map>

#include "warpscope/kernels/cuda_backend.h"
// clang-format off
#include "warpscope/kernels/lesson_list.h"
// clang-format on
#include "src/lesson_registry.h"

namespace ws {
namespace {

// A type of this file's own: the drivers instantiated with it (Lesson::Run<PlainCudaBackend>
// and the launch lambdas inside) get internal linkage, so the linker cannot merge them with the
// recorded build's Lesson::Run<CudaBackend>, which launches the recording kernels.
class PlainCudaBackend : public CudaBackend {
 public:
  explicit PlainCudaBackend(const RunOptions& options) : CudaBackend(options, kTimeOnly) {}
};

template <typename L>
Status RunTimed(LessonCall& call, BackendResult* out) {
  PlainCudaBackend backend(call.options);
  backend.UseResourceTable(call.compiled);
  if (Status s = backend.Init(); !s.ok()) return s;
  Status s = L::Run(backend, call);
  if (!s.ok()) return s;
  if (!backend.status().ok()) return backend.status();
  out->device = backend.device();
  out->launches = std::move(backend.launches());  // shapes only, no records
  out->timing.kind = "measured";
  out->timing.ms = backend.last_ms();
  out->timing.note = "uninstrumented build, CUDA events, median of " +
                     std::to_string(std::max(call.options.timed_runs, 1)) + " runs after a warm-up";
  return {};
}

// A lesson that measures more than one kernel's time (multi-gpu: several GPUs) does it itself.
template <typename L>
Status RunMeasured(LessonCall& call, BackendResult* out) {
  Status s = L::Measure(call);
  if (!s.ok()) return s;
  out->device = call.device;
  if (call.timing) out->timing = *call.timing;
  return {};
}

template <typename L>
void Add(std::map<std::string, GpuRunner>* m) {
  if constexpr (requires(LessonCall & c) { L::Measure(c); })
    (*m)[L::Info().id] = &RunMeasured<L>;
  else if constexpr (requires(PlainCudaBackend & b, LessonCall & c) { L::Run(b, c); })
    (*m)[L::Info().id] = &RunTimed<L>;
}

}  // namespace

GpuRunner FindTimedGpuRunner(const std::string& id) {
  static const std::map<std::string, GpuRunner> runners = [] {
    std::map<std::string, GpuRunner> m;
#define WS_ADD(NAME) Add<lessons::NAME::Lesson>(&m);
    WS_FOR_EACH_LESSON(WS_ADD)
#undef WS_ADD
    return m;
  }();
  auto it = runners.find(id);
  return it == runners.end() ? nullptr : it->second;
}

}  // namespace ws
