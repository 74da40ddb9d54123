// The GPU as a backend for lesson drivers (include from .cu files only). It works in one of two
// modes. kRecord (the instrumented build) runs each launch twice: a counting pass sizes each
// warp's event range and each thread's barrier slots, and a recording pass fills them (see
// ws_cuda_record_format.h); the records then go through the same site table and analyses as the
// emulator's. kTimeOnly (the uninstrumented build, WS_PLAIN_BUILD) runs a warm-up and then times
// RunOptions::timed_runs runs with CUDA events; the median is the lesson's measured time.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "warpscope/kernels/gpu_records.h"
#include "warpscope/kernels/lesson_api.h"
#include "warpscope/kernels/site_table.h"
#include "warpscope/kernels/ws_cuda.h"
#include "warpscope/trace/device_preset.h"

namespace ws {

inline Status CudaCheck(cudaError_t e, const char* call, const char* file, int line) {
  if (e == cudaSuccess) return {};
  return Status::Error(std::string(call) + " failed at " + file + ":" + std::to_string(line) +
                       ": " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
}
#define WS_CUDA(call) ::ws::CudaCheck((call), #call, __FILE__, __LINE__)

// What the recording of the last launch cost (kRecord mode).
struct CaptureCost {
  double count_ms = 0, record_ms = 0;  // the two passes, CUDA events
  std::uint64_t records = 0;           // access and barrier records decoded
  std::uint64_t record_bytes = 0;      // bytes the recording pass wrote
};

class CudaBackend {
 public:
  enum Mode { kRecord, kTimeOnly };

  explicit CudaBackend(const RunOptions& options, Mode mode = kRecord)
      : options_(options), mode_(mode) {}
  ~CudaBackend() {
    for (cudaTextureObject_t t : textures_) cudaDestroyTextureObject(t);
    for (cudaArray_t a : arrays_) cudaFreeArray(a);
    for (void* p : allocations_) cudaFree(p);
  }

  // A real CUDA texture object over a copy of `g` in a cudaArray: point sampling, clamped
  // addresses, unnormalized coordinates. Fetches are recorded at `layout`'s addresses.
  template <typename T>
  Texture2D<T> MakeTexture2D(const Global<const T>& g, int width, int height, Layout2D layout) {
    Texture2D<T> tex(g, width, height, layout);
    cudaChannelFormatDesc format = cudaCreateChannelDesc<T>();
    cudaArray_t array = nullptr;
    Keep(WS_CUDA(cudaMallocArray(&array, &format, static_cast<std::size_t>(width),
                                 static_cast<std::size_t>(height))));
    if (array == nullptr) return tex;
    arrays_.push_back(array);
    const std::size_t row = static_cast<std::size_t>(width) * sizeof(T);
    Keep(WS_CUDA(cudaMemcpy2DToArray(array, 0, 0, g.data(), row, row,
                                     static_cast<std::size_t>(height), cudaMemcpyDeviceToDevice)));
    cudaResourceDesc res{};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array;
    cudaTextureDesc desc{};
    desc.addressMode[0] = cudaAddressModeClamp;
    desc.addressMode[1] = cudaAddressModeClamp;
    desc.filterMode = cudaFilterModePoint;
    desc.readMode = cudaReadModeElementType;
    desc.normalizedCoords = 0;
    cudaTextureObject_t object = 0;
    Keep(WS_CUDA(cudaCreateTextureObject(&object, &res, &desc, nullptr)));
    if (object != 0) textures_.push_back(object);
    tex.set_texture_object(object);
    return tex;
  }
  CudaBackend(const CudaBackend&) = delete;
  CudaBackend& operator=(const CudaBackend&) = delete;

  static constexpr const char* kName = "cuda";

  Status Init() {
    int count = 0;
    if (Status s = WS_CUDA(cudaGetDeviceCount(&count)); !s.ok()) return s;
    if (options_.gpu < 0 || options_.gpu >= count) {
      return Status::Error("GPU " + std::to_string(options_.gpu) +
                           " does not exist; this machine has " + std::to_string(count) + " (0.." +
                           std::to_string(count - 1) + ")");
    }
    if (Status s = WS_CUDA(cudaSetDevice(options_.gpu)); !s.ok()) return s;
    cudaDeviceProp p{};
    if (Status s = WS_CUDA(cudaGetDeviceProperties(&p, options_.gpu)); !s.ok()) return s;
    device_ = p.name;
    preset_.name = device_;
    preset_.description = "compute " + std::to_string(p.major) + "." + std::to_string(p.minor);
    preset_.max_threads_per_block = static_cast<std::uint32_t>(p.maxThreadsPerBlock);
    preset_.max_block = {static_cast<std::uint32_t>(p.maxThreadsDim[0]),
                         static_cast<std::uint32_t>(p.maxThreadsDim[1]),
                         static_cast<std::uint32_t>(p.maxThreadsDim[2])};
    preset_.max_grid = {static_cast<std::uint32_t>(p.maxGridSize[0]),
                        static_cast<std::uint32_t>(p.maxGridSize[1]),
                        static_cast<std::uint32_t>(p.maxGridSize[2])};
    preset_.shared_per_block = static_cast<std::uint32_t>(p.sharedMemPerBlock);
    preset_.multiprocessors = static_cast<std::uint32_t>(p.multiProcessorCount);
    return {};
  }

  const std::string& device() const { return device_; }
  double last_ms() const { return last_ms_; }                   // kTimeOnly: last launch
  const CaptureCost& capture_cost() const { return capture_; }  // kRecord: last launch

  template <typename T>
  Global<T> Alloc(const std::string& name, std::size_t count) {
    void* p = nullptr;
    const std::size_t bytes = std::max<std::size_t>(count * sizeof(T), 1);
    Keep(WS_CUDA(cudaMalloc(&p, bytes)));
    if (p != nullptr) {
      allocations_.push_back(p);
      user_buffers_.push_back({p, bytes});
      Keep(WS_CUDA(cudaMemset(p, 0, bytes)));
    }
    buffers_.push_back({name, count * sizeof(T), 0});
    PlaceBuffers(buffers_);
    return Global<T>(static_cast<T*>(p), count, static_cast<std::uint32_t>(buffers_.size() - 1));
  }

  template <typename T>
  Global<T> Upload(const std::string& name, const std::vector<T>& values) {
    Global<T> g = Alloc<T>(name, values.size());
    if (g.data() != nullptr && !values.empty()) {
      Keep(WS_CUDA(cudaMemcpy(const_cast<std::remove_const_t<T>*>(g.data()), values.data(),
                              values.size() * sizeof(T), cudaMemcpyHostToDevice)));
    }
    return g;
  }

  template <typename T>
  std::vector<std::remove_const_t<T>> Download(const Global<T>& g) {
    std::vector<std::remove_const_t<T>> v(g.size());
    if (g.data() != nullptr && !v.empty()) {
      Keep(WS_CUDA(cudaMemcpy(v.data(), g.data(), v.size() * sizeof(T), cudaMemcpyDeviceToHost)));
    }
    return v;
  }

  // `launch(state)` sets the translation unit's recorder state and launches the kernel.
  template <typename F>
  Status Launch(const std::string& kernel, Dim3 grid, Dim3 block, std::uint32_t shared_bytes,
                std::uint32_t dynamic_shared_bytes, F&& launch);

  // A program's own memory (kernels/program/runtime/cuda_program.cu): `buffers` names every
  // buffer and symbol the program registered, by id; `live` lists the device ranges a launch
  // restores between its passes. Replaces what Alloc and Upload registered.
  struct DeviceRange {
    void* ptr;
    std::size_t bytes;
  };
  void UseProgramMemory(std::vector<BufferInfo> buffers, std::vector<DeviceRange> live) {
    buffers_ = std::move(buffers);
    user_buffers_ = std::move(live);
  }

  std::vector<LaunchTrace>& launches() { return launches_; }
  const Status& status() const { return status_; }
  // The GPU deals its blocks to its own SMs (see EmuBackend::ModelMultiprocessors).
  void ModelMultiprocessors(int, int) {}
  const DevicePreset& preset() const { return preset_; }

 private:
  void Keep(Status s) {
    if (status_.ok() && !s.ok()) status_ = std::move(s);
  }
  template <typename T>
  T* DeviceArray(std::size_t count) {
    void* p = nullptr;
    Keep(WS_CUDA(cudaMalloc(&p, std::max<std::size_t>(count * sizeof(T), 1))));
    if (p != nullptr) allocations_.push_back(p);
    return static_cast<T*>(p);
  }
  template <typename F>
  Status TimeLaunch(const std::string& kernel, Dim3 grid, Dim3 block, std::uint32_t shared_bytes,
                    F& launch);
  template <typename F>
  Status RecordLaunch(const std::string& kernel, Dim3 grid, Dim3 block, std::uint32_t shared_bytes,
                      F& launch);
  void ReadDeviceFiles(const char* const* files_d, GpuCapture* c);
  void PlanRanges(Dim3 grid, std::uint32_t wpb, const std::vector<unsigned long long>& wcount,
                  const std::vector<unsigned long long>& bcount, GpuCapture* c) const;
  // After a failed launch: a fault (an illegal address, say) leaves the CUDA context unusable.
  // The device is reset to free its memory, but CUDA keeps the error for the rest of the
  // process (on an H100 every later call fails with cudaErrorDevicesUnavailable), which is why
  // the app makes its GPU runs in a child process (app/core/child_run.h).
  void Recover() {
    (void)cudaGetLastError();
    if (cudaDeviceSynchronize() == cudaSuccess) return;
    cudaDeviceReset();
    (void)cudaGetLastError();
    allocations_.clear();
    arrays_.clear();
    textures_.clear();
    user_buffers_.clear();
    recovered_ = true;
  }

  // A launch runs the kernel several times; every run must start from the same memory, or a
  // kernel that accumulates (atomics, +=) would see its own earlier results.
  std::vector<void*> SnapshotBuffers() {
    std::vector<void*> copies;
    for (const DeviceRange& b : user_buffers_) {
      void* c = nullptr;
      Keep(WS_CUDA(cudaMalloc(&c, b.bytes)));
      if (c != nullptr) Keep(WS_CUDA(cudaMemcpy(c, b.ptr, b.bytes, cudaMemcpyDeviceToDevice)));
      copies.push_back(c);
    }
    return copies;
  }
  void RestoreBuffers(const std::vector<void*>& copies) {
    for (std::size_t i = 0; i < copies.size() && i < user_buffers_.size(); ++i) {
      if (copies[i] != nullptr) {
        Keep(WS_CUDA(cudaMemcpy(user_buffers_[i].ptr, copies[i], user_buffers_[i].bytes,
                                cudaMemcpyDeviceToDevice)));
      }
    }
  }

  RunOptions options_;
  Mode mode_;
  DevicePreset preset_;
  std::vector<DeviceRange> user_buffers_;
  std::vector<cudaArray_t> arrays_;
  std::vector<cudaTextureObject_t> textures_;
  std::string device_;
  std::vector<void*> allocations_;
  std::vector<BufferInfo> buffers_;
  std::vector<LaunchTrace> launches_;
  Status status_;
  double last_ms_ = 0;
  CaptureCost capture_;
  bool recovered_ = false;
};

template <typename F>
Status CudaBackend::Launch(const std::string& kernel, Dim3 grid, Dim3 block,
                           std::uint32_t shared_bytes, std::uint32_t dynamic_shared_bytes,
                           F&& launch) {
  if (!status_.ok()) return status_;
  if (Status s = CheckLaunch(preset_, grid, block, shared_bytes + dynamic_shared_bytes); !s.ok())
    return Status::Error(kernel + ": " + s.message());
  const Status s = mode_ == kTimeOnly ? TimeLaunch(kernel, grid, block, shared_bytes, launch)
                                      : RecordLaunch(kernel, grid, block, shared_bytes, launch);
  if (s.ok()) return s;
  Recover();
  if (!recovered_) return s;
  return Status::Error(s.message() +
                       ". The kernel faulted on the GPU; this process cannot use the GPU again "
                       "(a new run in a new process can)");
}

template <typename F>
Status CudaBackend::TimeLaunch(const std::string& kernel, Dim3 grid, Dim3 block,
                               std::uint32_t shared_bytes, F& launch) {
  const std::vector<void*> snapshot = SnapshotBuffers();
  cudaEvent_t start = nullptr, stop = nullptr;
  Keep(WS_CUDA(cudaEventCreate(&start)));
  Keep(WS_CUDA(cudaEventCreate(&stop)));
  dev::RecorderState off{};
  off.mode = dev::kOff;
  Keep(WS_CUDA(launch(off)));  // warm-up (loads the module, fills the caches' tags)
  Keep(WS_CUDA(cudaDeviceSynchronize()));
  std::vector<float> ms;
  for (int i = 0; i < std::max(options_.timed_runs, 1) && status_.ok(); ++i) {
    RestoreBuffers(snapshot);  // the output left behind is that of one run
    Keep(WS_CUDA(cudaEventRecord(start)));
    Keep(WS_CUDA(launch(off)));
    Keep(WS_CUDA(cudaEventRecord(stop)));
    Keep(WS_CUDA(cudaEventSynchronize(stop)));
    float t = 0;
    Keep(WS_CUDA(cudaEventElapsedTime(&t, start, stop)));
    ms.push_back(t);
  }
  if (start != nullptr) cudaEventDestroy(start);
  if (stop != nullptr) cudaEventDestroy(stop);
  for (void* c : snapshot) {
    if (c != nullptr) cudaFree(c);
  }
  if (!status_.ok()) return Status::Error(kernel + ": " + status_.message());
  std::sort(ms.begin(), ms.end());
  last_ms_ = ms.empty() ? 0 : ms[ms.size() / 2];
  LaunchTrace t;
  t.kernel = kernel;
  t.grid = grid;
  t.block = block;
  t.shared_bytes = shared_bytes;
  t.buffers = buffers_;
  launches_.push_back(std::move(t));
  return {};
}

template <typename F>
Status CudaBackend::RecordLaunch(const std::string& kernel, Dim3 grid, Dim3 block,
                                 std::uint32_t shared_bytes, F& launch) {
  const std::size_t threads = grid.count() * block.count();
  const std::uint32_t wpb = static_cast<std::uint32_t>((block.count() + 31) / 32);
  const std::size_t warps = grid.count() * wpb;
  const std::size_t scratch_mark = allocations_.size();  // freed when this launch is done
  const std::vector<void*> snapshot = SnapshotBuffers();
  auto* wcursor = DeviceArray<unsigned long long>(warps);
  auto* wbase_d = DeviceArray<unsigned long long>(warps + 1);
  auto* bcursor = DeviceArray<unsigned long long>(threads);
  auto* bbase_d = DeviceArray<unsigned long long>(threads + 1);
  auto* overflow = DeviceArray<unsigned int>(1);
  auto* files_d = DeviceArray<const char*>(dev::kDeviceFileTags);
  cudaEvent_t start = nullptr, stop = nullptr;
  Keep(WS_CUDA(cudaEventCreate(&start)));
  Keep(WS_CUDA(cudaEventCreate(&stop)));
  auto free_scratch = [&] {
    if (start != nullptr) cudaEventDestroy(start);
    if (stop != nullptr) cudaEventDestroy(stop);
    for (void* c : snapshot) {
      if (c != nullptr) cudaFree(c);
    }
    for (std::size_t i = scratch_mark; i < allocations_.size(); ++i) cudaFree(allocations_[i]);
    allocations_.resize(scratch_mark);
  };
  // Runs one pass and returns its time in ms (CUDA events).
  auto pass = [&](const dev::RecorderState& st) {
    float t = 0;
    Keep(WS_CUDA(cudaEventRecord(start)));
    Keep(WS_CUDA(launch(st)));
    Keep(WS_CUDA(cudaEventRecord(stop)));
    Keep(WS_CUDA(cudaEventSynchronize(stop)));
    if (status_.ok()) Keep(WS_CUDA(cudaEventElapsedTime(&t, start, stop)));
    return static_cast<double>(t);
  };
  if (!status_.ok()) {
    free_scratch();
    return status_;
  }
  Keep(WS_CUDA(cudaMemset(wcursor, 0, warps * 8)));
  Keep(WS_CUDA(cudaMemset(bcursor, 0, threads * 8)));
  Keep(WS_CUDA(cudaMemset(overflow, 0, 4)));
  Keep(WS_CUDA(cudaMemset(files_d, 0, dev::kDeviceFileTags * sizeof(const char*))));
  dev::RecorderState st{};
  st.threads_per_block = static_cast<unsigned int>(block.count());
  st.warps_per_block = wpb;
  st.warp_cursor = wcursor;
  st.warp_base = wbase_d;
  st.barrier_cursor = bcursor;
  st.barrier_base = bbase_d;
  st.overflow = overflow;
  st.files = files_d;

  // Pass 1: count each warp's event words and each thread's barrier records.
  st.mode = dev::kCount;
  capture_.count_ms = pass(st);
  GpuCapture c;
  c.kernel = kernel;
  c.grid = grid;
  c.block = block;
  c.shared_bytes = shared_bytes;
  c.buffers = buffers_;
  std::vector<unsigned long long> wcount(warps), bcount(threads);
  Keep(WS_CUDA(cudaMemcpy(wcount.data(), wcursor, warps * 8, cudaMemcpyDeviceToHost)));
  Keep(WS_CUDA(cudaMemcpy(bcount.data(), bcursor, threads * 8, cudaMemcpyDeviceToHost)));
  if (!status_.ok()) {
    free_scratch();
    return Status::Error(kernel + ": " + status_.message());
  }
  PlanRanges(grid, wpb, wcount, bcount, &c);
  auto* words_d = DeviceArray<unsigned int>(c.warp_base.back());
  auto* bar_d = DeviceArray<dev::RawBarrier>(c.barrier_base.back());
  if (words_d != nullptr) Keep(WS_CUDA(cudaMemset(words_d, 0, c.warp_base.back() * 4)));
  Keep(WS_CUDA(cudaMemcpy(wbase_d, c.warp_base.data(), (warps + 1) * 8, cudaMemcpyHostToDevice)));
  Keep(WS_CUDA(
      cudaMemcpy(bbase_d, c.barrier_base.data(), (threads + 1) * 8, cudaMemcpyHostToDevice)));
  Keep(WS_CUDA(cudaMemset(wcursor, 0, warps * 8)));
  Keep(WS_CUDA(cudaMemset(bcursor, 0, threads * 8)));

  // Pass 2: record, from the same starting memory.
  RestoreBuffers(snapshot);
  st.mode = dev::kRecord;
  st.words = words_d;
  st.barriers = bar_d;
  if (status_.ok()) capture_.record_ms = pass(st);
  c.words.resize(c.warp_base.back());
  c.barriers.resize(c.barrier_base.back());
  c.warp_used.resize(warps);
  c.barrier_used.resize(threads);
  unsigned int overflowed = 0;
  if (!c.words.empty())
    Keep(WS_CUDA(cudaMemcpy(c.words.data(), words_d, c.words.size() * 4, cudaMemcpyDeviceToHost)));
  if (!c.barriers.empty())
    Keep(WS_CUDA(cudaMemcpy(c.barriers.data(), bar_d, c.barriers.size() * sizeof(dev::RawBarrier),
                            cudaMemcpyDeviceToHost)));
  Keep(WS_CUDA(cudaMemcpy(c.warp_used.data(), wcursor, warps * 8, cudaMemcpyDeviceToHost)));
  Keep(WS_CUDA(cudaMemcpy(c.barrier_used.data(), bcursor, threads * 8, cudaMemcpyDeviceToHost)));
  Keep(WS_CUDA(cudaMemcpy(&overflowed, overflow, 4, cudaMemcpyDeviceToHost)));
  ReadDeviceFiles(files_d, &c);
  free_scratch();
  if (!status_.ok()) return Status::Error(kernel + ": " + status_.message());
  c.overflowed = overflowed != 0;
  capture_.record_bytes = 0;
  for (std::size_t w = 0; w < warps; ++w)
    capture_.record_bytes +=
        4 * std::min<std::uint64_t>(c.warp_used[w], c.warp_base[w + 1] - c.warp_base[w]);
  for (std::size_t g = 0; g < threads; ++g)
    capture_.record_bytes +=
        sizeof(dev::RawBarrier) *
        std::min<std::uint64_t>(c.barrier_used[g], c.barrier_base[g + 1] - c.barrier_base[g]);
  KeepBlocks keep{options_.keep_blocks, options_.keep_all_blocks};
  LaunchTrace t = DecodeGpuCapture(c, keep);
  capture_.records = t.stats.access_records + t.stats.barrier_records;
  launches_.push_back(std::move(t));
  return {};
}

// The names of the files the recording pass's tags stand for: the kernel noted each tag's
// __builtin_FILE() literal, which lives in the module's global memory; read back a byte at a
// time (a literal's end is not known, and reading past the module's data would fail).
inline void CudaBackend::ReadDeviceFiles(const char* const* files_d, GpuCapture* c) {
  std::vector<const char*> files(dev::kDeviceFileTags);
  Keep(WS_CUDA(cudaMemcpy(files.data(), files_d, files.size() * sizeof(const char*),
                          cudaMemcpyDeviceToHost)));
  if (!status_.ok()) return;
  for (std::uint32_t tag = 0; tag < files.size(); ++tag) {
    if (files[tag] == nullptr) continue;
    std::string name;
    char ch = 0;
    for (std::size_t i = 0; i < 4096; ++i) {
      if (cudaMemcpy(&ch, files[tag] + i, 1, cudaMemcpyDeviceToHost) != cudaSuccess || ch == 0)
        break;
      name += ch;
    }
    cudaGetLastError();  // a failed read is not the launch's error
    c->device_files[static_cast<std::uint16_t>(tag)] = name.substr(name.find_last_of("/\\") + 1);
  }
}

// Each warp gets the words it counted plus a margin (lanes that ran together on the counting
// pass may split into more events on the recording pass), and each thread its barrier slots;
// past the byte budget, ranges are given to the kept blocks' warps first, then in order, and
// a warp left without room records nothing (its launch is marked truncated).
inline void CudaBackend::PlanRanges(Dim3 grid, std::uint32_t wpb,
                                    const std::vector<unsigned long long>& wcount,
                                    const std::vector<unsigned long long>& bcount,
                                    GpuCapture* c) const {
  const std::size_t warps = wcount.size(), threads = bcount.size();
  c->barrier_base.assign(threads + 1, 0);
  for (std::size_t g = 0; g < threads; ++g) c->barrier_base[g + 1] = c->barrier_base[g] + bcount[g];
  std::uint64_t left = options_.record_budget_bytes;
  const std::uint64_t barrier_bytes = c->barrier_base.back() * sizeof(dev::RawBarrier);
  left = left > barrier_bytes ? left - barrier_bytes : 0;
  std::vector<std::uint64_t> size(warps, 0);
  auto give = [&](std::size_t w) {
    if (size[w] != 0 || wcount[w] == 0) return;
    const std::uint64_t want = wcount[w] + wcount[w] / 4 + 2 * dev::kAffineEventWords;
    if (want * 4 <= left) {
      size[w] = want;
      left -= want * 4;
    }
  };
  for (std::uint32_t b : options_.keep_blocks) {
    if (b < grid.count())
      for (std::uint32_t k = 0; k < wpb; ++k) give(std::size_t{b} * wpb + k);
  }
  for (std::size_t w = 0; w < warps; ++w) give(w);
  c->warp_base.assign(warps + 1, 0);
  for (std::size_t w = 0; w < warps; ++w) c->warp_base[w + 1] = c->warp_base[w] + size[w];
}

}  // namespace ws

// `launch(state)` sets the translation unit's recorder state (instrumented build only) and
// launches the kernel.
#if defined(WS_PLAIN_BUILD)
#define WS_SET_RECORDER_STATE(state) ((void)(state), cudaSuccess)
#else
#define WS_SET_RECORDER_STATE(state) cudaMemcpyToSymbol(ws_recorder_state, &(state), sizeof(state))
#endif
#define WS_LAUNCH_DYNAMIC(backend, kernel, grid, block, shared_bytes, dynamic_bytes, ...)   \
  (backend).Launch(                                                                         \
      #kernel, grid, block, shared_bytes, dynamic_bytes,                                    \
      [&](const ::ws::dev::RecorderState& ws_st_) {                                         \
        cudaError_t ws_e_ = WS_SET_RECORDER_STATE(ws_st_);                                  \
        if (ws_e_ != cudaSuccess) return ws_e_;                                             \
        kernel<<<dim3((grid).x, (grid).y, (grid).z), dim3((block).x, (block).y, (block).z), \
                 (dynamic_bytes)>>>(__VA_ARGS__);                                           \
        return cudaGetLastError();                                                          \
      })
#define WS_LAUNCH(backend, kernel, grid, block, shared_bytes, ...) \
  WS_LAUNCH_DYNAMIC(backend, kernel, grid, block, shared_bytes, 0, __VA_ARGS__)
