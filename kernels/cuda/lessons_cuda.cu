// Every lesson, instantiated for a real GPU with recording (see lessons_cuda_plain.cu for the
// build the timings come from), and the GPU-only lessons' host parts. The kernels here count and
// record; their hazard passes run the hazard unit's build (lessons_cuda_hazard.cu), and the lean
// unit's build (lessons_cuda_lean.cu) records where it fits more blocks (cuda_pass_units.h).
#define WS_RECORD_BUILD 1
// A lesson's __constant__ array: its name by this unit's symbol, so that CopyToSymbol can fill
// the other units' arrays of the same name.
#if !defined(__CUDA_ARCH__)
#define WS_LESSON_CONSTANT_VIEW(name)                            \
  [[maybe_unused]] static const bool ws_record_constant_##name = \
      (::ws::ConstantNames()[static_cast<const void*>(&name)] = #name, true)
#endif
#include <map>

#include "warpscope/kernels/cuda_backend.h"
// clang-format off
#include "warpscope/kernels/lesson_list.h"
// clang-format on
#include "src/lesson_registry.h"

namespace ws {
namespace {

static_assert(LessonBackend<CudaBackend>);

template <typename L>
Status RunRecorded(LessonCall& call, BackendResult* out) {
  CudaBackend backend(call.options, CudaBackend::kRecord);
  if (Status s = backend.Init(); !s.ok()) return s;
  Status s = L::Run(backend, call);
  if (!s.ok()) return s;
  if (!backend.status().ok()) return backend.status();
  out->device = backend.device();
  out->launches = std::move(backend.launches());
  const CaptureCost& cost = backend.capture_cost();
  out->timing.record_ms = cost.record_ms;
  out->timing.count_ms = cost.count_ms;
  out->timing.hazard_ms = cost.hazard_ms;
  out->timing.record_bytes = cost.record_bytes;
  out->timing.records = cost.records;
  out->timing.tally_shapes = cost.tally.shapes;
  out->timing.tally_steps_shaped = cost.tally.steps_shaped;
  out->timing.tally_by_steps = cost.tally.by_steps;
  out->timing.lane_rows = cost.lane_rows;
  out->timing.lane_wide = cost.lane_wide;
  out->timing.lane_pattern_rows = cost.lane_pattern_rows;
  out->timing.hazard_lean = cost.hazard_lean;
  out->timing.record_warm = cost.record_warm;
  out->timing.direct_requests = cost.direct_requests;
  out->timing.access_times_placed = cost.lane_rows > 0;  // the lane log places them
  return {};
}

template <typename L>
Status RunGpuOnly(LessonCall& call, BackendResult* out) {
  Status s = L::Gpu(call);
  out->device = call.device;
  return s;
}

template <typename L>
void Add(std::map<std::string, GpuRunner>* m) {
  if constexpr (requires(CudaBackend & b, LessonCall & c) { L::Run(b, c); }) {
    (*m)[L::Info().id] = &RunRecorded<L>;
  } else if constexpr (requires(LessonCall & c) { L::Gpu(c); }) {
    (*m)[L::Info().id] = &RunGpuOnly<L>;
  }
}

}  // namespace

bool HaveCudaRunner() {
  return true;
}

GpuRunner FindRecordedGpuRunner(const std::string& id) {
  static const std::map<std::string, GpuRunner> runners = [] {
    LinkHazardUnit();  // the other builds of the kernels (cuda_pass_units.h)
    LinkHazardLeanUnit();
    LinkLeanUnit();
    LinkLaneUnit();
    LinkLaneWideUnit();
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
