// Every lesson, instantiated for the CPU emulator: the catalogue's entries.
// The backend (and its WS_LAUNCH) must come before the lessons that use it.
#include "warpscope/kernels/emu_backend.h"
// clang-format off
#include "warpscope/kernels/lesson_list.h"
// clang-format on
#include "src/lesson_registry.h"

namespace ws {

// EmuBackend::Launch's body, compiled once: made again for each launch's two lambdas it was a
// third of this file's code, the builds' largest (docs/BUILD.md, "CI's time").
Status EmuBackend::LaunchErased(const std::string& kernel, Dim3 grid, Dim3 block,
                                std::uint32_t shared_bytes, std::uint32_t dynamic_shared_bytes,
                                std::function<void()> body, const char* none,
                                void (*warp_fn)(void*, simt::Warp&), const void* warp) {
  emu::LaunchConfig cfg;
  cfg.kernel = kernel;
  cfg.grid = grid;
  cfg.block = block;
  cfg.shared_bytes = shared_bytes;
  cfg.dynamic_shared_bytes = dynamic_shared_bytes;
  cfg.buffers = buffers_;
  cfg.buffer_data = buffer_data_;
  cfg.buffer_constant = buffer_constant_;
  cfg.constant_symbols = constant_symbols_;
  cfg.buffer_texture_bytes = buffer_texture_bytes_;
  cfg.preset = preset_;
  cfg.workers = options_.workers;
  cfg.model_sms = model_sms_;
  cfg.model_blocks_per_sm = model_blocks_per_sm_;
  cfg.schedule = options_.schedule;
  if (options_.keep_all_blocks || grid.count() * block.count() <= options_.keep_all_threads_up_to) {
    for (std::uint64_t b = 0; b < grid.count(); ++b)
      cfg.keep_blocks.push_back(static_cast<std::uint32_t>(b));
  } else {
    cfg.keep_blocks = options_.keep_blocks;
  }
  cfg.cache_probes = std::move(cache_probes_);
  cache_probes_.clear();
  const std::string reason = EngineReason(none, cfg);
  if (reason.empty()) {
    cfg.warp_body = [warp_fn, warp](const emu::WarpLanes& lanes) {
      simt::RunWarp(lanes, &simt::kLessonClassifier, warp_fn, const_cast<void*>(warp));
    };
  }
  auto trace = emu::RunLaunch(cfg, body);
  if (!trace.ok()) return trace.status();
  launches_.push_back(std::move(trace).value());
  launches_.back().engine = reason.empty() ? "simt" : "fiber";
  launches_.back().engine_reason = reason;
  if (resource_table_ != nullptr) {
    if (const KernelResources* r = resource_table_->Find(kernel)) launches_.back().resources = *r;
  }
  return {};
}

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
