// The GPU as a backend for lesson drivers (include from .cu files only). It works in one of two
// modes. kRecord (the instrumented build) runs each launch once, its warps writing their events
// into chunks of a pool (see ws_cuda_record_format.h; only when the record budget runs out are
// there a counting and a planned pass after it); the records then go through the same site
// table and analyses as the emulator's. kTimeOnly (the uninstrumented build, WS_PLAIN_BUILD) runs a
// warm-up and then times RunOptions::timed_runs runs with CUDA events; the median is the lesson's
// measured time.
//
// Index of this file:
// [SECTION] Errors and what a capture cost
// [SECTION] CudaBackend
// [SECTION] Launching: the checks (the timed runs and the recording pass: cuda_backend_record.h)
// (constant memory: cuda_backend_constant.h)
// (WS_LAUNCH, the lessons' launch: cuda_backend_launch.h)
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <concepts>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "warpscope/kernels/cuda_pass_units.h"
#include "warpscope/kernels/cuda_resources.h"
#include "warpscope/kernels/gpu_records.h"
#include "warpscope/kernels/lesson_api.h"
#include "warpscope/kernels/site_table.h"
#include "warpscope/kernels/ws_cuda.h"
#include "warpscope/kernels/ws_cuda_launch.h"
#include "warpscope/trace/device_preset.h"

namespace ws {

//-------------------------------------------------------------------------------------------------
// [SECTION] Errors and what a capture cost
//-------------------------------------------------------------------------------------------------

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
  double hazard_ms = 0;                 // the hazard check's passes before them (ws_cuda_hazards.h)
  std::uint64_t records = 0;            // access and barrier records decoded
  std::uint64_t record_bytes = 0;       // bytes the recording pass wrote
  std::uint64_t lane_rows = 0;          // the lane log's rows (RecordLaneLog); 0: the event roads
  bool lane_wide = false;               // the lane log's build was the wide unit's (LaneBuildFor)
  std::uint64_t lane_pattern_rows = 0;  // of its rows, those its loops' patterns made on the host
  bool hazard_lean = false;  // the hazard check's lean build ran its pass (RunHazardLean)
  // record_ms is the pass's second run, warm, as the uninstrumented build's timed runs are after
  // their warm-up (the lane log's, and since the thirty-fifth session the event roads' where the
  // first run was short: RecordLaunch), not its first.
  bool record_warm = false;
  // Whole warps' requests and barrier passes the direct road counted (ws_cuda_record_format.h,
  // "The direct road"), of those the device counted; 0 where it was not taken.
  std::uint64_t direct_requests = 0;
  TallyShapeCount tally;  // the tally's shapes (ShapesTalliedBySteps)
};

//-------------------------------------------------------------------------------------------------
// [SECTION] CudaBackend
//-------------------------------------------------------------------------------------------------

class CudaBackend {
 public:
  enum Mode { kRecord, kTimeOnly };

  explicit CudaBackend(const RunOptions& options, Mode mode = kRecord)
      : options_(options), mode_(mode) {
    // Benchmarks compare with the device's counting off: WS_GPU_TALLY=0, WS_GPU_HAZARD_SCAN=0.
    auto off = [](const char* name) {
      const char* v = std::getenv(name);
      return v != nullptr && std::string(v) == "0";
    };
    if (off("WS_GPU_TALLY")) options_.gpu_tally = false;
    if (off("WS_GPU_HAZARD_SCAN")) options_.gpu_hazard_scan = false;
    // ... and the hazard check as it was before its shared shadow moved into the block's shared
    // memory and read-only buffers went without one: WS_GPU_HAZARD_FAST=0.
    if (off("WS_GPU_HAZARD_FAST")) hazard_fast_ = false;
    if (off("WS_GPU_LANE_LOG")) options_.gpu_lane_log = false;  // the event roads for all
    if (off("WS_GPU_WARM_PASS")) warm_pass_ = false;            // every recording pass timed cold
    if (off("WS_GPU_DIRECT")) direct_road_ = false;  // the tally's lookup for every request
  }
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
    shared_optin_ = static_cast<std::uint32_t>(p.sharedMemPerBlockOptin);
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
    return LaunchKeeping(kernel, grid, block, shared_bytes, dynamic_shared_bytes, launch, {},
                         shared_bytes + dynamic_shared_bytes);
  }
  // The same, where `attributes(&a)` is cudaFuncGetAttributes of the kernel: the uninstrumented
  // build keeps the compiler's registers and local memory with the launch (the recording
  // build's own are the recorder's, not the kernel's, and are not kept).
  template <typename F, typename A>
  Status Launch(const std::string& kernel, Dim3 grid, Dim3 block, std::uint32_t shared_bytes,
                std::uint32_t dynamic_shared_bytes, F&& launch, A&& attributes) {
    KernelResources resources;
    // The block's shared window, as the compiler sized its static arrays (the hazard check's).
    std::uint32_t window = shared_bytes;
    if (status_.ok()) {
      cudaFuncAttributes a{};
      if (attributes(&a) == cudaSuccess) {
        if (mode_ == kTimeOnly) resources = ResourcesOf(a, device_, kernel, resource_table_);
        window = std::max(window, static_cast<std::uint32_t>(a.sharedSizeBytes));
      }
      (void)cudaGetLastError();
    }
    return LaunchKeeping(kernel, grid, block, shared_bytes, dynamic_shared_bytes, launch,
                         std::move(resources), window + dynamic_shared_bytes);
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
  // The next launches keep no block's records (a program's launch past its kernel's first few):
  // their figures only, every whole-warp request counted on the device.
  void KeepNoBlocks(bool none) { keep_none_ = none; }
  // The next launches are cooperative: their grid syncs order their blocks, which the hazard
  // check on the device does not follow, so it is not run (the kept blocks are checked).
  void SyncsAsAGrid(bool cooperative) { grid_synced_ = cooperative; }
  // A program's launches: the event roads' pass is never run again to be timed warm
  // (RecordLaunch). A program reports no recording time, and its quiet passes synchronise inside
  // the timed launch (cuda_program.cu), so that a second run would cost time and time nothing.
  void RecordsEachPassOnce() { warm_record_ = false; }
  // The next launch's launcher adds the shared shadow's bytes (RecorderState::hazard_shared_bytes)
  // to its dynamic shared memory, and `read_only`, its buffers that no store can reach (a
  // lesson's: ReadOnlyBuffers), need no hazard shadow.
  // `lane`: the lane units' builds of the launch's kernel, where the launch is a lesson's
  // (WS_LAUNCH, WS_LANE_KERNEL), which a small launch may record by the lane log
  // (ws_cuda_lane_log.h; a program's accesses carry dynamic instances the log has no room for).
  void NextLaunchCarriesShadow(std::vector<std::uint32_t> read_only, LaneKernels lane = {}) {
    next_read_only_ = std::move(read_only);
    next_shadow_launcher_ = true;
    next_lane_kernels_ = lane;
  }
  // The lane units' build that records the launch in hand by the lane log (RecordLaneLog chose
  // it; null outside a lane-log pass): WS_LAUNCH_OTHER_UNIT launches it.
  const LaneBuild& lane_build() const { return lane_build_; }
  // The launch's hazard pass ran the hazard check's lean build (WS_LAUNCH, RunHazardLean).
  void NoteHazardLean() { hazard_lean_ = true; }

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
                       std::uint32_t dynamic_shared_bytes, F& launch, KernelResources resources,
                       std::uint32_t window_bytes);
  template <typename F>
  Status TimeLaunch(const std::string& kernel, Dim3 grid, Dim3 block, std::uint32_t shared_bytes,
                    F& launch);
  template <typename F>
  Status RecordLaunch(const std::string& kernel, Dim3 grid, Dim3 block, std::uint32_t shared_bytes,
                      std::uint32_t window_bytes, F& launch);
  // cuda_backend_record.h
  dev::RecorderState StartRecording(Dim3 block, std::uint32_t wpb, std::size_t warps,
                                    unsigned long long* state_d, unsigned int* pool,
                                    unsigned long long* pool_next, unsigned long long* sm_state_d,
                                    unsigned int* overflow, const char** files_d);
  void ReadPool(unsigned int* pool, unsigned long long first_words, unsigned long long handed_out,
                const dev::RecorderState& st, const unsigned long long* sm_state_d,
                std::size_t warps, std::vector<std::uint32_t>* words,
                std::vector<PoolChunk>* chunks);
  unsigned int* PlanPool(Dim3 grid, std::uint32_t wpb, std::vector<unsigned long long>& state,
                         unsigned long long* state_d, dev::RecorderState* st,
                         std::vector<PoolChunk>* chunks, std::uint64_t* planned_words);
  void DecodeCapture(const GpuCapture& c, bool every_block = false);
  // cuda_backend_lane_log.h: a small lesson launch's recording pass by the lane log; false where
  // it does not fit (the event roads record it then).
  template <typename Pass>
  bool RecordLaneLog(const std::string& kernel, Dim3 grid, Dim3 block, dev::RecorderState st,
                     Pass& pass, GpuCapture* c);
  // cuda_backend_hazards.h: the hazard check's passes before the recording one.
  template <typename Pass>
  HazardScan ScanHazards(Dim3 grid, Dim3 block, std::uint32_t window_bytes, dev::RecorderState st,
                         Pass& pass);
  // Every block kept (the host checks them all) or none: no check on the device.
  bool HazardScanWanted(Dim3 grid, Dim3 block) const;
  bool SharedPastDynamic(std::uint32_t window_bytes, std::uint64_t bytes, dev::RecorderState* st);
  unsigned char* KeepBitmap(const std::vector<std::uint32_t>& kept);
  // The tally's table on the device (ws_cuda_record_format.h) for the launch being recorded,
  // from the stream-ordered pool as the record pool (a user's cudaDeviceReset() frees a pointer
  // kept by hand), and its flag per warp. Null keys: no tally.
  struct TallyArrays {
    unsigned long long* keys = nullptr;
    unsigned int* shapes = nullptr;
    unsigned long long* counts = nullptr;
    unsigned long long* waits = nullptr;     // a barrier shape's waits, summed
    unsigned long long* wait_max = nullptr;  // and the longest
    unsigned int* full = nullptr;
    unsigned char* warps = nullptr;
    // The direct road's (ws_cuda_record_format.h): its counters and waits (its table is the
    // RecorderState's, the host's: direct_now_).
    unsigned long long* direct_counts = nullptr;
    unsigned long long* direct_waits = nullptr;
    unsigned long long* direct_wait_max = nullptr;
    std::size_t capacity = 0, warp_count = 0;
  };
  // Shapes a launch's table holds (8,192: 50 MB of device memory with the direct road's
  // counters, kTallyBytes; matmul has a few hundred).
  static constexpr std::size_t kTallyCapacity = std::size_t{1} << 13;
  // An event roads' pass whose first run took less than this runs again to be timed warm, while
  // the first runs so repeated add up to at most the budget (RecordLaunch).
  static constexpr double kWarmRecordMs = 20, kWarmRecordBudgetMs = 200;
  static_assert(kTallyCapacity <= std::size_t{1} << 24, "dev::SlotOf mixes 24 bits of a slot");
  static_assert(kTallyCapacity <= dev::kTallyMaxCapacity, "Tally sends a slot with a bit spare");
  static_assert(kTallyCapacity == dev::kDirectColumn,
                "the direct road's counters share the tally's columns (the warp's tally state)");
  static constexpr std::size_t kTallyBytes =
      kTallyCapacity * (8 + dev::kTallyShapeWords * 4 + 6 * dev::kTallySpread * 8) + 4;
  // The lane log: rows a lane on the first try (so, launches of 65,536 threads at most) and the
  // most slots (lanes x rows) a launch may have (2^24: 256 MB of records and 64 MB of times).
  static constexpr std::uint64_t kLaneLogRows = 256, kLaneLogSlots = std::uint64_t{1} << 24;
  // The most rows a lane of the lane log may have once its loops' patterns are made (the event
  // roads record a launch past it): a warp's are made one warp at a time, 20 bytes a lane's row.
  static constexpr std::uint64_t kLanePatternRows = std::uint64_t{1} << 16;
  bool TallyWanted(Dim3 grid, Dim3 block) const;
  TallyArrays StartTally(Dim3 grid, Dim3 block, std::size_t warps, dev::RecorderState* st);
  void ClearTally(const TallyArrays& t, bool keys);
  void FreeTally() {
    for (void* p :
         {static_cast<void*>(tally_.keys), static_cast<void*>(tally_.shapes),
          static_cast<void*>(tally_.counts), static_cast<void*>(tally_.waits),
          static_cast<void*>(tally_.wait_max), static_cast<void*>(tally_.full),
          static_cast<void*>(tally_.warps), static_cast<void*>(tally_.direct_counts),
          static_cast<void*>(tally_.direct_waits), static_cast<void*>(tally_.direct_wait_max)})
      if (p != nullptr) cudaFreeAsync(p, 0);
    tally_ = {};
  }
  // Returns the requests the direct road counted (AddDirectShapes).
  std::uint64_t ReadTally(const TallyArrays& t, std::size_t warps, GpuCapture* c);
  // The direct road's table for a pass of `kernel` (direct_tables_'s, none before its first run),
  // into `st` and direct_now_; with no table (or WS_GPU_DIRECT=0) the road is off (null counters).
  void UseDirectTable(const std::string& kernel, const TallyArrays& t, dev::RecorderState* st);
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
    tally_ = {};      // and the tally's table
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
  std::uint32_t shared_optin_ = 0;  // a block's shared memory once its kernel asks (227 KB, H200)
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
  bool keep_none_ = false;    // KeepNoBlocks
  bool grid_synced_ = false;  // SyncsAsAGrid
  // The launch's kept blocks: the options' and the blocks the hazard check flagged (HazardScan).
  std::vector<std::uint32_t> keep_blocks_;
  double hazard_ms_ = 0;      // the launch's hazard check passes (ScanHazards)
  bool hazard_lean_ = false;  // ... and the hazard check's lean build ran one (NoteHazardLean)
  // NextLaunchCarriesShadow: the next launch's buffers that no store can reach (a lesson's:
  // those only its Global<const T> parameters name), and whether its launcher adds the hazard
  // shadow's bytes to its dynamic shared memory (WS_LAUNCH's does, and a program's direct
  // launches). Taken by the next launch.
  std::vector<std::uint32_t> next_read_only_;
  bool next_shadow_launcher_ = false;
  LaneKernels next_lane_kernels_;
  LaneBuild lane_build_;  // lane_build()
  // Launch shapes (kernel, grid, block) whose lane log did not fit, or named a file its kernel did
  // not note (RecordLaneLog): their later launches go the event roads.
  std::set<std::string> lane_log_too_large_;
  std::uint32_t dynamic_bytes_ = 0;  // the launch's dynamic shared bytes (LaunchKeeping)
  bool hazard_fast_ = true;          // WS_GPU_HAZARD_FAST=0: false
  bool warm_pass_ = true;            // WS_GPU_WARM_PASS=0: false (RecordLaneLog, RecordLaunch)
  bool direct_road_ = true;          // the lean unit's requests and barriers take the direct road
  // The direct road's tables (DirectTableFor) by kernel, from its last recorded run, and the one
  // the pass in flight has (ReadTally adds its counters by it).
  std::map<std::string, DirectTable> direct_tables_;
  // The file tags' names (GpuCapture::device_files) of the run each table was made from.
  std::map<std::string, std::map<std::uint16_t, std::string>> direct_files_;
  DirectTable direct_now_;
  // The event roads' first passes run again to be timed warm (RecordLaunch), in ms: at most
  // kWarmRecordBudgetMs a backend; never for a program's (RecordsEachPassOnce).
  double warm_record_ms_ = 0;
  bool warm_record_ = true;
  TallyArrays tally_;     // the launch's tally (StartTally), freed with its scratch
  void* pool_ = nullptr;  // the recording pool of the launch being recorded
  std::uint64_t pool_words_ = 0;
};

//-------------------------------------------------------------------------------------------------
// [SECTION] Launching: the checks
//-------------------------------------------------------------------------------------------------

template <typename F>
Status CudaBackend::LaunchKeeping(const std::string& kernel, Dim3 grid, Dim3 block,
                                  std::uint32_t shared_bytes, std::uint32_t dynamic_shared_bytes,
                                  F& launch, KernelResources resources,
                                  std::uint32_t window_bytes) {
  dynamic_bytes_ = dynamic_shared_bytes;
  struct Forget {  // what NextLaunchCarriesShadow said holds for this launch only
    CudaBackend* b;
    ~Forget() {
      b->next_read_only_.clear();
      b->next_shadow_launcher_ = false;
      b->next_lane_kernels_ = {};
      b->lane_build_ = {};
    }
  } forget{this};
  if (!status_.ok()) return status_;
  // Up to the opt-in limit: a kernel that did not ask for more gets CUDA's error, as written.
  DevicePreset limits = preset_;
  limits.shared_per_block = std::max(preset_.shared_per_block, shared_optin_);
  if (Status s = CheckLaunch(limits, grid, block, shared_bytes + dynamic_shared_bytes); !s.ok())
    return Status::Error(kernel + ": " + s.message());
  const Status s = mode_ == kTimeOnly
                       ? TimeLaunch(kernel, grid, block, shared_bytes, launch)
                       : RecordLaunch(kernel, grid, block, shared_bytes, window_bytes, launch);
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

namespace detail {
template <typename T>
struct GlobalParam : std::false_type {};
template <typename T>
struct GlobalParam<Global<T>> : std::true_type {
  static constexpr bool kConst = std::is_const_v<T>;
};
template <typename T>
struct ConstantParam : std::false_type {};
template <typename T>
struct ConstantParam<Constant<T>> : std::true_type {};
}  // namespace detail

// The buffers a launch of `kernel` with `args` names only through Global<const T> parameters, so
// that no store of the launch can reach them (the hazard check needs no shadow of them). None
// where a parameter could lead to a buffer otherwise (a type other than Global, Constant, a
// number or an enum; a lesson's kernel has none), or the arguments do not match the parameters.
template <typename... P, typename... A>
std::vector<std::uint32_t> ReadOnlyBuffers(void (*)(P...), const A&... args) {
  if constexpr (sizeof...(P) != sizeof...(A)) {
    return {};
  } else {
    std::vector<std::uint32_t> read, written;
    bool unknown = false;
    auto note = [&]<typename Q, typename B>(const B& a) {
      using T = std::remove_cvref_t<Q>;
      if constexpr (detail::GlobalParam<T>::value) {
        const T g = a;  // the conversion the launch makes
        (detail::GlobalParam<T>::kConst ? read : written).push_back(g.buffer());
      } else if constexpr (!detail::ConstantParam<T>::value && !std::is_arithmetic_v<T> &&
                           !std::is_enum_v<T>) {
        unknown = true;
      }
    };
    (note.template operator()<P>(args), ...);
    if (unknown) return {};
    std::vector<std::uint32_t> only;
    for (std::uint32_t b : read)
      if (std::find(written.begin(), written.end(), b) == written.end()) only.push_back(b);
    return only;
  }
}

}  // namespace ws

// Constant memory: MakeConstant, CopyToSymbol.
#include "warpscope/kernels/cuda_backend_constant.h"
// The recording pass: RecordLaunch and its helpers; the hazard check's passes before it.
#include "warpscope/kernels/cuda_backend_hazards.h"
#include "warpscope/kernels/cuda_backend_lane_log.h"
#include "warpscope/kernels/cuda_backend_record.h"
#include "warpscope/kernels/cuda_backend_tally.h"

// The lessons' launch: WS_LAUNCH and WS_LAUNCH_DYNAMIC, for every build of the lessons.
#include "warpscope/kernels/cuda_backend_launch.h"
