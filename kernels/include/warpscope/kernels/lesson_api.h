// The interface a lesson's host part sees: one backend concept, implemented by the emulator
// (EmuBackend, emu_backend.h) and the CUDA runner (CudaBackend, cuda_backend.h), and what a
// driver gets and fills (LessonCall). The run record itself (LessonRun, LessonInfo, Params...)
// belongs to the model: warpscope/trace/lesson_run.h.
//
//   template <LessonBackend B>
//   static Status Run(B& b, LessonCall& c) {
//     auto in = b.template Upload<float>("in", host_values);     // allocate + upload
//     auto out = b.template Alloc<float>("out", n);              // allocate (zeroed)
//     Status s = WS_LAUNCH(b, myKernel, grid, block, shared_bytes, out, in, n);  // launch
//     if (!s.ok()) return s;
//     c.check = CompareAt(b.Download(out), want, "my-lesson");  // download + golden check
//     c.SetFigures(MyFigures{...});                              // typed figures
//     return {};
//   }
// Time: the emulator models it (sectors at the preset's bandwidth) unless the driver sets
// c.timing; the GPU measures the uninstrumented build with CUDA events.
#pragma once

#include <concepts>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "warpscope/trace/device_preset.h"
#include "warpscope/trace/kernel_resources.h"
#include "warpscope/trace/lesson_run.h"

namespace ws {

template <typename T>
class Global;

// What every backend offers a lesson driver. Launch itself goes through WS_LAUNCH /
// WS_LAUNCH_DYNAMIC (each backend's header defines them: a lambda per GPU thread on the
// emulator, a <<<>>> launch on a GPU).
template <typename B>
concept LessonBackend = requires(B& b, const B& cb, const std::string& name, std::size_t n,
                                 const std::vector<float>& host, const Global<float>& g) {
  { B::kName } -> std::convertible_to<const char*>;  // "emu" or "cuda"
  { b.template Alloc<float>(name, n) } -> std::same_as<Global<float>>;
  { b.template Upload<float>(name, host) } -> std::same_as<Global<float>>;
  { b.Download(g) } -> std::same_as<std::vector<float>>;
  { b.launches() } -> std::same_as<std::vector<LaunchTrace>&>;
  { cb.preset() } -> std::convertible_to<const DevicePreset&>;
  b.ModelMultiprocessors(1, 1);  // the emulator's block-scheduler model; a GPU ignores it
};

// The name of the kernel F as the views show it and the resource table holds it: the function's
// own name with its template arguments ("MatrixMulTiled<16>" where the launch wrote
// MatrixMulTiled<T>), from the compiler's name of this instantiation (GCC: "[with auto F =
// ws::x::MatrixMulTiled<16>; ...]", clang: "[F = &ws::x::MatrixMulTiled<16>]").
template <auto F>
std::string KernelNameOf() {
  const std::string_view p = __PRETTY_FUNCTION__;
  const std::size_t at = p.find("F = ");
  if (at == std::string_view::npos) return {};
  const std::size_t end = p.find_first_of(";]", at);
  return KernelKey(p.substr(at + 4, end == std::string_view::npos ? end : end - at - 4));
}

// What a driver gets (the variant and every parameter, checked) and fills.
struct LessonCall {
  std::string variant;
  Params params;
  RunOptions options;
  // Filled by the driver.
  OutputCheck check;
  std::shared_ptr<const Figures> figures;
  std::string device;            // models, calculators and GPU-only lessons: what "ran"
  std::optional<Timing> timing;  // set by lessons that know their own time
  // Sectors the emulator does not record (local memory: spills, arrays indexed at run time),
  // counted by the driver; the emulator's modeled time adds them.
  std::uint64_t unrecorded_sectors = 0;
  // ptxas's figures for the build's kernels (kernels/resources/), which the backends give each
  // launch: the emulator all of them, a GPU the spill counts cudaFuncGetAttributes lacks.
  const ResourceTable* compiled = nullptr;

  long long P(const char* name) const { return params.at(name); }
  int I(const char* name) const { return static_cast<int>(params.at(name)); }
  bool Is(const char* v) const { return variant == v; }
  template <typename T>
  void SetFigures(T f) {
    figures = MakeFigures(std::move(f));
  }
};

}  // namespace ws
