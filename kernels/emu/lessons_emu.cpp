// Every lesson, instantiated for the CPU emulator: the catalogue's entries.
// The backend (and its WS_LAUNCH) must come before the lessons that use it.
#include "warpscope/kernels/emu_backend.h"
// clang-format off
#include "warpscope/kernels/lesson_list.h"
// clang-format on
#include "src/lesson_registry.h"

namespace ws {
namespace {

static_assert(LessonBackend<EmuBackend>);

template <typename L>
Status RunOnEmulator(LessonCall& call, const DevicePreset& preset, BackendResult* out) {
  EmuBackend backend(call.options, preset);
  backend.UseResourceTable(call.compiled);
  // A variant racy on purpose shows its race in its output under the chosen thread order: its
  // threads run one by one in that order, not a warp's lanes together.
  // (The lesson's variants made once: Info() writes out every preset and explanation.)
  static const std::vector<VariantSpec> variants = L::Info().variants;
  for (const VariantSpec& v : variants)
    if (v.name == (call.variant.empty() ? variants.front().name : call.variant) && v.races)
      backend.KeepThreadOrder(
          "the variant races on purpose: its output is the threads' order, which runs them one "
          "by one");
  Status s = L::Run(backend, call);
  out->device = backend.device();
  out->launches = std::move(backend.launches());
  return s;
}

template <typename L>
LessonEntry Entry() {
  LessonEntry e;
  e.info = L::Info();
  if constexpr (requires(EmuBackend & b, LessonCall & c) { L::Run(b, c); }) {
    e.emu = &RunOnEmulator<L>;
  }
  if constexpr (requires(LessonCall & c) { L::Model(c); }) {
    e.model = &L::Model;
  }
  return e;
}

}  // namespace

std::vector<LessonEntry> MakeLessonEntries() {
  std::vector<LessonEntry> v;
#define WS_ENTRY(NAME) v.push_back(Entry<lessons::NAME::Lesson>());
  WS_FOR_EACH_LESSON(WS_ENTRY)
#undef WS_ENTRY
  return v;
}

}  // namespace ws
