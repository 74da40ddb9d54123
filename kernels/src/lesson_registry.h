// Internal: how the catalogue reaches each lesson's host part. The lesson folders are found by
// the build (kernels/CMakeLists.txt writes warpscope/kernels/lesson_list.h: an #include and an
// X(NAME) per folder); each backend's translation unit instantiates every lesson for itself:
//   lessons_emu.cpp          the catalogue entries, with the emulator's runner or the model
//   cuda/lessons_cuda.cu     the recorded GPU runners (and GPU-only lessons)
//   cuda/lessons_cuda_plain.cu  the uninstrumented GPU runners (timings)
// Nothing here names a lesson.
#pragma once

#include <string>
#include <vector>

#include "warpscope/kernels/lesson_api.h"
#include "warpscope/trace/device_preset.h"

namespace ws {

// What a backend run leaves besides the LessonCall's own outputs.
struct BackendResult {
  std::vector<LaunchTrace> launches;
  std::string device;
  Timing timing;  // GPU: the recording's cost (recorded build) or the measured time (timed build)
};

using EmuRunner = Status (*)(LessonCall& call, const DevicePreset& preset, BackendResult* out);
using ModelRunner = Status (*)(LessonCall& call);
using GpuRunner = Status (*)(LessonCall& call, BackendResult* out);

struct LessonEntry {
  LessonInfo info;
  EmuRunner emu = nullptr;      // kKernel
  ModelRunner model = nullptr;  // kModel, kCalculator
};

// Every lesson in the build, in no particular order (lessons_emu.cpp).
std::vector<LessonEntry> MakeLessonEntries();

// The CUDA runner's side; without nvcc (no_cuda_lessons.cpp) both find nothing.
bool HaveCudaRunner();
GpuRunner FindRecordedGpuRunner(const std::string& id);  // kKernel (recorded) and kGpuOnly
GpuRunner FindTimedGpuRunner(const std::string& id);     // kKernel, uninstrumented

// ptxas's registers and memory for every lesson kernel (kernels/resources/sm_90.txt), parsed once.
const ResourceTable& CompilerResourceTable();

}  // namespace ws
