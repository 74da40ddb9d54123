// libws_program_emu: the CUDA runtime a rewritten program links against on the emulator
// (ws_program.h declares it; docs/PROGRAMS.md describes it).
//
// - Device memory is host memory: cudaMalloc allocates (with a guard gap after each buffer) and
//   registers a buffer; __device__ and __constant__ variables register themselves at start-up.
//   Each buffer gets a virtual address laid out as cudaMalloc lays them out (trace/records.h).
// - A launch runs on the emulator (emu_runtime.h), one fiber per GPU thread. Each recorded access
//   is classified by its address: a __shared__ array of the running block, a buffer, a local
//   variable (not recorded), or nothing at all, which stops the launch with a message naming
//   the line, the thread, the address and the nearest buffer.
// - At exit the launches are written to the trace file named by WS_PROGRAM_OUT; the parent
//   (program.h) reads them. A failed launch is reported on stderr, written, and ends the program
//   with status 3 (the program's own later calls would only see a sticky error).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "warpscope/kernels/emu_runtime.h"
#define WS_NO_LESSON_INTRINSICS 1  // ws_program.h declares the program's own
#include "warpscope/kernels/ws_cuda_emu.h"
#include "warpscope/kernels/ws_cuda_keys.h"
#include "warpscope/trace/trace_file.h"

// ws_cuda_emu.h's keyword macros are for lesson kernels; this file defines the program's API.
#undef __global__
#undef __device__
#undef __host__
#undef __forceinline__
#undef __shared__
#undef threadIdx
#undef blockIdx
#undef blockDim
#undef gridDim
#undef __syncthreads
#include "ws_program.h"

namespace ws::prog {
namespace {

constexpr std::size_t kGuardBytes = 256;  // unregistered bytes after each allocation
constexpr std::size_t kMaxLaunchesWithRecords = 32;

struct Region {
  std::uintptr_t begin = 0;
  std::size_t bytes = 0;
  std::uint16_t id = 0;
  std::uint32_t space = kKeyGlobal;
  std::string name;
  bool freed = false;
  bool symbol = false;
  void* allocation = nullptr;  // what free() takes (null for symbols)
};

struct Program {
  std::mutex mutex;
  std::vector<Region> regions;          // by id
  std::vector<std::size_t> by_address;  // region ids sorted by begin
  std::vector<BufferInfo> buffers;      // by id, as the launches see them
  std::uint64_t next_base = 1u << 20;
  std::string file = "program.cu";
  std::uint16_t file_tag = 0;
  std::vector<SiteDesc> sites;  // by site number - 1
  std::vector<LaunchTrace> launches;
  std::size_t launches_without_records = 0;
  cudaError_t last_error = cudaSuccess;
  std::string error;  // the failed launch's message
  DevicePreset preset;
  std::vector<std::uint32_t> keep_blocks = {0, 1, 2, 3};
  bool written = false;

  Program() {
    if (const char* p = std::getenv("WS_PRESET")) {
      if (auto found = FindDevicePreset(p); found.ok()) preset = *found;
    }
    if (preset.name.empty()) preset = DevicePresets().front();
    if (const char* k = std::getenv("WS_KEEP_BLOCKS")) {
      keep_blocks.clear();
      std::stringstream s(k);
      for (std::string item; std::getline(s, item, ',');) {
        if (!item.empty()) keep_blocks.push_back(static_cast<std::uint32_t>(std::stoul(item)));
      }
    }
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
  std::lock_guard lock(p.mutex);
  if (p.written) return;
  p.written = true;
  const char* out = std::getenv("WS_PROGRAM_OUT");
  if (out == nullptr) return;
  TraceContents contents;
  contents.header = {{"program", p.file},
                     {"backend", "emu"},
                     {"preset", p.preset.name},
                     {"launches_without_records", p.launches_without_records}};
  if (!p.error.empty()) contents.header["error"] = p.error;
  contents.launches = std::move(p.launches);
  if (Status s = WriteTraceFile(out, contents); !s.ok())
    std::cerr << "warpscope: could not write the run: " << s.message() << "\n";
}

cudaError_t Fail(cudaError_t e, const std::string& what) {
  std::cerr << "warpscope: " << what << "\n";
  P().last_error = e;
  return e;
}

std::size_t AddRegion(void* begin, std::size_t bytes, std::string name, std::uint32_t space,
                      bool symbol, void* allocation) {
  Program& p = P();
  std::lock_guard lock(p.mutex);
  Region r;
  r.begin = reinterpret_cast<std::uintptr_t>(begin);
  r.bytes = bytes;
  r.id = static_cast<std::uint16_t>(p.regions.size());
  r.space = space;
  r.name = std::move(name);
  r.symbol = symbol;
  r.allocation = allocation;
  BufferInfo b{r.name, bytes, p.next_base};
  p.next_base = (p.next_base + bytes + kCudaMallocAlignment - 1) / kCudaMallocAlignment *
                kCudaMallocAlignment;
  p.buffers.push_back(b);
  p.regions.push_back(std::move(r));
  p.by_address.push_back(p.regions.size() - 1);
  std::sort(p.by_address.begin(), p.by_address.end(), [&](std::size_t a, std::size_t b2) {
    return p.regions[a].begin < p.regions[b2].begin;
  });
  return p.regions.size() - 1;
}

// The live region holding [addr, addr + bytes), else a freed one that held it, else null;
// `near` gets the region that starts closest below `addr` (for messages).
const Region* FindRegion(std::uintptr_t addr, std::size_t bytes, const Region** near) {
  Program& p = P();
  *near = nullptr;
  const Region* freed = nullptr;
  auto it =
      std::upper_bound(p.by_address.begin(), p.by_address.end(), addr,
                       [&](std::uintptr_t a, std::size_t id) { return a < p.regions[id].begin; });
  for (int steps = 0; it != p.by_address.begin() && steps < 4096; ++steps) {
    --it;
    const Region& r = p.regions[*it];
    if (*near == nullptr) *near = &r;
    if (addr + bytes <= r.begin + r.bytes) {
      if (!r.freed) return &r;
      if (freed == nullptr) freed = &r;
    }
  }
  return freed;
}

struct SharedRange {
  std::uintptr_t begin;
  std::uint32_t bytes, base;
};
thread_local std::string t_next_name;  // the variable the next cudaMalloc fills (NameNext)
thread_local std::uint32_t t_shared_tag = 0;
thread_local std::vector<SharedRange> t_shared;
thread_local std::uint32_t t_dynamic_tag = 0;
thread_local void* t_dynamic = nullptr;

void NoteShared(const void* p, std::uint32_t bytes, std::uint32_t base) {
  const std::uint32_t tag = emu::CurrentLaunchTag();
  if (t_shared_tag != tag) {
    t_shared.clear();
    t_shared_tag = tag;
  }
  t_shared.push_back({reinterpret_cast<std::uintptr_t>(p), bytes, base});
}

// "column 24: " for an access the rewriter numbered, else "".
std::string Column(unsigned int place) {
  const unsigned site = place >> 16;
  const Program& p = P();
  if (site == 0 || site > p.sites.size()) return "";
  return "column " + std::to_string(p.sites[site - 1].column) + ": ";
}

const char* OpName(unsigned int op) {
  return op == kOpLoad ? "a load of" : op == kOpStore ? "a store of" : "an atomic on";
}

[[noreturn]] void BadAddress(const void* ptr, unsigned int bytes, unsigned int place,
                             unsigned int op, const Region* freed, const Region* near) {
  std::ostringstream m;
  m << Column(place) << OpName(op) << " " << bytes << " bytes at " << ptr << " is ";
  const std::uintptr_t addr = reinterpret_cast<std::uintptr_t>(ptr);
  if (freed != nullptr) {
    m << "inside " << freed->name << ", which cudaFree released";
  } else if (near != nullptr) {
    const std::uintptr_t past = addr - (near->begin + near->bytes);
    m << "out of range: index " << (addr - near->begin) / bytes << " of " << near->name
      << ", which holds " << near->bytes / bytes << " elements of " << bytes << " bytes (" << past
      << " bytes past its end)";
  } else {
    m << "in no buffer from cudaMalloc, no __shared__ array and no __device__ or __constant__ "
         "variable (a host pointer passed to a kernel?)";
  }
  emu::FailThread(place & 0xffffu, m.str());
}

}  // namespace

// ------------------------------------------------------------------------------------------------
// Recording (what the rewriter's insertions call).
// ------------------------------------------------------------------------------------------------
void Record(const void* ptr, unsigned int bytes, unsigned int place, unsigned int op) {
  if (::ws::emu::t_thread == nullptr) return;  // a __host__ __device__ function on the host
  const std::uintptr_t addr = reinterpret_cast<std::uintptr_t>(ptr);
  if (t_shared_tag == emu::CurrentLaunchTag()) {
    for (const SharedRange& r : t_shared) {
      if (addr - r.begin < r.bytes) {
        const std::uint32_t offset = r.base + static_cast<std::uint32_t>(addr - r.begin);
        emu::RecordAccess(MakeSiteKey(place, kKeyShared, op, bytes, r.base / 4), offset);
        return;
      }
    }
  }
  const Region* near = nullptr;
  const Region* r = FindRegion(addr, bytes, &near);
  if (r != nullptr && !r->freed) {
    emu::RecordAccess(MakeSiteKey(place, r->space, op, bytes, r->id),
                      static_cast<std::uint32_t>(addr - r->begin));
    return;
  }
  // A local variable on this thread's fiber stack (an array a kernel declared): not recorded.
  const char here = 0;
  const std::uintptr_t stack = reinterpret_cast<std::uintptr_t>(&here);
  if ((addr > stack ? addr - stack : stack - addr) < (256u << 10)) return;
  BadAddress(ptr, bytes, place, op, r, near);
}

void RecordLoadStore(const void* p, unsigned int bytes, unsigned int place) {
  Record(p, bytes, place, kOpLoad);
  Record(p, bytes, place, kOpStore);
}

void RegisterShared(const void* p, unsigned int bytes, SharedSlot* slot) {
  if (::ws::emu::t_thread == nullptr) return;
  const std::uint32_t tag = emu::CurrentLaunchTag();
  if (slot->tag == tag && t_shared_tag == tag) return;
  std::uint32_t base_tag = 0, base = 0;
  base = emu::SharedArrayBase(bytes, &base_tag, &base);
  slot->tag = tag;
  slot->base = base;
  NoteShared(p, bytes, base);
}

void* DynamicShared() {
  const std::uint32_t tag = emu::CurrentLaunchTag();
  if (t_dynamic_tag != tag) {
    std::uint32_t bytes = 0, offset = 0;
    t_dynamic = emu::DynamicSharedMemory(&bytes, &offset);
    t_dynamic_tag = tag;
    if (bytes > 0) NoteShared(t_dynamic, bytes, offset);
  }
  return t_dynamic;
}

Symbol::Symbol(const void* p, std::size_t bytes, const char* name, unsigned int space) {
  AddRegion(const_cast<void*>(p), bytes, name, space == 2 ? kKeyConstant : kKeyGlobal, true,
            nullptr);
}

SiteTable::SiteTable(const SiteDesc* sites, unsigned int count, const char* file) {
  Program& p = P();
  p.sites.assign(sites, sites + count);
  p.file = file;
  p.file_tag = static_cast<std::uint16_t>(FileTag(file));
}

int NameNext(const char* name, unsigned int) {
  t_next_name = name;
  return 0;
}

void SyncThreads(unsigned int line) {
  emu::SyncThreads(MakePlace(P().file_tag, line));
}

int SyncThreadsCount(unsigned int line, int predicate) {
  return emu::SyncThreadsCount(MakePlace(P().file_tag, line), predicate);
}

unsigned long long WarpOp(unsigned int kind, unsigned int mask, unsigned long long value, int arg,
                          int width, unsigned int line) {
  if (::ws::emu::t_thread == nullptr) return value;  // host code: nothing to meet
  return emu::WarpOp(kind, mask, value, arg, width, MakePlace(P().file_tag, line));
}

unsigned int BlockThreads() {
  const uint3* b = Builtins();
  return b[2].x * b[2].y * b[2].z;
}

void RunKernel(const char* name, unsigned int line, unsigned int static_shared,
               const Config& config, void (*body)(void*), void* context) {
  Program& p = P();
  emu::LaunchConfig cfg;
  cfg.kernel = name;
  cfg.grid = {config.grid.x, config.grid.y, config.grid.z};
  cfg.block = {config.block.x, config.block.y, config.block.z};
  cfg.shared_bytes = static_shared;
  cfg.dynamic_shared_bytes = static_cast<std::uint32_t>(config.shared);
  {
    std::lock_guard lock(p.mutex);
    cfg.buffers = p.buffers;
  }
  cfg.preset = p.preset;
  cfg.keep_blocks = p.keep_blocks;
  auto run = emu::RunLaunch(cfg, [&] { body(context); });
  if (!run.ok()) {
    std::string message = run.status().message();
    // Site numbers are the program's, not lines: name the line the runtime put first.
    p.error = "line " + std::to_string(line) + ": launch of " + message;
    std::cerr << "warpscope: " << message << "\n";
    std::fflush(stdout);
    Program::Write();
    std::_Exit(3);
  }
  LaunchTrace t = std::move(*run);
  for (SiteInfo& s : t.sites) {
    const std::uint32_t site = s.file_tag;  // the rewriter's site number (ws_program.h)
    if (site >= 1 && site <= p.sites.size()) {
      s.column = static_cast<std::uint16_t>(p.sites[site - 1].column);
      s.end_column = static_cast<std::uint16_t>(p.sites[site - 1].end_column);
    }
    s.file_tag = p.file_tag;
    s.file = p.file;
  }
  for (BarrierSite& b : t.barrier_sites) b.file = p.file;
  for (WarpOpSite& w : t.warp_op_sites) w.file = p.file;
  std::lock_guard lock(p.mutex);
  if (p.launches.size() >= kMaxLaunchesWithRecords) {
    t.blocks.clear();
    t.thread_active.clear();
    ++p.launches_without_records;
  }
  p.launches.push_back(std::move(t));
}

}  // namespace ws::prog

// ------------------------------------------------------------------------------------------------
// The runtime API.
// ------------------------------------------------------------------------------------------------
using ws::prog::Fail;
using ws::prog::P;

namespace {

cudaError_t Allocate(void** ptr, std::size_t bytes, const char* what) {
  if (ptr == nullptr) return Fail(cudaErrorInvalidValue, std::string(what) + ": null pointer");
  if (bytes == 0) {
    *ptr = nullptr;
    return cudaSuccess;
  }
  const std::size_t total = (bytes + ws::prog::kGuardBytes + 255) / 256 * 256;
  void* mem = std::aligned_alloc(256, total);
  if (mem == nullptr)
    return Fail(cudaErrorMemoryAllocation,
                std::string(what) + ": out of memory for " + std::to_string(bytes) + " bytes");
  std::memset(mem, 0, total);
  const std::size_t id = ws::prog::AddRegion(mem, bytes, "", ws::kKeyGlobal, false, mem);
  {
    std::lock_guard lock(P().mutex);
    P().regions[id].name =
        ws::prog::t_next_name.empty() ? "buffer " + std::to_string(id) : ws::prog::t_next_name;
    ws::prog::t_next_name.clear();
    P().buffers[id].name = P().regions[id].name;
  }
  *ptr = mem;
  return cudaSuccess;
}

// The live region holding [p, p + bytes) (or null).
const ws::prog::Region* DeviceRange(const void* p, std::size_t bytes) {
  const ws::prog::Region* near = nullptr;
  const ws::prog::Region* r =
      ws::prog::FindRegion(reinterpret_cast<std::uintptr_t>(p), bytes, &near);
  return r != nullptr && !r->freed ? r : nullptr;
}

const char* KindName(cudaMemcpyKind k) {
  switch (k) {
    case cudaMemcpyHostToHost:
      return "cudaMemcpyHostToHost";
    case cudaMemcpyHostToDevice:
      return "cudaMemcpyHostToDevice";
    case cudaMemcpyDeviceToHost:
      return "cudaMemcpyDeviceToHost";
    case cudaMemcpyDeviceToDevice:
      return "cudaMemcpyDeviceToDevice";
    case cudaMemcpyDefault:
      return "cudaMemcpyDefault";
  }
  return "an unknown direction";
}

std::string RangeText(const void* p, std::size_t bytes) {
  std::ostringstream s;
  s << bytes << " bytes at " << p;
  return s.str();
}

}  // namespace

cudaError_t cudaMalloc(void** ptr, std::size_t bytes) {
  return Allocate(ptr, bytes, "cudaMalloc");
}
cudaError_t cudaMallocManaged(void** ptr, std::size_t bytes, unsigned int) {
  return Allocate(ptr, bytes, "cudaMallocManaged");
}
cudaError_t cudaMallocHost(void** ptr, std::size_t bytes) {
  if (ptr == nullptr) return Fail(cudaErrorInvalidValue, "cudaMallocHost: null pointer");
  *ptr = std::malloc(bytes == 0 ? 1 : bytes);
  return *ptr != nullptr ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t cudaHostAlloc(void** ptr, std::size_t bytes, unsigned int) {
  return cudaMallocHost(ptr, bytes);
}
cudaError_t cudaFreeHost(void* ptr) {
  std::free(ptr);
  return cudaSuccess;
}
cudaError_t cudaFree(void* ptr) {
  if (ptr == nullptr) return cudaSuccess;
  auto& p = P();
  std::lock_guard lock(p.mutex);
  for (auto& r : p.regions) {
    if (r.allocation == ptr && !r.freed) {
      r.freed = true;
      // The memory is kept (not reused), so a later stray access is named as a use after free.
      return cudaSuccess;
    }
  }
  std::cerr << "warpscope: cudaFree(" << ptr << "): not a pointer cudaMalloc returned\n";
  p.last_error = cudaErrorInvalidValue;
  return cudaErrorInvalidValue;
}

cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
  if (bytes == 0) return cudaSuccess;
  if (dst == nullptr || src == nullptr)
    return Fail(cudaErrorInvalidValue,
                std::string("cudaMemcpy (") + KindName(kind) + "): a null pointer");
  const bool dst_dev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  const bool src_dev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
    return Fail(cudaErrorInvalidMemcpyDirection, "cudaMemcpy: an unknown direction");
  if (dst_dev && DeviceRange(dst, bytes) == nullptr)
    return Fail(cudaErrorInvalidValue, std::string("cudaMemcpy (") + KindName(kind) +
                                           "): the destination, " + RangeText(dst, bytes) +
                                           ", is not inside one buffer from cudaMalloc");
  if (src_dev && DeviceRange(src, bytes) == nullptr)
    return Fail(cudaErrorInvalidValue, std::string("cudaMemcpy (") + KindName(kind) +
                                           "): the source, " + RangeText(src, bytes) +
                                           ", is not inside one buffer from cudaMalloc");
  std::memmove(dst, src, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t) {
  return cudaMemcpy(dst, src, bytes, kind);
}
cudaError_t cudaMemset(void* dst, int value, std::size_t bytes) {
  if (bytes == 0) return cudaSuccess;
  if (DeviceRange(dst, bytes) == nullptr)
    return Fail(cudaErrorInvalidValue, "cudaMemset: " + RangeText(dst, bytes) +
                                           " is not inside one buffer from cudaMalloc");
  std::memset(dst, value, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, std::size_t bytes,
                               std::size_t offset, cudaMemcpyKind) {
  const ws::prog::Region* r = DeviceRange(static_cast<const char*>(symbol) + offset, bytes);
  if (r == nullptr || !r->symbol)
    return Fail(cudaErrorInvalidSymbol, "cudaMemcpyToSymbol: " + std::to_string(bytes) +
                                            " bytes at offset " + std::to_string(offset) +
                                            " do not fit in a __constant__ or __device__ "
                                            "variable");
  std::memcpy(const_cast<char*>(static_cast<const char*>(symbol)) + offset, src, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, std::size_t bytes,
                                 std::size_t offset, cudaMemcpyKind) {
  const ws::prog::Region* r = DeviceRange(static_cast<const char*>(symbol) + offset, bytes);
  if (r == nullptr || !r->symbol)
    return Fail(cudaErrorInvalidSymbol, "cudaMemcpyFromSymbol: " + std::to_string(bytes) +
                                            " bytes at offset " + std::to_string(offset) +
                                            " do not fit in a __constant__ or __device__ "
                                            "variable");
  std::memcpy(dst, static_cast<const char*>(symbol) + offset, bytes);
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize() {
  return cudaSuccess;
}
cudaError_t cudaDeviceReset() {
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) {
  return device == 0 ? cudaSuccess
                     : Fail(cudaErrorInvalidDevice, "cudaSetDevice(" + std::to_string(device) +
                                                        "): the emulator has one device, 0");
}
cudaError_t cudaGetDevice(int* device) {
  if (device != nullptr) *device = 0;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceCount(int* count) {
  if (count != nullptr) *count = 1;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (prop == nullptr || device != 0) return cudaErrorInvalidDevice;
  const ws::DevicePreset& d = P().preset;
  *prop = cudaDeviceProp{};
  std::snprintf(prop->name, sizeof prop->name, "Warpscope emulator (%s: %s)", d.name.c_str(),
                d.description.c_str());
  prop->totalGlobalMem = std::size_t{16} << 30;
  prop->sharedMemPerBlock = d.shared_per_block;
  prop->sharedMemPerMultiprocessor = 228 * 1024;
  prop->totalConstMem = 64 * 1024;
  prop->regsPerBlock = 65536;
  prop->regsPerMultiprocessor = 65536;
  prop->warpSize = 32;
  prop->maxThreadsPerBlock = static_cast<int>(d.max_threads_per_block);
  prop->maxThreadsDim[0] = static_cast<int>(d.max_block.x);
  prop->maxThreadsDim[1] = static_cast<int>(d.max_block.y);
  prop->maxThreadsDim[2] = static_cast<int>(d.max_block.z);
  prop->maxGridSize[0] = static_cast<int>(d.max_grid.x);
  prop->maxGridSize[1] = static_cast<int>(d.max_grid.y);
  prop->maxGridSize[2] = static_cast<int>(d.max_grid.z);
  prop->clockRate = static_cast<int>(d.clock_ghz * 1e6);
  prop->multiProcessorCount = static_cast<int>(d.multiprocessors);
  prop->maxThreadsPerMultiProcessor = 2048;
  prop->maxBlocksPerMultiProcessor = 32;
  prop->major = 9;
  prop->minor = 0;
  prop->warpSize = 32;
  prop->unifiedAddressing = 1;
  prop->managedMemory = 1;
  return cudaSuccess;
}
cudaError_t cudaGetLastError() {
  const cudaError_t e = P().last_error;
  P().last_error = cudaSuccess;
  return e;
}
cudaError_t cudaPeekAtLastError() {
  return P().last_error;
}
const char* cudaGetErrorName(cudaError_t e) {
  switch (e) {
    case cudaSuccess:
      return "cudaSuccess";
    case cudaErrorInvalidValue:
      return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation:
      return "cudaErrorMemoryAllocation";
    case cudaErrorInvalidConfiguration:
      return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidSymbol:
      return "cudaErrorInvalidSymbol";
    case cudaErrorInvalidMemcpyDirection:
      return "cudaErrorInvalidMemcpyDirection";
    case cudaErrorInvalidDevice:
      return "cudaErrorInvalidDevice";
    case cudaErrorIllegalAddress:
      return "cudaErrorIllegalAddress";
    case cudaErrorLaunchFailure:
      return "cudaErrorLaunchFailure";
    default:
      return "cudaErrorUnknown";
  }
}
const char* cudaGetErrorString(cudaError_t e) {
  switch (e) {
    case cudaSuccess:
      return "no error";
    case cudaErrorInvalidValue:
      return "invalid argument";
    case cudaErrorMemoryAllocation:
      return "out of memory";
    case cudaErrorInvalidConfiguration:
      return "invalid configuration argument";
    case cudaErrorInvalidSymbol:
      return "invalid device symbol";
    case cudaErrorInvalidDevice:
      return "invalid device ordinal";
    case cudaErrorIllegalAddress:
      return "an illegal memory access was encountered";
    default:
      return "unknown error";
  }
}

struct WsEvent {
  std::chrono::steady_clock::time_point at;
};
cudaError_t cudaEventCreate(cudaEvent_t* event) {
  if (event == nullptr) return cudaErrorInvalidValue;
  *event = new WsEvent{};
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t) {
  if (event == nullptr) return cudaErrorInvalidResourceHandle;
  event->at = std::chrono::steady_clock::now();
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t) {
  return cudaSuccess;
}
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (ms == nullptr || start == nullptr || end == nullptr) return cudaErrorInvalidValue;
  *ms = std::chrono::duration<float, std::milli>(end->at - start->at).count();
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  delete event;
  return cudaSuccess;
}
cudaError_t cudaStreamCreate(cudaStream_t* stream) {
  if (stream != nullptr) *stream = nullptr;
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t) {
  return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t) {
  return cudaSuccess;
}
