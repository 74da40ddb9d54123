// The GPU as a backend for lesson drivers (include from .cu files only). It works in one of two
// modes. kRecord (the instrumented build) runs each launch once, its warps writing their events
// into chunks of a pool (see ws_cuda_record_format.h; only when the record budget runs out are
// there a counting and a planned pass after it); the records then go through the same site
// table and analyses as the emulator's. kTimeOnly (the uninstrumented build, WS_PLAIN_BUILD) runs a
// warm-up and then times RunOptions::timed_runs runs with CUDA events; the median is the lesson's
// measured time.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <concepts>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "warpscope/kernels/cuda_resources.h"
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
  // The pass that recorded and, when the record budget ran out on it, the passes before the one
  // that recorded (the first attempt and the counting pass); CUDA events.
  double count_ms = 0, record_ms = 0;
  std::uint64_t records = 0;       // access and barrier records decoded
  std::uint64_t record_bytes = 0;  // bytes the recording pass wrote
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

  // Room for `bytes` in ws_constant_bank, 16-byte aligned: the offset, or -1 (with the error
  // kept) when the bank is full. MakeConstant below fills it.
  long long ReserveConstant(std::size_t bytes) {
    const std::size_t at = (constant_used_ + 15) / 16 * 16;
    if (at + bytes > kConstantBankBytes) {
      Keep(Status::Error("constant data of " + std::to_string(bytes) + " bytes does not fit: " +
                         std::to_string(kConstantBankBytes - at) + " of the " +
                         std::to_string(kConstantBankBytes) + "-byte __constant__ bank are left"));
      return -1;
    }
    constant_used_ = at + bytes;
    return static_cast<long long>(at);
  }
  void KeepStatus(Status s) { Keep(std::move(s)); }

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
                std::uint32_t dynamic_shared_bytes, F&& launch) {
    return LaunchKeeping(kernel, grid, block, shared_bytes, dynamic_shared_bytes, launch, {});
  }
  // The same, where `attributes(&a)` is cudaFuncGetAttributes of the kernel: the uninstrumented
  // build keeps the compiler's registers and local memory with the launch (the recording
  // build's own are the recorder's, not the kernel's, and are not kept).
  template <typename F, typename A>
  Status Launch(const std::string& kernel, Dim3 grid, Dim3 block, std::uint32_t shared_bytes,
                std::uint32_t dynamic_shared_bytes, F&& launch, A&& attributes) {
    KernelResources resources;
    if (mode_ == kTimeOnly && status_.ok()) {
      cudaFuncAttributes a{};
      if (attributes(&a) == cudaSuccess)
        resources = ResourcesOf(a, device_, kernel, resource_table_);
      (void)cudaGetLastError();
    }
    return LaunchKeeping(kernel, grid, block, shared_bytes, dynamic_shared_bytes, launch,
                         std::move(resources));
  }

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
  // ptxas's table of the build's kernels: the spill counts cudaFuncGetAttributes lacks.
  void UseResourceTable(const ResourceTable* t) { resource_table_ = t; }
  // The GPU deals its blocks to its own SMs (see EmuBackend::ModelMultiprocessors).
  void ModelMultiprocessors(int, int) {}
  // The next launch's loads replayed through these caches, every block recorded (its
  // cache_replays; a timing run records none).
  void ReplayLoadsThroughCache(std::vector<CacheProbe> probes) {
    cache_probes_ = std::move(probes);
  }
  const DevicePreset& preset() const { return preset_; }

 private:
  void Keep(Status s) {
    if (status_.ok() && !s.ok()) status_ = std::move(s);
  }
  std::size_t constant_used_ = 0;  // bytes of ws_constant_bank given out
  const ResourceTable* resource_table_ = nullptr;
  template <typename T>
  T* DeviceArray(std::size_t count) {
    void* p = nullptr;
    Keep(WS_CUDA(cudaMalloc(&p, std::max<std::size_t>(count * sizeof(T), 1))));
    if (p != nullptr) allocations_.push_back(p);
    return static_cast<T*>(p);
  }
  // Launches and keeps `resources` with the launch (the uninstrumented build's only).
  template <typename F>
  Status LaunchKeeping(const std::string& kernel, Dim3 grid, Dim3 block, std::uint32_t shared_bytes,
                       std::uint32_t dynamic_shared_bytes, F& launch, KernelResources resources);
  template <typename F>
  Status TimeLaunch(const std::string& kernel, Dim3 grid, Dim3 block, std::uint32_t shared_bytes,
                    F& launch);
  template <typename F>
  Status RecordLaunch(const std::string& kernel, Dim3 grid, Dim3 block, std::uint32_t shared_bytes,
                      F& launch);
  void ReadDeviceFiles(const char* const* files_d, GpuCapture* c);
  std::vector<unsigned long long> PlanRanges(Dim3 grid, std::uint32_t wpb,
                                             const std::vector<unsigned long long>& counted) const;
  unsigned int* RecordPool();
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
    pool_ = nullptr;  // the reset freed it
    recovered_ = true;
  }

  // A launch runs the kernel several times; every run must start from the same memory, or a
  // kernel that accumulates (atomics, +=) would see its own earlier results. A program's buffer
  // may be pinned host memory (cudaMallocHost, zero copy) or managed: copied as UVA says.
  std::vector<void*> SnapshotBuffers() {
    std::vector<void*> copies;
    for (const DeviceRange& b : user_buffers_) {
      void* c = nullptr;
      Keep(WS_CUDA(cudaMalloc(&c, b.bytes)));
      if (c != nullptr) Keep(WS_CUDA(cudaMemcpy(c, b.ptr, b.bytes, cudaMemcpyDefault)));
      copies.push_back(c);
    }
    return copies;
  }
  void RestoreBuffers(const std::vector<void*>& copies) {
    for (std::size_t i = 0; i < copies.size() && i < user_buffers_.size(); ++i) {
      if (copies[i] != nullptr) {
        Keep(WS_CUDA(cudaMemcpy(user_buffers_[i].ptr, copies[i], user_buffers_[i].bytes,
                                cudaMemcpyDefault)));
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
  std::vector<CacheProbe> cache_probes_;  // ReplayLoadsThroughCache, for the next launch
  Status status_;
  double last_ms_ = 0;
  CaptureCost capture_;
  bool recovered_ = false;
  void* pool_ = nullptr;  // the recording pool of the launch being recorded
  std::uint64_t pool_words_ = 0;
};

template <typename F>
Status CudaBackend::LaunchKeeping(const std::string& kernel, Dim3 grid, Dim3 block,
                                  std::uint32_t shared_bytes, std::uint32_t dynamic_shared_bytes,
                                  F& launch, KernelResources resources) {
  if (!status_.ok()) return status_;
  if (Status s = CheckLaunch(preset_, grid, block, shared_bytes + dynamic_shared_bytes); !s.ok())
    return Status::Error(kernel + ": " + s.message());
  const Status s = mode_ == kTimeOnly ? TimeLaunch(kernel, grid, block, shared_bytes, launch)
                                      : RecordLaunch(kernel, grid, block, shared_bytes, launch);
  cache_probes_.clear();
  if (s.ok() && mode_ == kTimeOnly && !launches_.empty())
    launches_.back().resources = std::move(resources);
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
  const std::uint32_t wpb = static_cast<std::uint32_t>((block.count() + 31) / 32);
  const std::size_t warps = grid.count() * wpb;
  const std::size_t scratch_mark = allocations_.size();  // freed when this launch is done
  const std::vector<void*> snapshot = SnapshotBuffers();
  auto* state_d = DeviceArray<unsigned long long>(warps);
  auto* pool_next = DeviceArray<unsigned long long>(1);
  auto* sm_state_d = DeviceArray<unsigned long long>(dev::kSmSlots * dev::kSmSlotStride);
  auto* overflow = DeviceArray<unsigned int>(1);
  auto* files_d = DeviceArray<const char*>(dev::kDeviceFileTags);
  unsigned int* pool = RecordPool();
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
    if (pool_ != nullptr) cudaFreeAsync(pool_, 0);
    pool_ = nullptr;
  };
  // Runs one pass from the launch's starting memory and returns its time in ms (CUDA events).
  int passes = 0;
  auto pass = [&](dev::RecorderState st) {
    if (passes++ > 0) RestoreBuffers(snapshot);
    st.quiet = passes > 1;
    Keep(WS_CUDA(cudaMemset(overflow, 0, 4)));
    float t = 0;
    Keep(WS_CUDA(cudaEventRecord(start)));
    Keep(WS_CUDA(launch(st)));
    Keep(WS_CUDA(cudaEventRecord(stop)));
    Keep(WS_CUDA(cudaEventSynchronize(stop)));
    if (status_.ok()) Keep(WS_CUDA(cudaEventElapsedTime(&t, start, stop)));
    unsigned int overflowed = 0;
    Keep(WS_CUDA(cudaMemcpy(&overflowed, overflow, 4, cudaMemcpyDeviceToHost)));
    return std::pair<double, bool>(t, overflowed != 0);
  };
  auto failed = [&] {
    free_scratch();
    return Status::Error(kernel + ": " + status_.message());
  };
  if (!status_.ok()) return failed();
  Keep(WS_CUDA(cudaMemset(state_d, 0, warps * 8)));
  // Each warp's own first chunk where the pool has room for them (ws_cuda_record_format.h).
  const bool first_chunks = pool != nullptr && warps * dev::kFirstChunkWords * 2 <= pool_words_;
  const unsigned long long first_words = first_chunks ? warps * dev::kFirstChunkWords : 0;
  if (first_chunks) Keep(WS_CUDA(cudaMemsetAsync(pool, 0, first_words * 4)));
  Keep(WS_CUDA(cudaMemcpy(pool_next, &first_words, 8, cudaMemcpyHostToDevice)));
  Keep(WS_CUDA(cudaMemset(sm_state_d, 0, dev::kSmSlots * dev::kSmSlotStride * 8)));
  Keep(WS_CUDA(cudaMemset(files_d, 0, dev::kDeviceFileTags * sizeof(const char*))));
  dev::RecorderState st{};
  st.threads_per_block = static_cast<unsigned int>(block.count());
  st.warps_per_block = wpb;
  st.warp_state = state_d;
  st.words = pool;
  st.pool_next = pool_next;
  st.pool_words = pool_words_;
  st.sm_state = sm_state_d;
  st.super_words = SuperChunkWords(pool_words_, preset_.multiprocessors);
  st.max_chunk_class = MaxChunkClass(st.super_words);
  st.first_chunks = first_chunks ? 1u : 0u;
  st.overflow = overflow;
  st.files = files_d;
  GpuCapture c;
  c.kernel = kernel;
  c.grid = grid;
  c.block = block;
  c.shared_bytes = shared_bytes;
  c.buffers = buffers_;
  std::vector<unsigned long long> state(warps);
  std::vector<std::uint32_t> words;

  // One pass: each warp takes chunks from the pool as it goes.
  st.mode = dev::kRecord;
  const auto [pool_ms, pool_overflowed] = pass(st);
  capture_ = {};
  capture_.record_ms = pool_ms;
  unsigned long long handed_out = 0;
  Keep(WS_CUDA(cudaMemcpy(&handed_out, pool_next, 8, cudaMemcpyDeviceToHost)));
  if (!status_.ok()) return failed();
  std::vector<PoolChunk> chunks;
  if (!pool_overflowed) {
    // Only the used words come back: each super-chunk's header word first (one strided copy),
    // then each super-chunk's used words.
    std::vector<unsigned long long> sm_state(dev::kSmSlots * dev::kSmSlotStride);
    Keep(WS_CUDA(
        cudaMemcpy(sm_state.data(), sm_state_d, sm_state.size() * 8, cudaMemcpyDeviceToHost)));
    std::vector<std::uint32_t> headers((handed_out - first_words) / st.super_words);
    if (!headers.empty())
      Keep(WS_CUDA(cudaMemcpy2D(headers.data(), 4, pool + first_words,
                                std::size_t{st.super_words} * 4, 4, headers.size(),
                                cudaMemcpyDeviceToHost)));
    const std::vector<SuperChunk> supers =
        SuperChunks(headers, first_words, st.super_words, sm_state);
    std::uint64_t total = first_words;
    for (const SuperChunk& sc : supers) total += sc.used;
    words.resize(total);
    if (first_words > 0)
      Keep(WS_CUDA(cudaMemcpy(words.data(), pool, first_words * 4, cudaMemcpyDeviceToHost)));
    for (std::uint64_t w = 0; w < first_words / dev::kFirstChunkWords; ++w)
      chunks.push_back(
          {w, w * dev::kFirstChunkWords, dev::kFirstChunkWords, w * dev::kFirstChunkWords});
    std::uint64_t at = first_words;
    for (const SuperChunk& sc : supers) {
      if (sc.used > 0)
        Keep(WS_CUDA(
            cudaMemcpy(words.data() + at, pool + sc.first, sc.used * 4, cudaMemcpyDeviceToHost)));
      at += sc.used;
    }
    const std::vector<PoolChunk> more = PoolChunks(words, first_words, supers, warps);
    chunks.insert(chunks.end(), more.begin(), more.end());
  } else {
    // The pool ran dry: record again as before it existed, so that the budget goes to the kept
    // blocks first and then to the warps in order (ws_cuda_record_format.h).
    Keep(WS_CUDA(cudaMemset(state_d, 0, warps * 8)));
    st.mode = dev::kCount;
    capture_.count_ms = pool_ms + pass(st).first;
    Keep(WS_CUDA(cudaMemcpy(state.data(), state_d, warps * 8, cudaMemcpyDeviceToHost)));
    if (!status_.ok()) return failed();
    const std::vector<unsigned long long> plan = PlanRanges(grid, wpb, state);
    auto* plan_d = DeviceArray<unsigned long long>(warps + 1);
    auto* planned = DeviceArray<unsigned int>(plan.back());
    Keep(WS_CUDA(cudaMemcpy(plan_d, plan.data(), (warps + 1) * 8, cudaMemcpyHostToDevice)));
    if (planned != nullptr) Keep(WS_CUDA(cudaMemset(planned, 0, plan.back() * 4)));
    for (std::size_t w = 0; w < warps; ++w) {
      state[w] = plan[w + 1] > plan[w] ? dev::ChunkState(plan[w], 0, dev::kChunkHeaderWords)
                                       : dev::kDeadState;
      if (plan[w + 1] > plan[w]) chunks.push_back({w, plan[w], plan[w + 1] - plan[w], plan[w]});
    }
    Keep(WS_CUDA(cudaMemcpy(state_d, state.data(), warps * 8, cudaMemcpyHostToDevice)));
    st.mode = dev::kRecord;
    st.words = planned;
    st.plan = plan_d;
    st.first_chunks = 0;
    st.pool_words = 0;
    capture_.record_ms = pass(st).first;
    c.overflowed = true;
    words.resize(plan.back());
    if (!words.empty())
      Keep(WS_CUDA(cudaMemcpy(words.data(), planned, words.size() * 4, cudaMemcpyDeviceToHost)));
  }
  Keep(WS_CUDA(cudaMemcpy(state.data(), state_d, warps * 8, cudaMemcpyDeviceToHost)));
  ReadDeviceFiles(files_d, &c);
  free_scratch();
  if (!status_.ok()) return Status::Error(kernel + ": " + status_.message());
  GatherChunks(words, chunks, state, first_chunks && !c.overflowed, &c);
  capture_.record_bytes = 4 * c.words.size();
  KeepBlocks keep{options_.keep_blocks, options_.keep_all_blocks};
  LaunchTrace t = DecodeGpuCapture(c, keep, cache_probes_);
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
// pass may split into more events on the recording pass) and its chunk header, rounded to 16
// bytes; past the byte budget, ranges are given to the kept blocks' warps first, then in order,
// and a warp left without room records nothing (its launch is marked truncated).
inline std::vector<unsigned long long> CudaBackend::PlanRanges(
    Dim3 grid, std::uint32_t wpb, const std::vector<unsigned long long>& counted) const {
  const std::size_t warps = counted.size();
  std::uint64_t left = options_.record_budget_bytes;
  std::vector<std::uint64_t> size(warps, 0);
  auto give = [&](std::size_t w) {
    if (size[w] != 0 || counted[w] == 0) return;
    std::uint64_t want =
        dev::kChunkHeaderWords + counted[w] + counted[w] / 4 + 2 * dev::kAffineEventWords;
    want = std::min<std::uint64_t>((want + 3) / 4 * 4, dev::kUsedMask / 2);
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
  std::vector<unsigned long long> plan(warps + 1, 0);
  for (std::size_t w = 0; w < warps; ++w) plan[w + 1] = plan[w] + size[w];
  return plan;
}

// The pool the recording pass takes its chunks from: the record budget (at most half the GPU's
// free memory), from the device's stream-ordered memory pool, which keeps it reserved between
// launches (so that a warm worker's runs do not map a gigabyte each time) and, unlike a pointer
// kept by hand, is rebuilt by CUDA after a cudaDeviceReset() (a user's program may call one).
// Its words need no clearing: a chunk's header is written when it is taken, and the decoder
// reads a chunk only up to its used count.
inline unsigned int* CudaBackend::RecordPool() {
  std::size_t free_bytes = 0, total = 0;
  Keep(WS_CUDA(cudaMemGetInfo(&free_bytes, &total)));
  cudaMemPool_t reserve = nullptr;
  std::uint64_t reserved = 0;
  if (cudaDeviceGetDefaultMemPool(&reserve, options_.gpu) == cudaSuccess) {
    cudaMemPoolGetAttribute(reserve, cudaMemPoolAttrReservedMemCurrent, &reserved);
    std::uint64_t keep = options_.record_budget_bytes;
    cudaMemPoolSetAttribute(reserve, cudaMemPoolAttrReleaseThreshold, &keep);
  }
  (void)cudaGetLastError();
  const std::uint64_t want =
      std::min<std::uint64_t>(options_.record_budget_bytes, (free_bytes + reserved) / 2) / 64 * 64;
  void* p = nullptr;
  if (want > 0) Keep(WS_CUDA(cudaMallocAsync(&p, want, 0)));
  pool_ = p;
  pool_words_ = p != nullptr ? want / 4 : 0;
  return static_cast<unsigned int*>(p);
}

// `g` as real constant memory: copied into this translation unit's ws_constant_bank with
// cudaMemcpyToSymbol, so the kernels of this build read it with ld.const. Static, so that no
// translation unit's copy stands in for another's: the plain build fills its own bank and the
// recorded build its own. (One run at a time per process: the offsets are the backend's.)
template <typename B, typename T>
requires std::derived_from<B, CudaBackend>
static Constant<T> MakeConstant(B& b, const Global<const T>& g) {
  static_assert(alignof(T) <= 16, "the bank hands out 16-byte aligned offsets");
  Constant<T> c(g);
  const std::size_t bytes = g.size() * sizeof(T);
  const long long at = b.ReserveConstant(bytes);
  if (at < 0 || g.data() == nullptr) return c;
  b.KeepStatus(WS_CUDA(cudaMemcpyToSymbol(ws_constant_bank, g.data(), bytes,
                                          static_cast<std::size_t>(at), cudaMemcpyDeviceToDevice)));
  c.set_bank(at);
  return c;
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
      ::ws::KernelNameOf<&kernel>(), grid, block, shared_bytes, dynamic_bytes,              \
      [&](const ::ws::dev::RecorderState& ws_st_) {                                         \
        cudaError_t ws_e_ = WS_SET_RECORDER_STATE(ws_st_);                                  \
        if (ws_e_ != cudaSuccess) return ws_e_;                                             \
        kernel<<<dim3((grid).x, (grid).y, (grid).z), dim3((block).x, (block).y, (block).z), \
                 (dynamic_bytes)>>>(__VA_ARGS__);                                           \
        return cudaGetLastError();                                                          \
      },                                                                                    \
      [&](cudaFuncAttributes* ws_a_) { return cudaFuncGetAttributes(ws_a_, kernel); })
#define WS_LAUNCH(backend, kernel, grid, block, shared_bytes, ...) \
  WS_LAUNCH_DYNAMIC(backend, kernel, grid, block, shared_bytes, 0, __VA_ARGS__)
