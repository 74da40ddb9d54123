// The body of a unit that builds every kernel lesson's kernels for one pass and runs no driver
// (cuda_pass_units.h): lessons_cuda_hazard.cu, lessons_cuda_lane.cu, lessons_cuda_lane_wide.cu
// and lessons_cuda_lean.cu define WS_PASS_UNIT (the registry: HazardUnit, LaneUnit, LaneWideUnit
// or LeanUnit), WS_PASS_UNIT_LINK (the function the recorded unit calls to keep the unit linked)
// and the pass's build (WS_HAZARD_BUILD, or WS_RECORD_BUILD with WS_LANE_LOG_BUILD for the two
// lane units), then include
// this. The drivers are instantiated here only so that their launches register their kernels
// (cuda_backend.h); they never run. The kernels and the drivers get internal linkage, as the
// plain build's (lessons_cuda_plain.cu).
#pragma once

#if !defined(WS_PASS_UNIT) || !defined(WS_PASS_UNIT_LINK)
#error "define WS_PASS_UNIT and WS_PASS_UNIT_LINK before including pass_unit_body.h"
#endif

// A lesson's __constant__ array: a setter of this unit's own copy, by the array's name, which
// the recorded unit's CopyToSymbol calls with the value it gives its own.
#if !defined(__CUDA_ARCH__)
#define WS_LESSON_CONSTANT_VIEW(name)                            \
  [[maybe_unused]] static const bool ws_pass_constant_##name = ( \
      ::ws::WS_PASS_UNIT().constants[#name] =                    \
          [](const void* ws_v_, std::size_t ws_n_) {             \
            return cudaMemcpyToSymbol(name, ws_v_, ws_n_);       \
          },                                                     \
      true)
#endif
#include <vector>

#include "warpscope/kernels/cuda_backend.h"
// clang-format off
#include "warpscope/kernels/lesson_list.h"
// clang-format on

namespace ws {
namespace {

// A type of this file's own, so that the drivers instantiated with it get internal linkage.
class PassUnitBackend : public CudaBackend {
 public:
  explicit PassUnitBackend(const RunOptions& options) : CudaBackend(options, kRecord) {}
};

template <typename L>
void Instantiate(std::vector<Status (*)(PassUnitBackend&, LessonCall&)>* drivers) {
  if constexpr (requires(PassUnitBackend & b, LessonCall & c) { L::Run(b, c); })
    drivers->push_back(&L::template Run<PassUnitBackend>);
}

const bool registered = [] {
  PassUnit& unit = WS_PASS_UNIT();
  unit.set_state = [](const dev::RecorderState& s) {
    return cudaMemcpyToSymbol(ws_recorder_state, &s, sizeof s);
  };
  unit.fill_bank = [](const void* src, std::size_t bytes, std::size_t offset) {
    return cudaMemcpyToSymbol(ws_constant_bank, src, bytes, offset, cudaMemcpyDeviceToDevice);
  };
  // Taking each driver's address instantiates it, and with it the registrations of the kernels
  // it launches (PassRegistration in cuda_backend.h).
  static std::vector<Status (*)(PassUnitBackend&, LessonCall&)> drivers;
#define WS_ADD(NAME) Instantiate<lessons::NAME::Lesson>(&drivers);
  WS_FOR_EACH_LESSON(WS_ADD)
#undef WS_ADD
  return true;
}();

}  // namespace

void WS_PASS_UNIT_LINK() {
  (void)registered;
}

}  // namespace ws
