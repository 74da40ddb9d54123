// The lessons' kernels built for one pass in units of their own (include from .cu files only).
//
// The recorded lessons' unit (lessons_cuda.cu, WS_RECORD_BUILD) holds the drivers and the
// kernels that count and record, capped at 64 registers. Four more units build the same kernels
// and run no driver (pass_unit_body.h):
// - the hazard unit (lessons_cuda_hazard.cu, WS_HAZARD_BUILD) for the hazard check alone. Each
//   build leaves the other pass's code out and its registers with it (ptxas, nvcc 13, sm_90: a
//   copy's recorded kernel needs 36 registers without the hazard check's call where it needed 48
//   with it);
// - the hazard check's lean unit (lessons_cuda_hazard_lean.cu, WS_HAZARD_BUILD), the hazard unit
//   capped at 32 registers: a transpose's pass took 0.416 ms against 0.583 at the hazard unit's
//   64 (H200, bench/gpu_hazard_micro.sh), and the matmuls spill at 32, so RunHazardLean chooses;
// - the lean unit (lessons_cuda_lean.cu, WS_RECORD_BUILD) records as the recorded unit does, its
//   registers capped at 32, so that two 1,024-thread blocks fit an SM where one did (H200,
//   bench/gpu_tally_micro.cu: a recorded transpose 0.507 -> 0.366 ms, a recorded copy 0.170 ->
//   0.152). The cap spills: the recorded unit's build runs where the lean one has more than
//   kLeanLocalBytes of local memory (the matmuls' loops) or fits no more blocks (RunLean);
// - the lane units (lessons_cuda_lane.cu and lessons_cuda_lane_wide.cu, WS_LANE_LOG_BUILD) record
//   by the lane log alone (ws_cuda_lane_log.h), the only builds that have it, for the launches
//   that have one: the wide unit's registers uncapped, the other's capped at 64 (LaneBuildFor
//   chooses).
//
// At static initialization each such unit registers every kernel's handle under the kernel's
// name (KernelNameOf, the same text in every unit: one source), its recorder state's setter, and
// setters for its own copies of the lessons' constant memory. The recorded unit's launch
// (WS_LAUNCH) starts the other unit's build through that handle with its own arguments
// (LaunchPassKernel), and fills the other units' constant memory wherever it fills its own
// (MakeConstant, CopyToSymbol in cuda_backend.h), so that every build reads the same values.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdlib>
#include <map>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "warpscope/kernels/lesson_api.h"  // KernelNameOf
#include "warpscope/kernels/ws_cuda_record_format.h"

namespace ws {

// What another unit registered for one pass. Filled at static initialization, read after.
struct PassUnit {
  // Sets the unit's recorder state (its own ws_recorder_state: one per translation unit).
  cudaError_t (*set_state)(const dev::RecorderState&) = nullptr;
  // Copies `bytes` of device memory at `src` into the unit's ws_constant_bank at `offset`.
  cudaError_t (*fill_bank)(const void* src, std::size_t bytes, std::size_t offset) = nullptr;
  std::map<std::string, const void*> kernels;  // by KernelNameOf
  // A lesson's __constant__ array's setter, by the array's name: copies `bytes` of host memory
  // into the unit's own copy of it.
  std::map<std::string, cudaError_t (*)(const void* value, std::size_t bytes)> constants;
};

// The units' registrations (empty where none is linked: a program's recorded build runs both
// passes in its own kernels). Inline, so that every unit of the library shares them.
inline PassUnit& HazardUnit() {
  static PassUnit unit;
  return unit;
}
inline PassUnit& HazardLeanUnit() {
  static PassUnit unit;
  return unit;
}
inline PassUnit& LeanUnit() {
  static PassUnit unit;
  return unit;
}
inline PassUnit& LaneUnit() {
  static PassUnit unit;
  return unit;
}
inline PassUnit& LaneWideUnit() {
  static PassUnit unit;
  return unit;
}

// Every one, for what the recorded unit gives every other build (its constant memory).
inline std::array<PassUnit*, 5> OtherUnits() {
  return {&HazardUnit(), &HazardLeanUnit(), &LeanUnit(), &LaneUnit(), &LaneWideUnit()};
}

// Defined by the units: the recorded unit calls them before its first launch, so that a static
// library's linker keeps the units (nothing else names them) and their registrations.
void LinkHazardUnit();
void LinkHazardLeanUnit();
void LinkLeanUnit();
void LinkLaneUnit();
void LinkLaneWideUnit();

// Where the lean unit's build of a kernel has more local memory than this (bytes a thread:
// spills and stack at its cap of 32 registers), the recorded unit's build runs. ptxas (nvcc 13,
// sm_90), with the warp's tally state kept from the kernel's entry (WS_WARP_STATE_BUILD) and the
// roads a tallied warp seldom takes out of line (WS_OUT_OF_LINE_ROADS, since the thirty-fifth
// session; before it in brackets): the copies and transposes 32 (40-48), the bank and swizzle
// lessons 32 (48-64), the reductions 32-40 (72), the naive and tiled matmuls 48 (80-88), the
// chunks lessons 48 (48), the tiled-2x2 matmuls 72 (96), reduceShuffle 64 (104). So the naive and
// tiled matmuls, the reductions but the shuffle one, the bank lessons and the swizzle ran lean,
// and measured faster there on an H200 (bench/gpu_lean_choice.sh, docs/GPU.md: the tiled
// matmul at 1,024 9.3 ms against the recorded unit's 12.7). With the direct road inline (the
// thirty-seventh session) the loops grew: the transposes 32, the bank and swizzle lessons 40, the
// tiled matmuls 56, the reductions 56-64, the naive matmul 72, the tiled-2x2 80; so only the
// copies, transposes, bank and swizzle lessons run lean under 48. Their lean build up to 96 bytes
// measured faster for every loop lesson at size (docs/GPU.md, "The lean build past 48 bytes":
// the tiled matmul 32 at 1,024 5.55 ms against 9.03), but its figures are yet to be compared on
// a GPU (gpu_batch.sh ... same-lean), so the limit stays 48 until then. Since the thirty-eighth
// session a store comes before its record in this unit (ws_cuda_arrays.h, detail::Stored), so that
// the value stored is not held across the record: the copies 16, the transposes 24, the bank
// lessons 40, the swizzle 24, the chunks lessons 32, the tiled matmuls 48, the reductions 64, the
// naive and tiled-2x2 matmuls 72 (70 kernels with less local memory, 4 with more: the three bank
// lessons 4 and vecAddInterleaved 16); the tiled matmuls run lean again under 48. Since the
// forty-first session (2026-12-05) the limit is 96: on an H200 the lean build up to 96 bytes gave
// the same figures as the recorded unit for the matmuls at 1,024 and the reductions at 65,535
// blocks (gpu_same_figures.sh: every count equal, only the barriers' measured skews and waits
// differ), and at the lessons' defaults the naive matmul's recording pass went from 2.09x to 1.81x
// its plain time and the tiled-2x2's from 3.14x to 2.79x (docs/GPU.md).
inline constexpr int kLeanLocalBytes = 96;

// The recorded unit's __constant__ arrays' names, by the address of the unit's own symbol, so that
// CopyToSymbol can fill the other units' arrays of the same name.
inline std::map<const void*, std::string>& ConstantNames() {
  static std::map<const void*, std::string> names;
  return names;
}

// `Unit()`'s handle of `kernel` (its build of the recorded unit's kernel of the same name), or
// null. Looked up once, at the first launch (after every registration).
template <auto F, PassUnit& (*Unit)()>
const void* KernelIn() {
  static const void* const handle = [] {
    const auto& k = Unit().kernels;
    const auto it = k.find(KernelNameOf<F>());
    return it == k.end() ? nullptr : it->second;
  }();
  return handle;
}

// Whether a capped build of a kernel (`lean`, or null) runs a launch of `block` threads and
// `dynamic` bytes of dynamic shared memory rather than another's (`own`): where its local memory
// is at most `local_bytes` and more of the launch's blocks fit an SM. `off_variable`: an
// environment variable that, set to 0, never takes it (to measure the two in one call).
inline bool RunCapped(const void* lean, const void* own, dim3 block, std::size_t dynamic,
                      int local_bytes, const char* off_variable) {
  const char* v = std::getenv(off_variable);
  if (lean == nullptr || own == nullptr || (v != nullptr && std::string(v) == "0")) return false;
  // A number of bytes past 1 in the variable is the local-memory limit instead, the blocks' rule
  // kept (to measure a kernel's lean build where the limit would not run it:
  // bench/gpu_lean_choice.sh's WS_LEAN_WAYS; WS_GPU_HAZARD_LEAN=N the same for the hazard unit).
  if (v != nullptr && std::atoi(v) > 1) local_bytes = std::atoi(v);
  cudaFuncAttributes a{};
  const int threads = static_cast<int>(block.x * block.y * block.z);
  int lean_blocks = 0, own_blocks = 0;
  if (cudaFuncGetAttributes(&a, lean) != cudaSuccess ||
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&lean_blocks, lean, threads, dynamic) !=
          cudaSuccess ||
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&own_blocks, own, threads, dynamic) !=
          cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return a.localSizeBytes <= static_cast<std::size_t>(local_bytes) && lean_blocks > own_blocks;
}

// Whether the lean unit's build (`lean`, or null) runs this launch rather than the recorded
// unit's own (`own`): where its local memory is at most kLeanLocalBytes and more of the launch's
// blocks fit an SM. WS_GPU_LEAN=0 never runs it (to measure the two against each other);
// WS_GPU_LEAN=N, N > 1, runs it up to N bytes of local memory (where more blocks fit).
inline bool RunLean(const void* lean, const void* own, dim3 block, std::size_t dynamic) {
  return RunCapped(lean, own, block, dynamic, kLeanLocalBytes, "WS_GPU_LEAN");
}

// Where the hazard check's lean build of a kernel (lessons_cuda_hazard_lean.cu, 32 registers) has
// more local memory than this, the hazard unit's runs. ptxas (nvcc 13, sm_90) at 32: the copies,
// transposes and bank lessons 8 to 16 bytes, the reductions 24 to 32, the matmuls 32 to 80,
// arrayInRegisters 424; the transposes' 16 measured faster than the hazard unit's build
// (bench/gpu_hazard_micro.sh: 0.416 against 0.583 ms on an H200), the others not measured.
inline constexpr int kHazardLeanLocalBytes = 16;

// Whether a launch's hazard pass runs the hazard check's lean build (`lean`) rather than the
// hazard unit's (`own`); `dynamic`: the launch's dynamic bytes with the shared shadow's
// (RecorderState::hazard_shared_bytes). WS_GPU_HAZARD_LEAN=0 never runs it.
inline bool RunHazardLean(const void* lean, const void* own, dim3 block, std::size_t dynamic) {
  return HazardLeanUnit().set_state != nullptr &&
         RunCapped(lean, own, block, dynamic, kHazardLeanLocalBytes, "WS_GPU_HAZARD_LEAN");
}

// A kernel's two builds for the lane log (WS_LANE_KERNEL): the wide unit's
// (lessons_cuda_lane_wide.cu, WARPSCOPE_LANE_WIDE_MAXRREGCOUNT: no cap by default) and the lane
// unit's (lessons_cuda_lane.cu, WARPSCOPE_LANE_MAXRREGCOUNT: 64, so that a 1,024-thread block
// fits). Null where none was built.
struct LaneKernels {
  const void* wide = nullptr;
  const void* capped = nullptr;
};
struct LaneBuild {
  // The build's kernel (null: neither build can run the launch's blocks) and its unit. Not named
  // `kernel`, which WS_LAUNCH_OTHER_UNIT's parameter would replace.
  const void* handle = nullptr;
  PassUnit* unit = nullptr;
};

// The build that records a launch of `blocks` blocks of `block` (`dynamic` bytes of shared memory
// each) by the lane log: the wide unit's where a block fits its registers and it takes no more
// waves of blocks on this GPU's SMs than the capped unit's; else the capped unit's where a block
// fits it; else none (the launch takes the event roads). What was measured (H200, the matmuls'
// harness at 64² built at caps of 64, 80, 96, 128 and none, bench/gpu_lane_product_micro.sh,
// twenty-seventh session, us a launch): tiled-2x2 19.4, 18.1, 18.8, 17.1 and 16.3; tiled 11.2,
// 10.9, 10.9, 11.1 and 9.6; naive 10.6, 10.4, 10.6, 10.6 and 10.2. Uncapped, ptxas gives the
// tiled-2x2 matmul 255 registers and 24 bytes of stack where capped it has 8, and it is the
// faster one: local memory (the rule before) did not tell. With the wide build the local-memory
// lesson's pass at its defaults took 11.9 us where it took 18.3 (docs/GPU.md).
// WS_GPU_LANE_WIDE=0 never takes the wide unit (to measure the two against each other).
inline LaneBuild LaneBuildFor(const LaneKernels& k, std::uint64_t blocks, dim3 block,
                              std::size_t dynamic) {
  static const bool wide_off = [] {
    const char* v = std::getenv("WS_GPU_LANE_WIDE");
    return v != nullptr && std::string(v) == "0";
  }();
  const long long threads = static_cast<long long>(block.x) * block.y * block.z;
  // A build's attributes where a block of the launch fits its registers, else null.
  auto fitting = [&](const void* f, cudaFuncAttributes* a) {
    if (f == nullptr) return false;
    if (cudaFuncGetAttributes(a, f) != cudaSuccess) {
      (void)cudaGetLastError();
      return false;
    }
    return threads <= a->maxThreadsPerBlock;
  };
  cudaFuncAttributes wide{}, capped{};
  const bool wide_fits = !wide_off && fitting(k.wide, &wide);
  const bool capped_fits = fitting(k.capped, &capped);
  if (!capped_fits) return wide_fits ? LaneBuild{k.wide, &LaneWideUnit()} : LaneBuild{};
  if (!wide_fits) return {k.capped, &LaneUnit()};
  int device = 0, sms = 0, wide_blocks = 0, capped_blocks = 0;
  const int t = static_cast<int>(threads);
  if (cudaGetDevice(&device) != cudaSuccess ||
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&wide_blocks, k.wide, t, dynamic) !=
          cudaSuccess ||
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&capped_blocks, k.capped, t, dynamic) !=
          cudaSuccess) {
    (void)cudaGetLastError();
    return {k.capped, &LaneUnit()};
  }
  auto waves = [&](int per_sm) {
    const std::uint64_t at_once = static_cast<std::uint64_t>(std::max(sms, 1)) * per_sm;
    return at_once == 0 ? ~std::uint64_t{0} : (blocks + at_once - 1) / at_once;
  };
  if (waves(wide_blocks) <= waves(capped_blocks)) return {k.wide, &LaneWideUnit()};
  return {k.capped, &LaneUnit()};
}

// Launches `func` (another unit's build of a kernel whose parameters are P...) with `args`
// converted to the parameters' types, as the <<<>>> of the kernel itself would.
template <typename... P, typename... A>
cudaError_t LaunchPassKernel(const void* func, void (*)(P...), dim3 grid, dim3 block,
                             std::size_t dynamic, const A&... args) {
  static_assert(sizeof...(P) == sizeof...(A), "a kernel's launch gives every parameter");
  if constexpr (sizeof...(P) == 0) {
    return cudaLaunchKernel(func, grid, block, nullptr, dynamic, nullptr);
  } else {
    std::tuple<std::remove_cvref_t<P>...> params(args...);
    return std::apply(
        [&](auto&... p) {
          void* pointers[] = {static_cast<void*>(&p)...};
          return cudaLaunchKernel(func, grid, block, pointers, dynamic, nullptr);
        },
        params);
  }
}

}  // namespace ws
