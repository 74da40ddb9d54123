// The lesson drivers instantiated for the CPU emulator.
// The backend (and its WS_LAUNCH) must come before the drivers that use it.
#include "warpscope/kernels/emu_backend.h"
// clang-format off
#include "lessons/drivers.h"
// clang-format on
#include "src/lesson_entry_points.h"

namespace ws {

Status RunLessonEmu(const std::string& id, const std::string& variant, const Params& params,
                    const RunOptions& options, const DevicePreset& preset, LessonRun* run) {
  EmuBackend backend(options, preset);
  Status s = lessons::RunLessonOn(backend, id, variant, params, &run->check, &run->metrics);
  if (!s.ok()) return s;
  run->device = backend.device();
  run->launches = std::move(backend.launches());
  return {};
}

}  // namespace ws
