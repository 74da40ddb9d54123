// The lessons' launch for a real GPU (cuda_backend.h includes this; include that one):
// WS_LAUNCH(backend, kernel, grid, block, shared_bytes, args...) and WS_LAUNCH_DYNAMIC, as the
// unit including it is built: the plain build launches its own kernel untimed by the recorder,
// the recorded build its own or another unit's build for the pass (cuda_pass_units.h), and a
// unit built for one pass (WS_PASS_UNIT) only registers its kernels.
#pragma once

#include "warpscope/kernels/cuda_backend.h"

// `launch(state)` sets the translation unit's recorder state (instrumented build only) and
// launches the kernel.
#if defined(WS_PLAIN_BUILD)
#define WS_SET_RECORDER_STATE(state) ((void)(state), cudaSuccess)
#else
#define WS_SET_RECORDER_STATE(state) cudaMemcpyToSymbol(ws_recorder_state, &(state), sizeof(state))
#endif

#if defined(WS_PASS_UNIT)
// A unit that builds the kernels for one pass (cuda_pass_units.h) runs no driver: a launch in it
// registers the kernel's handle under its name at static initialization (the driver that names
// it is instantiated, never called). Its arguments are only named (Unused).
namespace ws {
template <typename... A>
constexpr void Unused(const A&...) {}
template <auto F>
struct PassRegistration {
  static const bool done;
};
template <auto F>
const bool PassRegistration<F>::done =
    (WS_PASS_UNIT().kernels[KernelNameOf<F>()] = reinterpret_cast<const void*>(F), true);
}  // namespace ws
#define WS_LAUNCH_DYNAMIC(backend, kernel, grid, block, shared_bytes, dynamic_bytes, ...) \
  (::ws::Unused(backend, grid, block, shared_bytes, dynamic_bytes, __VA_ARGS__),          \
   (void)::ws::PassRegistration<&kernel>::done, ::ws::Status{})
#else
// Another unit's build of the kernel for this pass (cuda_pass_units.h), where the unit is built
// to record only (WS_RECORD_BUILD): the hazard unit's for a hazard pass (its lean unit's where
// RunHazardLean takes it), the lane build the
// backend chose (CudaBackend::lane_build(), LaneBuildFor: the lane units' builds are the only ones
// with the log) for a pass with a lane log, the lean unit's for the others where RunLean takes
// it. Its recorder state is set and it is launched with this launch's arguments, else the unit's
// own kernel is. Either adds the shared shadow's bytes (ws_st_.hazard_shared_bytes) to the
// dynamic shared memory, the kernel's limit set for that launch and back (LaunchWithSharedShadow).
#if defined(WS_RECORD_BUILD)
#define WS_LAUNCH_OTHER_UNIT(backend, kernel, grid, block, dynamic_bytes, st, ...)                 \
  {                                                                                                \
    const bool ws_hazard_ = (st).mode == ::ws::dev::kHazards;                                      \
    const bool ws_logged_ = (st).lane_rows != nullptr;                                             \
    const bool ws_lane_ = !ws_hazard_ && ws_logged_; /* the lane log: a lane unit's build only */  \
    const dim3 ws_grid_((grid).x, (grid).y, (grid).z), ws_block_((block).x, (block).y, (block).z); \
    const ::ws::LaneBuild ws_lb_ = ws_lane_ ? (backend).lane_build() : ::ws::LaneBuild{};          \
    /* a hazard pass: the hazard check's lean build where RunHazardLean takes it */                \
    const void* ws_hl_ = ws_hazard_ ? ::ws::KernelIn<&kernel, ::ws::HazardLeanUnit>() : nullptr;   \
    const void* ws_hu_ = ws_hazard_ ? ::ws::KernelIn<&kernel, ::ws::HazardUnit>() : nullptr;       \
    const bool ws_hlean_ =                                                                         \
        ws_hazard_ && ::ws::RunHazardLean(ws_hl_, ws_hu_, ws_block_,                               \
                                          (dynamic_bytes) + (st).hazard_shared_bytes);             \
    const void* ws_h_ = ws_hlean_    ? ws_hl_                                                      \
                        : ws_hazard_ ? ws_hu_                                                      \
                        : ws_lane_   ? ws_lb_.handle                                               \
                                     : ::ws::KernelIn<&kernel, ::ws::LeanUnit>();                    \
    ::ws::PassUnit& ws_u_ = ws_hlean_    ? ::ws::HazardLeanUnit()                                  \
                            : ws_hazard_ ? ::ws::HazardUnit()                                      \
                            : ws_lane_                                                             \
                                ? (ws_lb_.unit != nullptr ? *ws_lb_.unit : ::ws::LaneUnit())       \
                                : ::ws::LeanUnit();                                                \
    if ((ws_hazard_ || ws_logged_) && (ws_h_ == nullptr || ws_u_.set_state == nullptr))            \
      return cudaErrorInvalidDeviceFunction; /* no build for the hazard check or the log: a bug */ \
    const bool ws_other_ = ws_h_ != nullptr && ws_u_.set_state != nullptr;                         \
    if (ws_hlean_) (backend).NoteHazardLean();                                                     \
    if (ws_hazard_ || ws_lane_ /* both checked above */ ||                                         \
        (!ws_logged_ && ws_other_ &&                                                               \
         ::ws::RunLean(ws_h_, reinterpret_cast<const void*>(kernel), ws_block_,                    \
                       (dynamic_bytes)))) {                                                        \
      cudaError_t ws_he_ = ws_u_.set_state(st);                                                    \
      if (ws_he_ != cudaSuccess) return ws_he_;                                                    \
      return ::ws::LaunchWithSharedShadow(ws_h_, (dynamic_bytes), st, [&](std::size_t ws_dyn_) {   \
        return ::ws::LaunchPassKernel(ws_h_, &kernel, ws_grid_, ws_block_, ws_dyn_, __VA_ARGS__);  \
      });                                                                                          \
    }                                                                                              \
  }
// The lane units' builds of the launch's kernel, where the launch may take the lane log: only
// they have it, so only a recorded unit's launch of a kernel the lane units registered. Looked up
// by name (KernelNameOf): lessons_cuda.cu is the only recorded unit, and its kernels are the
// lessons'; a kernel compiled in any other unit (a test's, a program's) gets nulls below,
// whatever its name. Which of them records the launch (LaneBuildFor: their registers and the
// waves of blocks they take) RecordLaneLog asks last, after its cheaper tests, and keeps for the
// launch (CudaBackend::lane_build()).
#define WS_LANE_KERNEL(kernel)                                                               \
  ::ws::LaneKernels {                                                                        \
    ::ws::KernelIn<&kernel, ::ws::LaneWideUnit>(), ::ws::KernelIn<&kernel, ::ws::LaneUnit>() \
  }
#else
#define WS_LAUNCH_OTHER_UNIT(backend, kernel, grid, block, dynamic_bytes, st, ...)
#define WS_LANE_KERNEL(kernel) \
  ::ws::LaneKernels {}
#endif
#define WS_LAUNCH_DYNAMIC(backend, kernel, grid, block, shared_bytes, dynamic_bytes, ...)          \
  ((backend).NextLaunchCarriesShadow(::ws::ReadOnlyBuffers(&kernel, __VA_ARGS__),                  \
                                     WS_LANE_KERNEL(kernel)),                                      \
   (backend).Launch(                                                                               \
       ::ws::KernelNameOf<&kernel>(), grid, block, shared_bytes, dynamic_bytes,                    \
       [&](const ::ws::dev::RecorderState& ws_st_) {                                               \
         WS_LAUNCH_OTHER_UNIT(backend, kernel, grid, block, dynamic_bytes, ws_st_, __VA_ARGS__)    \
         cudaError_t ws_e_ = WS_SET_RECORDER_STATE(ws_st_);                                        \
         if (ws_e_ != cudaSuccess) return ws_e_;                                                   \
         return ::ws::LaunchWithSharedShadow(                                                      \
             kernel, (dynamic_bytes), ws_st_, [&](std::size_t ws_dyn_) {                           \
               kernel<<<dim3((grid).x, (grid).y, (grid).z), dim3((block).x, (block).y, (block).z), \
                        ws_dyn_>>>(__VA_ARGS__);                                                   \
               return cudaGetLastError();                                                          \
             });                                                                                   \
       },                                                                                          \
       [&](cudaFuncAttributes* ws_a_) { return cudaFuncGetAttributes(ws_a_, kernel); }))
#endif
#define WS_LAUNCH(backend, kernel, grid, block, shared_bytes, ...) \
  WS_LAUNCH_DYNAMIC(backend, kernel, grid, block, shared_bytes, 0, __VA_ARGS__)
