// The GPU as a backend for lesson drivers (include from .cu files only). A launch runs three
// times: a counting pass sizes each thread's record slots, a recording pass fills them (no
// atomics: each thread appends to its own slots, in program order), and timed passes with
// recording off measure the kernel with CUDA events. The records then go through the same site
// table and analyses as the emulator's.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

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

class CudaBackend {
 public:
  explicit CudaBackend(const RunOptions& options) : options_(options) {}
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
  double last_ms() const { return last_ms_; }

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

  std::vector<LaunchTrace>& launches() { return launches_; }
  const Status& status() const { return status_; }

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
  LaunchTrace Convert(const std::string& kernel, Dim3 grid, Dim3 block, std::uint32_t shared_bytes,
                      const std::vector<unsigned long long>& abase,
                      const std::vector<unsigned long long>& afill,
                      const std::vector<dev::RawAccess>& acc,
                      const std::vector<unsigned long long>& bbase,
                      const std::vector<unsigned long long>& bfill,
                      const std::vector<dev::RawBarrier>& bar);

  struct DeviceBuffer {
    void* ptr;
    std::size_t bytes;
  };
  // A launch runs the kernel several times; every run must start from the same memory, or a
  // kernel that accumulates (atomics, +=) would see its own earlier results.
  std::vector<void*> SnapshotBuffers() {
    std::vector<void*> copies;
    for (const DeviceBuffer& b : user_buffers_) {
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
  DevicePreset preset_;
  std::vector<DeviceBuffer> user_buffers_;
  std::vector<cudaArray_t> arrays_;
  std::vector<cudaTextureObject_t> textures_;
  std::string device_;
  std::vector<void*> allocations_;
  std::vector<BufferInfo> buffers_;
  std::vector<LaunchTrace> launches_;
  Status status_;
  double last_ms_ = 0;
};

template <typename F>
Status CudaBackend::Launch(const std::string& kernel, Dim3 grid, Dim3 block,
                           std::uint32_t shared_bytes, std::uint32_t dynamic_shared_bytes,
                           F&& launch) {
  if (!status_.ok()) return status_;
  if (Status s = CheckLaunch(preset_, grid, block, shared_bytes + dynamic_shared_bytes); !s.ok())
    return Status::Error(kernel + ": " + s.message());
  const std::size_t threads = grid.count() * block.count();
  const std::size_t scratch_mark = allocations_.size();  // freed when this launch is done
  const std::vector<void*> snapshot = SnapshotBuffers();
  auto* acursor = DeviceArray<unsigned long long>(threads);
  auto* bcursor = DeviceArray<unsigned long long>(threads);
  auto* abase_d = DeviceArray<unsigned long long>(threads + 1);
  auto* bbase_d = DeviceArray<unsigned long long>(threads + 1);
  auto* overflow = DeviceArray<unsigned int>(1);
  if (!status_.ok()) return status_;
  Keep(WS_CUDA(cudaMemset(acursor, 0, threads * 8)));
  Keep(WS_CUDA(cudaMemset(bcursor, 0, threads * 8)));
  Keep(WS_CUDA(cudaMemset(overflow, 0, 4)));
  dev::RecorderState st{};
  st.threads_per_block = static_cast<unsigned int>(block.count());
  st.access_cursor = acursor;
  st.barrier_cursor = bcursor;
  st.access_base = abase_d;
  st.barrier_base = bbase_d;
  st.overflow = overflow;

  // Pass 1: count each thread's records.
  st.mode = dev::kCount;
  Keep(WS_CUDA(launch(st)));
  Keep(WS_CUDA(cudaDeviceSynchronize()));
  if (!status_.ok()) return Status::Error(kernel + ": " + status_.message());
  std::vector<unsigned long long> acount(threads), bcount(threads);
  Keep(WS_CUDA(cudaMemcpy(acount.data(), acursor, threads * 8, cudaMemcpyDeviceToHost)));
  Keep(WS_CUDA(cudaMemcpy(bcount.data(), bcursor, threads * 8, cudaMemcpyDeviceToHost)));
  std::vector<unsigned long long> abase(threads + 1, 0), bbase(threads + 1, 0);
  for (std::size_t t = 0; t < threads; ++t) {
    abase[t + 1] = abase[t] + acount[t];
    bbase[t + 1] = bbase[t] + bcount[t];
  }
  auto* acc_d = DeviceArray<dev::RawAccess>(abase[threads]);
  auto* bar_d = DeviceArray<dev::RawBarrier>(bbase[threads]);
  if (!status_.ok()) return status_;
  Keep(WS_CUDA(cudaMemcpy(abase_d, abase.data(), (threads + 1) * 8, cudaMemcpyHostToDevice)));
  Keep(WS_CUDA(cudaMemcpy(bbase_d, bbase.data(), (threads + 1) * 8, cudaMemcpyHostToDevice)));
  Keep(WS_CUDA(cudaMemset(acursor, 0, threads * 8)));
  Keep(WS_CUDA(cudaMemset(bcursor, 0, threads * 8)));

  // Pass 2: record into each thread's own slots, from the same starting memory.
  RestoreBuffers(snapshot);
  st.mode = dev::kRecord;
  st.accesses = acc_d;
  st.barriers = bar_d;
  Keep(WS_CUDA(launch(st)));
  Keep(WS_CUDA(cudaDeviceSynchronize()));
  if (!status_.ok()) return Status::Error(kernel + ": " + status_.message());
  std::vector<dev::RawAccess> acc(abase[threads]);
  std::vector<dev::RawBarrier> bar(bbase[threads]);
  unsigned int overflowed = 0;
  if (!acc.empty())
    Keep(WS_CUDA(cudaMemcpy(acc.data(), acc_d, acc.size() * sizeof(dev::RawAccess),
                            cudaMemcpyDeviceToHost)));
  if (!bar.empty())
    Keep(WS_CUDA(cudaMemcpy(bar.data(), bar_d, bar.size() * sizeof(dev::RawBarrier),
                            cudaMemcpyDeviceToHost)));
  Keep(WS_CUDA(cudaMemcpy(&overflowed, overflow, 4, cudaMemcpyDeviceToHost)));
  // A thread that wrote fewer records than it counted (its path changed) leaves slots unfilled:
  // convert only what was written and say the trace is incomplete.
  std::vector<unsigned long long> afill(threads), bfill(threads);
  Keep(WS_CUDA(cudaMemcpy(afill.data(), acursor, threads * 8, cudaMemcpyDeviceToHost)));
  Keep(WS_CUDA(cudaMemcpy(bfill.data(), bcursor, threads * 8, cudaMemcpyDeviceToHost)));
  bool incomplete = false;
  for (std::size_t i = 0; i < threads; ++i) {
    incomplete |= afill[i] != acount[i] || bfill[i] != bcount[i];
    afill[i] = std::min(afill[i], acount[i]);
    bfill[i] = std::min(bfill[i], bcount[i]);
  }

  // Timed passes, recording off: one warm-up, then the median of five.
  st.mode = dev::kOff;
  cudaEvent_t start = nullptr, stop = nullptr;
  Keep(WS_CUDA(cudaEventCreate(&start)));
  Keep(WS_CUDA(cudaEventCreate(&stop)));
  RestoreBuffers(snapshot);
  Keep(WS_CUDA(launch(st)));
  std::vector<float> ms;
  for (int i = 0; i < 5 && status_.ok(); ++i) {
    RestoreBuffers(snapshot);  // the output left behind is that of one run
    Keep(WS_CUDA(cudaEventRecord(start)));
    Keep(WS_CUDA(launch(st)));
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
  for (std::size_t i = scratch_mark; i < allocations_.size(); ++i) cudaFree(allocations_[i]);
  allocations_.resize(scratch_mark);
  if (!status_.ok()) return Status::Error(kernel + ": " + status_.message());
  std::sort(ms.begin(), ms.end());
  last_ms_ = ms.empty() ? 0 : ms[ms.size() / 2];

  LaunchTrace t = Convert(kernel, grid, block, shared_bytes, abase, afill, acc, bbase, bfill, bar);
  t.truncated = overflowed != 0 || incomplete;
  launches_.push_back(std::move(t));
  return {};
}

inline LaunchTrace CudaBackend::Convert(
    const std::string& kernel, Dim3 grid, Dim3 block, std::uint32_t shared_bytes,
    const std::vector<unsigned long long>& abase, const std::vector<unsigned long long>& afill,
    const std::vector<dev::RawAccess>& acc, const std::vector<unsigned long long>& bbase,
    const std::vector<unsigned long long>& bfill, const std::vector<dev::RawBarrier>& bar) {
  LaunchTrace t;
  t.kernel = kernel;
  t.grid = grid;
  t.block = block;
  t.shared_bytes = shared_bytes;
  t.buffers = buffers_;
  t.time_unit = "ns";
  std::vector<std::uint64_t> keys;
  for (std::size_t g = 0; g < afill.size(); ++g) {  // written slots only
    for (unsigned long long i = abase[g]; i < abase[g] + afill[g]; ++i) keys.push_back(acc[i].key);
  }
  SiteTable table = BuildSiteTable(keys);
  t.sites = table.sites;
  std::map<std::uint32_t, std::uint16_t> barrier_ids;
  std::uint64_t t0 = ~0ull;
  std::vector<dev::RawBarrier> written;
  for (std::size_t g = 0; g < bfill.size(); ++g) {
    for (unsigned long long i = bbase[g]; i < bbase[g] + bfill[g]; ++i) written.push_back(bar[i]);
  }
  for (const auto& b : written) {
    barrier_ids.emplace(b.line, 0);
    t0 = std::min(t0, b.arrival_ns);
  }
  // Access times are %globaltimer's low 32 bits: unwrap each to the 64-bit time nearest a
  // reference (the first barrier arrival, else the first access), valid within +-2.1 s of it.
  std::uint64_t ref = t0;
  if (ref == ~0ull) {
    for (std::size_t g = 0; g < afill.size() && ref == ~0ull; ++g) {
      if (afill[g] > 0) ref = (1ull << 32) | acc[abase[g]].time;
    }
  }
  auto unwrap = [ref](std::uint32_t low) {
    std::uint64_t full = (ref & ~0xffffffffull) | low;
    if (full > ref + (1ull << 31))
      full -= 1ull << 32;
    else if (full + (1ull << 31) < ref)
      full += 1ull << 32;
    return full;
  };
  for (std::size_t g = 0; g < afill.size(); ++g) {
    for (unsigned long long i = abase[g]; i < abase[g] + afill[g]; ++i)
      t0 = std::min(t0, unwrap(acc[i].time));
  }
  for (auto& [line, id] : barrier_ids) {
    id = static_cast<std::uint16_t>(t.barrier_sites.size());
    t.barrier_sites.push_back({line, ""});
  }
  t.stats.Resize(t.sites.size(), t.barrier_sites.size());
  // The analyses need the site table indexed as the records are (canonical ids already).
  const std::uint32_t tpb = static_cast<std::uint32_t>(block.count());
  std::vector<std::uint32_t> keep = options_.keep_blocks;
  if (grid.count() * tpb <= LaunchTrace::kMaxActivityThreads)
    t.thread_active.assign(grid.count() * tpb, 0);
  for (std::uint64_t b = 0; b < grid.count(); ++b) {
    BlockRecords rec;
    rec.block = static_cast<std::uint32_t>(b);
    for (std::uint32_t th = 0; th < tpb; ++th) {
      const std::size_t g = b * tpb + th;
      std::vector<std::pair<std::uint64_t, std::uint32_t>> counts;
      for (unsigned long long i = abase[g]; i < abase[g] + afill[g]; ++i) {
        const dev::RawAccess& r = acc[i];
        auto it =
            std::find_if(counts.begin(), counts.end(), [&](auto& c) { return c.first == r.key; });
        if (it == counts.end()) it = counts.insert(counts.end(), {r.key, 0});
        rec.accesses.push_back({r.offset, it->second++,
                                static_cast<std::uint32_t>(unwrap(r.time) - t0),
                                static_cast<std::uint16_t>(th), table.id_of_key[r.key]});
      }
      std::map<std::uint32_t, std::uint32_t> bcounts;
      for (unsigned long long i = bbase[g]; i < bbase[g] + bfill[g]; ++i) {
        const dev::RawBarrier& r = bar[i];
        rec.barriers.push_back({r.arrival_ns - t0, r.departure_ns - t0, bcounts[r.line]++,
                                static_cast<std::uint16_t>(th), barrier_ids[r.line], r.sm});
      }
    }
    if (!t.thread_active.empty()) {
      for (const AccessRecord& a : rec.accesses) t.thread_active[b * tpb + a.thread] = 1;
      for (const BarrierRecord& r : rec.barriers) t.thread_active[b * tpb + r.thread] = 1;
    }
    const bool kept =
        options_.keep_all_blocks || std::find(keep.begin(), keep.end(), rec.block) != keep.end();
    if (kept) t.blocks.push_back(rec);
    AnalyzeBlock(rec.accesses, rec.barriers, t.sites, t.buffers, tpb, &t.stats);
  }
  return t;
}

}  // namespace ws

#define WS_LAUNCH_DYNAMIC(backend, kernel, grid, block, shared_bytes, dynamic_bytes, ...)   \
  (backend).Launch(                                                                         \
      #kernel, grid, block, shared_bytes, dynamic_bytes,                                    \
      [&](const ::ws::dev::RecorderState& ws_st_) {                                         \
        cudaError_t ws_e_ = cudaMemcpyToSymbol(ws_recorder_state, &ws_st_, sizeof ws_st_);  \
        if (ws_e_ != cudaSuccess) return ws_e_;                                             \
        kernel<<<dim3((grid).x, (grid).y, (grid).z), dim3((block).x, (block).y, (block).z), \
                 (dynamic_bytes)>>>(__VA_ARGS__);                                           \
        return cudaGetLastError();                                                          \
      })
#define WS_LAUNCH(backend, kernel, grid, block, shared_bytes, ...) \
  WS_LAUNCH_DYNAMIC(backend, kernel, grid, block, shared_bytes, 0, __VA_ARGS__)
