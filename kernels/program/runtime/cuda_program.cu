// libws_program_cuda: what a rewritten program links against on a GPU (ws_program_cuda.h declares
// it; docs/PROGRAMS.md describes it). The program keeps the real CUDA runtime; this library sees
// its allocations (named after the variables they fill), its __device__ and __constant__
// variables, and runs each launch through CudaBackend's two passes: a counting pass (its device
// printf output discarded, so that the program prints once) and a recording pass from the same
// memory. The launches are written at exit to the trace file named by WS_PROGRAM_OUT, as the
// emulator's runtime (emu_program.cpp) writes them.
//
// Index of this file:
// [SECTION] The program's state
// [SECTION] Device printf, quietly; scratch memory
// [SECTION] What the program registers and allocates
// [SECTION] RunKernel
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "../shim/ws_program_cuda_api.h"  // not -I shim: it holds the emulator's cuda_runtime.h
#include "program_trace.h"
#include "warpscope/kernels/cuda_backend.h"
#include "warpscope/trace/hazards.h"

//-------------------------------------------------------------------------------------------------
// [SECTION] The program's state
//-------------------------------------------------------------------------------------------------

namespace ws::prog {
namespace {

struct Region {
  std::string name;
  std::size_t bytes = 0;
  std::uint32_t space = kKeyGlobal;
  const void* shadow = nullptr;  // a symbol's host shadow
  void* device = nullptr;        // null until a symbol is looked up
  bool freed = false;
};

struct Program {
  std::vector<Region> regions;  // by id
  std::vector<BufferInfo> buffers;
  std::uint64_t next_base = 1u << 20;
  SiteNames sites;  // the rewriter's site table
  std::string next_name;
  ChildRecord run;
  std::unique_ptr<CudaBackend> backend;
  RunOptions options;
  BadAccess* bad = nullptr;  // host-mapped
  // A launch's failed assert(): what the program's later calls return (the recorder may have
  // reset the device to recover, so the runtime's own sticky error would be lost).
  cudaError_t sticky = cudaSuccess;
  BadAccess* bad_device = nullptr;
  bool written = false;
  // The device heap (UseDeviceHeap): its buffer, registered at the first launch, and its word.
  bool heap_wanted = false;
  unsigned char* heap = nullptr;
  std::size_t heap_bytes = 0;
  void* heap_state = nullptr;  // ws_program_heap_blocks.h's State

  Program() {
    run.backend = "cuda";
    if (const char* k = std::getenv("WS_KEEP_BLOCKS")) {
      options.keep_blocks.clear();
      std::stringstream s(k);
      for (std::string item; std::getline(s, item, ',');) {
        if (!item.empty())
          options.keep_blocks.push_back(static_cast<std::uint32_t>(std::stoul(item)));
      }
    }
    if (const char* k = std::getenv("WS_KEEP_ALL_UP_TO"))
      options.keep_all_threads_up_to = std::strtoull(k, nullptr, 10);
    if (const char* k = std::getenv("WS_RECORD_BUDGET"); k != nullptr && *k != 0)
      options.record_budget_bytes = std::strtoull(k, nullptr, 10);
    std::atexit([] { Write(); });
  }
  static void Write();
};

Program& P() {
  static Program* p = new Program();  // never destroyed: atexit writes it
  return *p;
}

void Program::Write() {
  Program& p = P();
  if (p.written) return;
  p.written = true;
  p.run.file = p.sites.main_file;
  WriteChildRecord(p.run);
}

std::size_t AddRegion(std::string name, std::size_t bytes, std::uint32_t space) {
  Program& p = P();
  Region r;
  r.name = std::move(name);
  r.bytes = bytes;
  r.space = space;
  p.buffers.push_back({r.name, bytes, p.next_base});
  p.next_base = (p.next_base + bytes + kCudaMallocAlignment - 1) / kCudaMallocAlignment *
                kCudaMallocAlignment;
  p.regions.push_back(std::move(r));
  return p.regions.size() - 1;
}

// Ends the run: the message on stderr and in the trace, then exit status 3 (as the emulator).
[[noreturn]] void FailRun(unsigned int line, const std::string& message) {
  Program& p = P();
  p.run.error = "line " + std::to_string(line) + ": launch of " + message;
  std::cerr << "warpscope: " << message << "\n";
  std::fflush(stdout);
  Program::Write();
  std::_Exit(3);
}

// The emulator's words for an access outside every buffer (emu_program.cpp: BadAddress).
std::string BadAccessText(const BadAccess& b) {
  Program& p = P();
  std::ostringstream m;
  m << "line " << (b.place & 0xffffu) << ": ";
  if (b.op == kOpNotCooperative)
    return m.str() +
           "this_grid().sync() in a launch that is not cooperative: launch the kernel with "
           "cudaLaunchCooperativeKernel (block (" +
           std::to_string(b.block[0]) + "," + std::to_string(b.block[1]) + "," +
           std::to_string(b.block[2]) + "))";
  const unsigned int site = b.place >> 16;
  if (site >= 1 && site <= p.sites.column.size())
    m << "column " << p.sites.column[site - 1] << ": ";
  m << (b.op == kOpLoad    ? "a load of"
        : b.op == kOpStore ? "a store of"
                           : "an atomic on")
    << " " << b.bytes << " bytes at 0x" << std::hex << b.address << std::dec << " is ";
  const Region* near = nullptr;
  const Region* freed = nullptr;
  for (const Region& r : p.regions) {
    const auto begin = reinterpret_cast<unsigned long long>(r.device);
    if (r.device == nullptr || begin > b.address) continue;
    if (r.freed && b.address + b.bytes <= begin + r.bytes) freed = &r;
    if (!r.freed && (near == nullptr || begin > reinterpret_cast<unsigned long long>(near->device)))
      near = &r;
  }
  if (freed != nullptr) {
    m << "inside " << freed->name << ", which cudaFree released";
  } else if (near != nullptr) {
    const auto begin = reinterpret_cast<unsigned long long>(near->device);
    m << "out of range: index " << (b.address - begin) / b.bytes << " of " << near->name
      << ", which holds " << near->bytes / b.bytes << " elements of " << b.bytes << " bytes ("
      << b.address - (begin + near->bytes) << " bytes past its end)";
  } else {
    m << "in no buffer from cudaMalloc, no __shared__ array and no __device__ or __constant__ "
         "variable (a host pointer passed to a kernel?)";
  }
  m << " (thread (" << b.thread[0] << "," << b.thread[1] << "," << b.thread[2] << ") of block ("
    << b.block[0] << "," << b.block[1] << "," << b.block[2] << "))";
  return m.str();
}

//-------------------------------------------------------------------------------------------------
// [SECTION] Device printf, quietly; scratch memory
//-------------------------------------------------------------------------------------------------

// Runs `f` with file descriptor 1 on /dev/null (device printf of the counting pass).
template <typename F>
cudaError_t Quietly(F&& f) {
  std::fflush(stdout);
  const int saved = dup(1);
  const int null = open("/dev/null", O_WRONLY);
  if (saved >= 0 && null >= 0) dup2(null, 1);
  const cudaError_t e = f();
  std::fflush(stdout);
  if (saved >= 0) {
    dup2(saved, 1);
    close(saved);
  }
  if (null >= 0) close(null);
  return e;
}

struct Scratch {
  std::vector<void*> blocks;
  ~Scratch() {
    for (void* b : blocks) cudaFree(b);
  }
  template <typename T>
  T* Upload(const std::vector<T>& v) {
    void* d = nullptr;
    if (cudaMalloc(&d, std::max<std::size_t>(v.size() * sizeof(T), 4)) != cudaSuccess)
      return nullptr;
    blocks.push_back(d);
    if (!v.empty()) cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice);
    return static_cast<T*>(d);
  }
  template <typename T>
  T* Zeroed(std::size_t n) {
    void* d = nullptr;
    if (cudaMalloc(&d, std::max<std::size_t>(n * sizeof(T), 4)) != cudaSuccess) {
      (void)cudaGetLastError();
      return nullptr;
    }
    blocks.push_back(d);
    cudaMemset(d, 0, n * sizeof(T));
    return static_cast<T*>(d);
  }
};

// The most threads a launch keeps a dynamic-instance slot for (16 bytes each: 512 MiB); a larger
// launch's events carry none, and its requests are the recorder's lane groups.
constexpr unsigned long long kMaxInstanceSlots = 1ull << 25;

}  // namespace

//-------------------------------------------------------------------------------------------------
// [SECTION] What the program registers and allocates
//-------------------------------------------------------------------------------------------------

SiteTable::SiteTable(const SiteDesc* sites, unsigned int count, const char* const* files,
                     unsigned int file_count) {
  P().sites.Add(sites, count, files, file_count);
}

Symbol::Symbol(const void* shadow, std::size_t bytes, const char* name, unsigned int space) {
  const std::size_t id = AddRegion(name, bytes, space == 2 ? kKeyConstant : kKeyGlobal);
  P().regions[id].shadow = shadow;
}

KernelTable::KernelTable(std::initializer_list<Entry> entries) {
  for (const Entry& e : entries)
    RegisterKernel(e.address, e.name, e.static_shared, nullptr, nullptr,
                   reinterpret_cast<const void*>(e.bind), e.cluster);
}

const char* KernelNameOf(const void* kernel, const char* written) {
  return KernelNameAt(kernel, written);
}

unsigned int KernelStaticShared(const void* kernel) {
  return KernelStaticSharedAt(kernel);
}

int UseDeviceHeap() {
  P().heap_wanted = true;
  return 0;
}

cudaError_t DeviceSetLimit(cudaLimit limit, std::size_t value) {
  if (limit == cudaLimitMallocHeapSize && P().heap != nullptr) {
    std::cerr << "warpscope: cudaDeviceSetLimit(cudaLimitMallocHeapSize): the device heap is in "
                 "use since the first launch; set its size before any launch, as CUDA requires\n";
    return cudaErrorInvalidValue;
  }
  return (cudaDeviceSetLimit)(limit, value);
}

int NameNext(const char* name, unsigned int) {
  P().next_name = name;
  return 0;
}

namespace {
cudaError_t Allocated(cudaError_t e, void** ptr, std::size_t bytes) {
  Program& p = P();
  std::string name = p.next_name;
  p.next_name.clear();
  if (e != cudaSuccess || ptr == nullptr || *ptr == nullptr) return e;
  const std::size_t id = AddRegion("", bytes, kKeyGlobal);
  p.regions[id].name = p.buffers[id].name = name.empty() ? "buffer " + std::to_string(id) : name;
  p.regions[id].device = *ptr;
  return e;
}
}  // namespace

cudaError_t Malloc(void** ptr, std::size_t bytes) {
  return Allocated((cudaMalloc)(ptr, bytes), ptr, bytes);
}

cudaError_t MallocManaged(void** ptr, std::size_t bytes, unsigned int flags) {
  return Allocated((cudaMallocManaged)(ptr, bytes, flags), ptr, bytes);
}

// Pitched rows, and page-locked host memory a kernel reads in place (zero copy: with unified
// addressing its device address is its host address): buffers as cudaMalloc's are.
cudaError_t MallocPitch(void** ptr, std::size_t* pitch, std::size_t width, std::size_t height) {
  const cudaError_t e = (cudaMallocPitch)(ptr, pitch, width, height);
  return Allocated(e, ptr, e == cudaSuccess && pitch != nullptr ? *pitch * height : 0);
}
cudaError_t HostAlloc(void** ptr, std::size_t bytes, unsigned int flags) {
  return Allocated((cudaHostAlloc)(ptr, bytes, flags), ptr, bytes);
}
cudaError_t MallocHost(void** ptr, std::size_t bytes) {
  return Allocated((cudaMallocHost)(ptr, bytes), ptr, bytes);
}

// The program's stream calls a capture takes (ws_program_cuda_host.h's macros; the graph is
// cuda_graphs.cpp's): an event's record, a stream's wait, a copy or a fill becomes part of the
// capturing stream's graph, else the real call.
cudaError_t EventRecord(cudaEvent_t event, cudaStream_t stream) {
  return detail::CaptureEventRecord(event, stream) ? cudaSuccess : ::cudaEventRecord(event, stream);
}
cudaError_t StreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
  return detail::CaptureWaitEvent(stream, event) ? cudaSuccess
                                                 : ::cudaStreamWaitEvent(stream, event, flags);
}
cudaError_t MemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                        cudaStream_t stream) {
  auto run = [=] { return ::cudaMemcpy(dst, src, bytes, kind); };
  return detail::CaptureCopy(stream, "memcpy", run)
             ? cudaSuccess
             : ::cudaMemcpyAsync(dst, src, bytes, kind, stream);
}
cudaError_t MemsetAsync(void* dst, int value, std::size_t bytes, cudaStream_t stream) {
  auto run = [=] { return ::cudaMemset(dst, value, bytes); };
  return detail::CaptureCopy(stream, "memset", run) ? cudaSuccess
                                                    : ::cudaMemsetAsync(dst, value, bytes, stream);
}
cudaError_t Memcpy2DAsync(void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
                          std::size_t width, std::size_t height, cudaMemcpyKind kind,
                          cudaStream_t stream) {
  auto run = [=] { return ::cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind); };
  return detail::CaptureCopy(stream, "memcpy", run)
             ? cudaSuccess
             : ::cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, stream);
}
cudaError_t Memcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t stream) {
  if (p == nullptr) return cudaErrorInvalidValue;
  const cudaMemcpy3DParms copy = *p;
  auto run = [copy] { return ::cudaMemcpy3D(&copy); };
  return detail::CaptureCopy(stream, "memcpy", run) ? cudaSuccess : ::cudaMemcpy3DAsync(p, stream);
}

cudaError_t Sticky(cudaError_t e) {
  return P().sticky != cudaSuccess ? P().sticky : e;
}

// A freed buffer leaves the table (the recorder snapshots every live one before each launch: a
// freed cudaMallocHost buffer there made the copy fail with cudaErrorInvalidValue, shfl_scan).
static void Forget(void* ptr) {
  for (Region& r : P().regions) {
    if (r.device == ptr && r.shadow == nullptr && !r.freed) r.freed = true;
  }
}
cudaError_t Free(void* ptr) {
  Forget(ptr);
  return (cudaFree)(ptr);
}
cudaError_t FreeHost(void* ptr) {
  Forget(ptr);
  return (cudaFreeHost)(ptr);
}
// In a capture CUDA makes an allocation or a free a node of the graph; Warpscope's graph would
// have it happen at once (before the graph's kernels), so it is refused, as on the emulator.
static cudaError_t RefusedInCapture(const char* what) {
  std::cerr << "warpscope: " << what
            << " in a stream capture (a graph's allocation node) is not supported (yet)\n";
  return cudaErrorStreamCaptureUnsupported;
}
cudaError_t MallocAsync(void** ptr, std::size_t bytes, cudaStream_t stream) {
  if (Capturing(stream)) return RefusedInCapture("cudaMallocAsync");
  return Allocated((cudaMallocAsync)(ptr, bytes, stream), ptr, bytes);
}
cudaError_t MallocFromPoolAsync(void** ptr, std::size_t bytes, cudaMemPool_t pool,
                                cudaStream_t stream) {
  if (Capturing(stream)) return RefusedInCapture("cudaMallocFromPoolAsync");
  return Allocated((cudaMallocFromPoolAsync)(ptr, bytes, pool, stream), ptr, bytes);
}
cudaError_t FreeAsync(void* ptr, cudaStream_t stream) {
  if (Capturing(stream)) return RefusedInCapture("cudaFreeAsync");
  Forget(ptr);
  return (cudaFreeAsync)(ptr, stream);
}

//-------------------------------------------------------------------------------------------------
// [SECTION] RunKernel
//-------------------------------------------------------------------------------------------------

namespace {

// The recorder on the first launch: the backend, and the mapped host memory the kernels report a
// bad access in.
void StartRecorder(const char* name, unsigned int line) {
  Program& p = P();
  p.backend = std::make_unique<CudaBackend>(p.options, CudaBackend::kRecord);
  p.backend->RecordsEachPassOnce();
  if (Status s = p.backend->Init(); !s.ok()) FailRun(line, std::string(name) + ": " + s.message());
  // Host memory the kernels write through a mapping: ordinary memory, registered, so that it
  // stays readable after a fault resets the device (CudaBackend::Recover).
  alignas(4096) static BadAccess bad_access{};
  p.bad = &bad_access;
  if (cudaHostRegister(p.bad, sizeof(BadAccess), cudaHostRegisterMapped) != cudaSuccess ||
      cudaHostGetDevicePointer(reinterpret_cast<void**>(&p.bad_device), p.bad, 0) != cudaSuccess)
    FailRun(line, std::string(name) + ": no mapped host memory for the recorder");
  p.run.preset = p.backend->device();
}

// The program's memory as the kernels see it: every live buffer and symbol, by address, uploaded
// into `state`'s region table (into `scratch`); `live` lists the device ranges a launch restores
// between its passes.
void UploadRegions(Program& p, Scratch& scratch, ProgramDeviceState* state,
                   std::vector<CudaBackend::DeviceRange>* live) {
  struct Entry {
    unsigned long long begin, end;
    unsigned int key;
  };
  std::vector<Entry> table;
  for (std::size_t id = 0; id < p.regions.size(); ++id) {
    Region& r = p.regions[id];
    if (r.shadow != nullptr && r.device == nullptr) {
      if (cudaGetSymbolAddress(&r.device, r.shadow) != cudaSuccess) {
        (void)cudaGetLastError();
        r.device = nullptr;
      }
    }
    if (r.device == nullptr || r.freed) continue;
    live->push_back({r.device, r.bytes});
    const auto begin = reinterpret_cast<unsigned long long>(r.device);
    table.push_back({begin, begin + r.bytes, static_cast<unsigned int>(id) | (r.space << 16)});
  }
  std::sort(table.begin(), table.end(),
            [](const Entry& a, const Entry& b) { return a.begin < b.begin; });
  std::vector<unsigned long long> begins, ends, bases;
  std::vector<unsigned int> keys;
  for (const Entry& e : table) {
    begins.push_back(e.begin);
    ends.push_back(e.end);
    keys.push_back(e.key);
    bases.push_back(p.buffers[e.key & 0xffffu].base);
  }
  state->region_begin = scratch.Upload(begins);
  state->region_end = scratch.Upload(ends);
  state->region_key = scratch.Upload(keys);
  state->region_base = scratch.Upload(bases);
  state->regions = static_cast<unsigned int>(table.size());
}

}  // namespace

namespace {
// ws_program_heap_blocks.h's State: a lock word, the top, the blocks alive, 65 lists' heads.
constexpr std::size_t kHeapStateBytes = 8 + 8 + 8 + 65 * 8;
// The device heap's buffer, of the device's cudaLimitMallocHeapSize bytes (8 MB unless the program
// set another before), and its word, at the first launch of a program that allocates in device
// code (ws_program_cuda_groups.h).
void StartDeviceHeap(const char* name, unsigned int line) {
  Program& p = P();
  std::size_t bytes = 0;
  if (cudaDeviceGetLimit(&bytes, cudaLimitMallocHeapSize) != cudaSuccess || bytes == 0)
    bytes = std::size_t{8} << 20;
  void* heap = nullptr;
  void* state = nullptr;
  if ((cudaMalloc)(&heap, bytes) != cudaSuccess ||
      (cudaMalloc)(&state, kHeapStateBytes) != cudaSuccess ||
      cudaMemset(heap, 0, bytes) != cudaSuccess ||
      cudaMemset(state, 0, kHeapStateBytes) != cudaSuccess)
    FailRun(line, std::string(name) + ": no device memory for a device heap of " +
                      std::to_string(bytes) + " bytes (cudaLimitMallocHeapSize)");
  const std::size_t id = AddRegion("device heap", bytes, kKeyGlobal);
  p.regions[id].device = heap;
  p.heap = static_cast<unsigned char*>(heap);
  p.heap_bytes = bytes;
  p.heap_state = state;
}
}  // namespace

void RunKernel(const char* name, unsigned int line, unsigned int static_shared,
               const Config& config, LaunchPass pass, void* context, bool shadow_launcher) {
  Program& p = P();
  std::fflush(stdout);  // what the host printed before a launch that may never end is kept
  if (!p.backend) StartRecorder(name, line);
  if (p.heap_wanted && p.heap == nullptr) StartDeviceHeap(name, line);
  Scratch scratch;
  ProgramDeviceState state{};
  std::vector<CudaBackend::DeviceRange> live;
  UploadRegions(p, scratch, &state, &live);
  if (p.heap != nullptr) {
    state.heap = p.heap;
    state.heap_bytes = p.heap_bytes;
    state.heap_state = p.heap_state;
    live.push_back({p.heap_state, kHeapStateBytes});  // restored between the passes, as the heap
  }
  state.file_tag = FileTag(p.sites.main_file.c_str());
  state.shared = scratch.Upload(std::vector<unsigned int>(2 * kSharedSlots + 1, 0u));
  state.bad = p.bad_device;
  state.registers_only = KeepsArraysInRegisters(name) ? 1u : 0u;
  // Each thread's current dynamic instance, null at the start of each pass (every instance a
  // thread opens closes before it ends).
  const unsigned long long threads = static_cast<unsigned long long>(config.grid.x) *
                                     config.grid.y * config.grid.z * config.block.x *
                                     config.block.y * config.block.z;
  if (threads <= kMaxInstanceSlots) {
    state.instances = scratch.Zeroed<InstanceView>(threads);
    state.instance_slots = state.instances != nullptr ? threads : 0;
  }
  state.flops = scratch.Zeroed<unsigned long long>(1);
  if (config.cooperative) state.grid_barrier = scratch.Zeroed<unsigned int>(2);
  *p.bad = BadAccess{};
  p.backend->UseProgramMemory(p.buffers, live);
  // A launch past its kernel's first few keeps no block records (KeepLaunch would drop them):
  // every block of it is counted on the device, none decoded.
  p.backend->KeepNoBlocks(!KeepsRecords(p.run, name));
  p.backend->SyncsAsAGrid(config.cooperative);
  // No buffer is known to be read only (the rewriter proves that for the emulator's SIMT path
  // only); the shared shadow goes into the block's shared memory where the launcher adds it.
  if (shadow_launcher) p.backend->NextLaunchCarriesShadow({});
  CompiledCodeLaunching(name, p.sites);
  const std::size_t before = p.backend->launches().size();
  const Dim3 grid{config.grid.x, config.grid.y, config.grid.z};
  const Dim3 block{config.block.x, config.block.y, config.block.z};
  Status s =
      p.backend->Launch(name, grid, block, static_shared, static_cast<std::uint32_t>(config.shared),
                        [&](const dev::RecorderState& recorder) {
                          // Each pass runs the whole grid: the count is the last pass's.
                          if (state.flops != nullptr &&
                              cudaMemset(state.flops, 0, sizeof(unsigned long long)) != cudaSuccess)
                            return cudaGetLastError();
                          if (recorder.quiet == 0) return pass(context, recorder, state);
                          return Quietly([&] {
                            const cudaError_t e = pass(context, recorder, state);
                            return e != cudaSuccess ? e : cudaDeviceSynchronize();
                          });
                        });
  if (p.bad->flag != 0) FailRun(line, std::string(name) + ": " + BadAccessText(*p.bad));
  if (!s.ok() && s.message().find("cudaErrorAssert") != std::string::npos) {
    // A failed device assert(): the program learns it from its next CUDA call, as without
    // Warpscope (Sticky).
    p.sticky = cudaErrorAssert;
    return;
  }
  if (!s.ok()) {
    // "launch(st) failed at cuda_backend.h:270: cudaErrorAssert (...)": the program's words.
    const std::size_t error = s.message().find("cudaError");
    FailRun(line, error == std::string::npos
                      ? s.message()
                      : std::string(name) + ": the kernel failed on the GPU: " +
                            s.message().substr(error, s.message().find(". The kernel") - error));
  }
  if (p.backend->launches().size() == before) FailRun(line, std::string(name) + ": not recorded");
  LaunchTrace t = std::move(p.backend->launches().back());
  p.backend->launches().pop_back();
  unsigned long long flops = 0;
  if (state.flops != nullptr &&
      cudaMemcpy(&flops, state.flops, sizeof flops, cudaMemcpyDeviceToHost) == cudaSuccess) {
    t.stats.flops = flops;
    t.stats.flops_counted = true;
  }
  t.origin = LaunchOrigin();
  // A cluster launch: its clusters (cudaLaunchKernelEx's, else the kernel's __cluster_dims__), and
  // the distributed shared memory its kept blocks reached (the tally keeps no owner's rank).
  if (config.cluster.x != 0) {
    t.cluster = {config.cluster.x, config.cluster.y, config.cluster.z};
  } else if (const unsigned packed = KernelClusterNamed(name); packed != 0) {
    t.cluster = {packed & 0xffu, packed >> 8 & 0xffu, packed >> 16 & 0xffu};
  }
  if (t.ClusterBlocks() > 1) {
    t.cluster_kept_only = true;
    t.cluster_blocks_counted = t.blocks.size();
    for (const BlockRecords& b : t.blocks) {
      for (const AccessRecord& a : b.accesses) {
        if (a.site < t.sites.size() && t.sites[a.site].space == MemorySpace::kShared &&
            RemoteSharedRank(a.offset) >= 0)
          t.stats.AddClusterAccess(t.ClusterBlocks(), t.ClusterRank(b.block),
                                   static_cast<std::uint32_t>(RemoteSharedRank(a.offset)),
                                   t.sites[a.site].size);
      }
    }
  }
  // A cooperative launch's blocks sync as a grid, which the kept blocks' records do not mark:
  // their global accesses are paired within each block only, and the report says so (the
  // emulator pairs them across blocks between grid syncs).
  if (config.cooperative) t.hazards = FindHazards(t, false);
  NameProgramSites(t, p.sites);
  KeepLaunch(p.run, std::move(t));
}

}  // namespace ws::prog