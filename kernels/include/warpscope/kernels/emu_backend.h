// The emulator as a backend for lesson drivers: buffers are host memory, launches run on the
// CPU emulator (see emu_runtime.h). Include in host-compiled lesson files only.
#pragma once

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "warpscope/kernels/emu_runtime.h"
#include "warpscope/kernels/lesson_api.h"
#include "warpscope/kernels/lesson_simt.h"
#include "warpscope/kernels/ws_cuda.h"

namespace ws {

class EmuBackend {
 public:
  EmuBackend(const RunOptions& options, DevicePreset preset)
      : options_(options), preset_(std::move(preset)) {}

  static constexpr const char* kName = "emu";
  std::string device() const { return "CPU emulator (" + preset_.name + " limits)"; }
  const DevicePreset& preset() const { return preset_; }

  template <typename T>
  Global<T> Alloc(const std::string& name, std::size_t count) {
    storage_.push_back(
        std::make_unique<std::vector<std::uint64_t>>((count * sizeof(T) + 7) / 8 + 1, 0));
    buffers_.push_back({name, count * sizeof(T), 0});
    buffer_data_.push_back(storage_.back()->data());
    PlaceBuffers(buffers_);
    return Global<T>(reinterpret_cast<T*>(storage_.back()->data()), count,
                     static_cast<std::uint32_t>(buffers_.size() - 1));
  }

  template <typename T>
  Global<T> Upload(const std::string& name, const std::vector<T>& values) {
    Global<T> g = Alloc<T>(name, values.size());
    if (!values.empty()) std::memcpy(g.data(), values.data(), values.size() * sizeof(T));
    return g;
  }

  template <typename T>
  std::vector<std::remove_const_t<T>> Download(const Global<T>& g) const {
    return std::vector<std::remove_const_t<T>>(g.data(), g.data() + g.size());
  }

  // A lesson's __constant__ array `symbol` holds buffer `id`'s values for this run's launches
  // (CopyToSymbol).
  void BindConstant(const void* symbol, const void* data, std::uint32_t id) {
    if (buffer_constant_.size() <= id) buffer_constant_.resize(id + 1u, 0);
    buffer_constant_[id] = 1;
    std::erase_if(constant_symbols_, [&](const auto& c) { return c.symbol == symbol; });
    constant_symbols_.push_back({symbol, data, id});
  }

  // A texture over a row-major buffer; fetches are recorded at the layout's addresses, which a
  // warp function's fetches name within the bytes the layout spans (LaunchConfig::
  // buffer_texture_bytes).
  template <typename T>
  Texture2D<T> MakeTexture2D(const Global<const T>& g, int width, int height, Layout2D layout) {
    Texture2D<T> t(g, width, height, layout);
    if (buffer_texture_bytes_.size() <= g.buffer()) buffer_texture_bytes_.resize(g.buffer() + 1u);
    buffer_texture_bytes_[g.buffer()] = t.SpanBytes();
    return t;
  }

  // Runs `body` (a lambda that calls the kernel) once per GPU thread, or `warp` (WS_LAUNCH's
  // call of the kernel's warp function: lesson_simt.h's LessonWarp) once per warp where the
  // kernel has one and the launch allows it (the SIMT path: docs/ENGINE.md); the trace says
  // which ran, and why not the SIMT path.
  template <typename F, typename W>
  Status Launch(const std::string& kernel, Dim3 grid, Dim3 block, std::uint32_t shared_bytes,
                std::uint32_t dynamic_shared_bytes, F&& body, W&& warp) {
    // Only the two calls are made for each launch; the rest is LaunchErased, compiled once
    // (lessons_emu.cpp).
    return LaunchErased(
        kernel, grid, block, shared_bytes, dynamic_shared_bytes,
        std::function<void()>(std::forward<F>(body)), warp(nullptr),
        [](void* f, simt::Warp& w) { (*static_cast<const std::decay_t<W>*>(f))(&w); },
        static_cast<const void*>(&warp));
  }

  // Launch with the kernel's two calls type-erased: `body` once per thread, or where `none` is
  // null (the kernel has a warp function) `warp_fn(warp, w)` once per warp on the SIMT path.
  Status LaunchErased(const std::string& kernel, Dim3 grid, Dim3 block, std::uint32_t shared_bytes,
                      std::uint32_t dynamic_shared_bytes, std::function<void()> body,
                      const char* none, void (*warp_fn)(void*, simt::Warp&), const void* warp);

  // What a GPU compiler gives each kernel (registers, local memory), so that a driver's figures
  // can say it (kernels/resources/; the catalogue's table).
  void UseResourceTable(const ResourceTable* t) { resource_table_ = t; }

  std::vector<LaunchTrace>& launches() { return launches_; }

  // The next launch's loads replayed through these caches, every block (its cache_replays).
  void ReplayLoadsThroughCache(std::vector<CacheProbe> probes) {
    cache_probes_ = std::move(probes);
  }

  // The launches that follow run thread by thread, for `why` (a racy variant's output is the
  // threads' order).
  void KeepThreadOrder(std::string why) { thread_order_ = std::move(why); }

  // The block-scheduler model for the launches that follow (the scalability lesson): `sms` SMs
  // holding `blocks_per_sm` blocks each; smid() and globaltimer() then read the model's
  // placement. A GPU deals its blocks itself: CudaBackend ignores this.
  void ModelMultiprocessors(int sms, int blocks_per_sm) {
    model_sms_ = sms;
    model_blocks_per_sm_ = blocks_per_sm;
  }

 private:
  // Why a launch runs thread by thread (empty: the SIMT path). `none`: why its kernel has no warp
  // function (null: it has one). As RunLaunch decides, and in the same order.
  std::string EngineReason(const char* none, const emu::LaunchConfig& cfg) const {
    if (options_.engine == "fiber") return "--engine fiber";
    if (none != nullptr) return none;
    if (!thread_order_.empty()) return thread_order_;
    if (cfg.schedule.kind != Schedule::Kind::kInOrder)
      return "the " + cfg.schedule.Name() + " schedule runs the threads one by one";
    return {};
  }

  int model_sms_ = 0, model_blocks_per_sm_ = 0;
  std::string thread_order_;  // KeepThreadOrder
  std::vector<CacheProbe> cache_probes_;
  RunOptions options_;
  DevicePreset preset_;
  std::vector<std::unique_ptr<std::vector<std::uint64_t>>> storage_;
  std::vector<BufferInfo> buffers_;
  std::vector<const void*> buffer_data_;       // where each buffer lies (the SIMT path's arrays)
  std::vector<std::uint8_t> buffer_constant_;  // LaunchConfig::buffer_constant
  std::vector<emu::LaunchConfig::ConstantBinding> constant_symbols_;  // and constant_symbols
  std::vector<std::uint64_t> buffer_texture_bytes_;  // LaunchConfig::buffer_texture_bytes
  std::vector<LaunchTrace> launches_;
  const ResourceTable* resource_table_ = nullptr;
};

// cudaMemcpyToSymbol(sym, ...) for a lesson's __constant__ array: the emulator reads it from
// buffer `g` (as many elements as the array has: checked).
template <typename T, unsigned long long N>
Status CopyToSymbol(EmuBackend& b, ConstantArray<T, N>& sym, const Global<const T>& g) {
  if (g.size() != N)
    return Status::Error("a __constant__ array of " + std::to_string(N) + " elements given " +
                         std::to_string(g.size()));
  b.BindConstant(&sym, g.data(), g.buffer());
  return {};
}

// The emulator reads a Constant<T> from its buffer (cuda_backend.h's MakeConstant copies it into
// real __constant__ memory).
template <typename T>
Constant<T> MakeConstant(EmuBackend&, const Global<const T>& g) {
  return Constant<T>(g);
}

}  // namespace ws

// WS_LAUNCH(backend, kernel, grid, block, shared_bytes, args...): kernel<<<grid, block>>>(args...)
// on whichever backend the lesson driver was instantiated with.
#define WS_LAUNCH(backend, kernel, grid, block, shared_bytes, ...)                                 \
  (backend).Launch(                                                                                \
      ::ws::KernelNameOf<&kernel>(), grid, block, shared_bytes, 0, [=]() { kernel(__VA_ARGS__); }, \
      [=](::ws::simt::Warp* ws_w) {                                                                \
        return ::ws::simt::LessonWarp(ws_simt::kernel, ws_w, __VA_ARGS__);                         \
      })
// The same with dynamic shared memory: kernel<<<grid, block, dynamic_bytes>>>(args...).
#define WS_LAUNCH_DYNAMIC(backend, kernel, grid, block, shared_bytes, dynamic_bytes, ...) \
  (backend).Launch(                                                                       \
      ::ws::KernelNameOf<&kernel>(), grid, block, shared_bytes, dynamic_bytes,            \
      [=]() { kernel(__VA_ARGS__); },                                                     \
      [=](::ws::simt::Warp* ws_w) {                                                       \
        return ::ws::simt::LessonWarp(ws_simt::kernel, ws_w, __VA_ARGS__);                \
      })
// A kernel written against the recording API itself (the emulator's own tests): it has no warp
// function, and runs thread by thread.
#define WS_LAUNCH_THREADS(backend, kernel, grid, block, shared_bytes, ...)                         \
  (backend).Launch(                                                                                \
      ::ws::KernelNameOf<&kernel>(), grid, block, shared_bytes, 0, [=]() { kernel(__VA_ARGS__); }, \
      [](::ws::simt::Warp*) { return "written against the recording API"; })
