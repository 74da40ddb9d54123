// libws_program_emu: the CUDA runtime a rewritten program links against on the emulator
// (ws_program.h declares it; docs/PROGRAMS.md describes it).
//
// - Device memory is host memory: cudaMalloc allocates (with a guard gap after each buffer) and
//   registers a buffer; __device__ and __constant__ variables register themselves at start-up.
//   Each buffer gets a virtual address laid out as cudaMalloc lays them out (trace/records.h).
// - A launch runs on the emulator (emu_runtime.h), one fiber per GPU thread. Each recorded access
//   is classified by its address: a __shared__ array of the running block, a buffer, a local
//   variable (not recorded), or nothing at all, which stops the launch with a message naming
//   the line, the thread, the address and the nearest buffer. A kernel with a warp function runs
//   a warp at a time instead (the SIMT path: kernels/emu/simt_runtime.cpp).
// - At exit the launches are written to the trace file named by WS_PROGRAM_OUT; the parent
//   (program.h) reads them. A failed launch is reported on stderr, written, and ends the program
//   with status 3 (the program's own later calls would only see a sticky error).
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>
#include <mutex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "emu_program_state.h"
#include "warpscope/program/progress.h"
#include "warpscope/trace/kernel_table.h"

namespace ws::prog {
using namespace detail;  // NOLINT: this file is the state's other half
namespace {

struct SharedRange {
  std::uintptr_t begin;
  std::uint32_t bytes, base;
  const char* name;  // as declared ("tile"), for an access that misses it
};
thread_local std::uint32_t t_shared_tag = 0;
thread_local std::vector<SharedRange> t_shared;
thread_local std::uint32_t t_dynamic_tag = 0;
thread_local void* t_dynamic = nullptr;

void NoteShared(const void* p, std::uint32_t bytes, std::uint32_t base, const char* name) {
  const std::uint32_t tag = emu::CurrentLaunchTag();
  if (t_shared_tag != tag) {
    t_shared.clear();
    t_shared_tag = tag;
  }
  t_shared.push_back({reinterpret_cast<std::uintptr_t>(p), bytes, base, name});
}

// The __shared__ array of this launch nearest to `addr`, and how far outside it the address is
// (negative: before its start); null when the launch has none.
const SharedRange* NearestShared(std::uintptr_t addr, std::int64_t* outside) {
  if (t_shared_tag != emu::CurrentLaunchTag()) return nullptr;
  const SharedRange* best = nullptr;
  std::uint64_t best_gap = ~0ull;
  for (const SharedRange& r : t_shared) {
    const std::uintptr_t end = r.begin + r.bytes;
    const std::uint64_t gap = addr >= end ? addr - end : addr < r.begin ? r.begin - addr : 0;
    if (gap < best_gap) {
      best = &r;
      best_gap = gap;
      *outside = addr >= end ? static_cast<std::int64_t>(gap) : -static_cast<std::int64_t>(gap);
    }
  }
  return best;
}

// Floating-point operations, counted by each worker thread in a cell of its own (no sharing on
// the hot path). A launch's workers are threads of that launch: a cell adds its count to the
// finished total when its thread ends; TakeFlops adds the cells still alive (a launch of one
// worker runs on the program's own thread) and starts both again.
std::mutex g_flop_mutex;
std::uint64_t g_flops_done = 0;  // of the cells whose threads ended; under g_flop_mutex
struct FlopCell;
std::vector<FlopCell*>& FlopCells() {
  static auto* cells = new std::vector<FlopCell*>();  // never destroyed: threads may outlive it
  return *cells;
}
struct FlopCell {
  std::uint64_t ops = 0;
  FlopCell() {
    std::lock_guard lock(g_flop_mutex);
    FlopCells().push_back(this);
  }
  ~FlopCell() {
    std::lock_guard lock(g_flop_mutex);
    g_flops_done += ops;
    auto& cells = FlopCells();
    cells.erase(std::remove(cells.begin(), cells.end(), this), cells.end());
  }
};
thread_local FlopCell t_flops;

std::uint64_t TakeFlops() {
  std::lock_guard lock(g_flop_mutex);
  std::uint64_t n = std::exchange(g_flops_done, 0);
  for (FlopCell* c : FlopCells()) n += std::exchange(c->ops, 0);
  return n;
}

// The progress cell the parent maps (WS_PROGRAM_PROGRESS), or null.
ProgressCell* Progress() {
  static ProgressCell* const cell = []() -> ProgressCell* {
    const char* path = std::getenv("WS_PROGRAM_PROGRESS");
    if (path == nullptr) return nullptr;
    const int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0) return nullptr;
    void* p = mmap(nullptr, sizeof(ProgressCell), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    return p == MAP_FAILED ? nullptr : static_cast<ProgressCell*>(p);
  }();
  return cell;
}

// "column 24: " for an access the rewriter numbered, else "".
std::string Column(unsigned int place) {
  const unsigned site = place >> 16;
  const Program& p = P();
  if (site == 0 || site > p.sites.column.size()) return "";
  return "column " + std::to_string(p.sites.column[site - 1]) + ": ";
}

const char* OpName(unsigned int op) {
  return op == kOpLoad ? "a load of" : op == kOpStore ? "a store of" : "an atomic on";
}

// An address this close to a __shared__ array of the launch, and nearer it than to any buffer,
// missed that array (a block's shared memory is at most 228 KiB on the GPUs of the presets).
constexpr std::uint64_t kSharedMissBytes = 228u << 10;
// An address further than this from every buffer is in none (a host pointer, most likely).
constexpr std::uintptr_t kFarFromEveryBuffer = std::uintptr_t{1} << 30;

[[noreturn]] void BadAddress(const void* ptr, unsigned int bytes, unsigned int place,
                             unsigned int op, const Region* freed, const Region* near) {
  std::ostringstream m;
  m << Column(place) << OpName(op) << " " << bytes << " bytes at " << ptr << " is ";
  const std::uintptr_t addr = reinterpret_cast<std::uintptr_t>(ptr);
  std::int64_t outside = 0;
  const SharedRange* shared = NearestShared(addr, &outside);
  const std::uint64_t shared_gap = static_cast<std::uint64_t>(outside < 0 ? -outside : outside);
  // How far the nearest buffer is, below or above (0: the access straddles the end of `near`).
  const Region* above = RegionAbove(addr);
  const std::uint64_t below_gap = near == nullptr ? ~std::uint64_t{0}
                                  : addr >= near->begin + near->bytes
                                      ? addr - (near->begin + near->bytes)
                                      : 0;
  const std::uint64_t above_gap = above != nullptr ? above->begin - addr : ~std::uint64_t{0};
  const std::uint64_t global_gap = std::min(below_gap, above_gap);
  if (freed == nullptr && shared != nullptr && shared_gap < kSharedMissBytes &&
      shared_gap <= global_gap) {
    // Past a __shared__ array (the halo off by one): named with its index and size, as
    // compute-sanitizer's memcheck names a shared access out of bounds on a GPU.
    const std::int64_t index = outside < 0
                                   ? -((-outside + bytes - 1) / bytes)
                                   : static_cast<std::int64_t>((addr - shared->begin) / bytes);
    m << "out of range: index " << index << " of the __shared__ array " << shared->name
      << ", which holds " << shared->bytes / bytes << " elements of " << bytes << " bytes ("
      << shared_gap << (outside < 0 ? " bytes before its start)" : " bytes past its end)");
    emu::FailThread(place & 0xffffu, m.str());
  }
  if (freed != nullptr) {
    m << "inside " << freed->name << ", which cudaFree released";
  } else if (global_gap < kFarFromEveryBuffer) {
    // Between two buffers: the nearer one is named, as compute-sanitizer's memcheck does ("N
    // bytes after the nearest allocation"); the index is in its elements.
    const std::uintptr_t past = below_gap, before = above_gap;
    const Region* r = past <= before ? near : above;
    const std::uintptr_t gap = past <= before ? past : before;
    if (gap < r->bytes) {  // just outside: the index the student wrote, in its elements
      m << "out of range: index ";
      if (past <= before)
        m << (addr - r->begin) / bytes;
      else
        m << "-" << (before + bytes - 1) / bytes;
      m << " of " << r->name << ", which holds " << r->bytes / bytes << " elements of " << bytes
        << " bytes (" << gap << (past <= before ? " bytes past its end" : " bytes before its start")
        << ")";
    } else {  // far from every buffer: which one was meant is not known from the address
      m << "out of range: " << gap
        << (past <= before ? " bytes past the end of " : " bytes before ") << r->name
        << (past <= before ? "" : "'s start") << ", of the program's buffers the "
        << "nearest to the address (" << r->name << " holds " << r->bytes / bytes << " elements of "
        << bytes << " bytes); an index far outside the array it was meant for";
    }
  } else {
    m << "in no buffer from cudaMalloc, no __shared__ array and no __device__ or __constant__ "
         "variable";
    std::string failed;
    {
      std::lock_guard lock(P().mutex);
      // (An address beyond 1 TiB is no null pointer's element, whatever failed.)
      if (addr < std::min<std::uint64_t>(P().failed_bytes, std::uint64_t{1} << 40))
        failed = P().failed_allocation;
    }
    rlimit limit{};
    if (!failed.empty()) {  // the null pointer a failed cudaMalloc left, most likely
      m << ": " << failed << " failed before it, out of memory";
      if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
        m << " under the memory limit of " << (limit.rlim_cur >> 20) << " MiB";
      m << " (was its pointer passed, its error not checked?)";
    } else {
      m << " (a host pointer passed to a kernel?)";
    }
  }
  emu::FailThread(place & 0xffffu, m.str());
}

}  // namespace

// ------------------------------------------------------------------------------------------------
// Recording (what the rewriter's insertions call).
// ------------------------------------------------------------------------------------------------
namespace detail {

// One of the calling worker's shared arrays this launch (ws::emu::ClusterRemoteShared's test).
bool OwnShared(std::uintptr_t addr, void*) {
  if (t_shared_tag != emu::CurrentLaunchTag()) return false;
  for (const SharedRange& r : t_shared) {
    if (addr - r.begin < r.bytes) return true;
  }
  return false;
}

Classified Classify(const void* ptr, unsigned int bytes, unsigned int place, unsigned int op) {
  Classified c;
  const std::uintptr_t addr = reinterpret_cast<std::uintptr_t>(ptr);
  const bool several = (op & kOpSeveral) != 0;            // the rewriter saw a row of a T** (below)
  const bool texture = (op & ::ws::simt::kTexture) != 0;  // a texel (TakeTexel)
  op &= ~(kOpSeveral | ::ws::simt::kTexture);
  if (t_shared_tag == emu::CurrentLaunchTag()) {
    for (const SharedRange& r : t_shared) {
      if (addr - r.begin < r.bytes) {
        c.where = Where::kRecorded;
        c.shared = true;
        c.lo = r.begin;
        c.hi = r.begin + r.bytes;
        c.offset = r.base + static_cast<std::uint32_t>(addr - r.begin);
        c.key = MakeSiteKey(place, kKeyShared, op, bytes, r.base / 4);
        return c;
      }
    }
  }
  const Region* r = FindRegion(addr, bytes, &c.near);
  c.region = r;
  if (r != nullptr && !r->freed && texture) {  // keyed as RecordTexture keys it
    c.where = Where::kRecorded;
    c.lo = r->begin;
    c.hi = r->begin + r->bytes;
    c.offset = static_cast<std::uint32_t>(addr - r->begin);
    c.key = MakeSiteKey(place, kKeyTexture, kOpLoad, bytes, r->id);
    return c;
  }
  if (r != nullptr && !r->freed) {
    // A site keyed by its buffer, as on a GPU (ws_program_cuda.h): one that reads A in some warps
    // and B in others (cudaTensorCoreGemm's copy) is a site a buffer. One that reaches into more
    // than kSiteBuffers (rows of an int** matrix, each its own cudaMallocManaged, where the
    // rewriter did not see the rows: `several`) is one site from then on, keyed by no buffer,
    // its offsets the virtual addresses. Before, a site went to no buffer at its second buffer,
    // so that which of its requests kept the first depended on the workers' order
    // (cudaTensorCoreGemm at 256^3: 32 and 992 requests, once 40 and 984; the GPU 512 and 512).
    constexpr std::uint32_t kSiteBuffers = 4;
    static std::atomic<std::uint32_t> site_buffers[1u << 16][kSiteBuffers];  // id + 1, 0: none
    static std::atomic<bool> site_several[1u << 16];
    std::atomic<std::uint32_t>* seen = site_buffers[place >> 16];
    bool any = several || site_several[place >> 16].load(std::memory_order_relaxed);
    for (std::uint32_t k = 0; !any; ++k) {
      if (k == kSiteBuffers) {
        site_several[place >> 16].store(true, std::memory_order_relaxed);
        any = true;
        break;
      }
      std::uint32_t v = seen[k].load(std::memory_order_relaxed);
      if (v == 0 && seen[k].compare_exchange_strong(v, r->id + 1u)) v = r->id + 1u;
      if (v == r->id + 1u) break;
    }
    c.where = Where::kRecorded;
    c.lo = r->begin;
    c.hi = r->begin + r->bytes;
    if (any) {
      c.offset = static_cast<std::uint32_t>(P().buffers[r->id].base + (addr - r->begin));
      c.key = MakeSiteKey(place, r->space, op, bytes, kAnyBuffer);
      return c;
    }
    c.offset = static_cast<std::uint32_t>(addr - r->begin);
    c.key = MakeSiteKey(place, r->space, op, bytes, r->id);
    return c;
  }
  // Another block's shared memory in the caller's cluster (distributed shared memory): its site
  // is the array's, as the caller's own accesses of it, at the same offset in that block's window
  // moved up by kRemoteSharedStep times the owner's rank + 1 (banks as in its window).
  std::uint32_t rank = 0;
  std::uintptr_t own = 0;
  if (emu::ClusterRemoteShared(addr, &OwnShared, nullptr, &rank, &own)) {
    for (const SharedRange& s : t_shared) {
      if (own - s.begin >= s.bytes) continue;
      c.where = Where::kRecorded;
      c.shared = true;
      c.lo = addr - (own - s.begin);
      c.hi = c.lo + s.bytes;
      c.offset = s.base + static_cast<std::uint32_t>(own - s.begin) + RemoteSharedOffset(rank);
      c.key = MakeSiteKey(place, kKeyShared, op, bytes, s.base / 4);
      c.remote_rank = static_cast<int>(rank);
      return c;
    }
  }
  // A local variable on this thread's stack (an array a kernel declared): not recorded. The
  // running fiber's stack where one runs (an address near it may be another thread's __shared__
  // array, which lives in thread-local storage: a mapping the fiber's may lie next to).
  if (const int on = emu::OnFiberStack(ptr); on >= 0) {
    if (on == 1) c.where = Where::kOwnVariable;
    return c;
  }
  const char here = 0;
  const std::uintptr_t stack = reinterpret_cast<std::uintptr_t>(&here);
  if ((addr > stack ? addr - stack : stack - addr) < (256u << 10)) c.where = Where::kOwnVariable;
  return c;
}

[[noreturn]] void BadAddressOf(const void* ptr, unsigned int bytes, unsigned int place,
                               unsigned int op, const Classified& c) {
  BadAddress(ptr, bytes, place, op, c.region, c.near);
}

const ::ws::simt::Classifier kSimtClassifier = {
    [](const void* p, unsigned int bytes, unsigned int place, unsigned int op) {
      return static_cast<::ws::simt::Classified>(Classify(p, bytes, place, op));
    },
    [](const void* p, unsigned int bytes, unsigned int place, unsigned int op) {
      BadAddressOf(p, bytes, place, op & ~kOpSeveral, Classify(p, bytes, place, op));
    },
    [](const void* p) {  // a buffer from cudaMalloc & co. (not a __constant__ variable)
      const Region* near = nullptr;
      const Region* r = FindRegion(reinterpret_cast<std::uintptr_t>(p), 1, &near);
      return r != nullptr && !r->freed && r->space == kKeyGlobal ? std::uint32_t{r->id} : ~0u;
    }};

}  // namespace detail

void Record(const void* ptr, unsigned int bytes, unsigned int place, unsigned int op) {
  if (::ws::emu::t_thread == nullptr) return;  // a __host__ __device__ function on the host
  const detail::Classified c = detail::Classify(ptr, bytes, place, op);
  if (c.where == detail::Where::kRecorded) {
    // A shared load where this worker's threads have copies in flight: one of the thread's own
    // landing there later is a hazard (emu_async.cpp).
    if (t_copies_in_flight > 0 && (op & ~kOpSeveral) == kOpLoad && KeySpaceOf(c.key) == kKeyShared)
      EarlyRead(ptr, bytes, c.key, c.offset);
    // The launch's traffic between a cluster's blocks (here, not in Classify: lookups ask it too).
    if (c.remote_rank >= 0)
      emu::NoteClusterAccess(static_cast<std::uint32_t>(c.remote_rank), bytes);
    emu::RecordAccess(c.key, c.offset, ptr);
  } else if (c.where == detail::Where::kNowhere) {
    BadAddress(ptr, bytes, place, op & ~kOpSeveral, c.region, c.near);
  }
}

void RecordLocal(const void* p, unsigned int bytes, unsigned int place, unsigned int op,
                 const void* array, unsigned int array_bytes, const char* name) {
  const emu::ThreadState* t = ::ws::emu::t_thread;
  if (t == nullptr) return;  // on the host
  const std::uintptr_t at =
      reinterpret_cast<std::uintptr_t>(p) - reinterpret_cast<std::uintptr_t>(array);
  // Outside the thread's own array: on the CPU it would overwrite the fiber's stack; on a GPU,
  // memcheck reports a local access out of bounds. Named with its index and size.
  if (at + bytes > array_bytes ||
      reinterpret_cast<std::uintptr_t>(p) < reinterpret_cast<std::uintptr_t>(array)) {
    const bool before =
        reinterpret_cast<std::uintptr_t>(p) < reinterpret_cast<std::uintptr_t>(array);
    std::ostringstream m;
    m << Column(place) << OpName(op & ~kOpSeveral) << " " << bytes << " bytes is out of range: "
      << "index " << (before ? "-" : "")
      << (before ? (reinterpret_cast<std::uintptr_t>(array) - reinterpret_cast<std::uintptr_t>(p) +
                    bytes - 1) /
                       bytes
                 : at / bytes)
      << " of the thread's own array " << name << ", which holds " << array_bytes / bytes
      << " elements of " << bytes << " bytes";
    emu::FailThread(place & 0xffffu, m.str());
  }
  if (P().registers_only) return;  // ptxas kept it in registers: nothing to record
  const std::uint64_t threads = std::uint64_t{t->block_dim.x} * t->block_dim.y * t->block_dim.z;
  const std::uint64_t thread =
      t->thread_idx.x + std::uint64_t{t->block_dim.x} *
                            (t->thread_idx.y + std::uint64_t{t->block_dim.y} * t->thread_idx.z);
  const std::uint64_t block =
      t->block_idx.x + std::uint64_t{t->grid_dim.x} *
                           (t->block_idx.y + std::uint64_t{t->grid_dim.y} * t->block_idx.z);
  emu::RecordAccess(
      MakeSiteKey(place, kKeyGlobal, op & ~kOpSeveral, bytes, kKeyLocalArray),
      LocalOffset(block, threads, thread, static_cast<std::uint32_t>(at), bytes, array_bytes), p);
}

void CountFlops(unsigned int ops) noexcept {
  if (::ws::emu::t_thread == nullptr) return;  // a __host__ __device__ function on the host
  t_flops.ops += ops;
}

void RecordLoadStore(const void* p, unsigned int bytes, unsigned int place, unsigned int flags) {
  Record(p, bytes, place, kOpLoad | flags);
  Record(p, bytes, place, kOpStore | flags);
}

void RegisterShared(const void* p, unsigned int bytes, SharedSlot* slot, const char* name) {
  if (::ws::emu::t_thread == nullptr) return;
  const std::uint32_t tag = emu::CurrentLaunchTag();
  if (slot->tag == tag && t_shared_tag == tag) return;
  std::uint32_t base_tag = 0, base = 0;
  base = emu::SharedArrayBase(bytes, &base_tag, &base, const_cast<void*>(p));
  slot->tag = tag;
  slot->base = base;
  NoteShared(p, bytes, base, name);
}

void* DynamicShared() {
  const std::uint32_t tag = emu::CurrentLaunchTag();
  if (t_dynamic_tag != tag) {
    std::uint32_t bytes = 0, offset = 0;
    t_dynamic = emu::DynamicSharedMemory(&bytes, &offset);
    t_dynamic_tag = tag;
    if (bytes > 0) NoteShared(t_dynamic, bytes, offset, "(dynamic, extern __shared__)");
  }
  return t_dynamic;
}

Symbol::Symbol(const void* p, std::size_t bytes, const char* name, unsigned int space) {
  AddRegion(const_cast<void*>(p), bytes, name, space == 2 ? kKeyConstant : kKeyGlobal, true,
            nullptr);
}

SiteTable::SiteTable(const SiteDesc* sites, unsigned int count, const char* const* files,
                     unsigned int file_count) {
  Program& p = P();
  std::lock_guard lock(p.mutex);
  p.sites.Add(sites, count, files, file_count);
}

KernelTable::KernelTable(std::initializer_list<Entry> entries) {
  for (const Entry& e : entries)
    RegisterKernel(e.address, e.name, e.static_shared, e.warp, e.simt,
                   reinterpret_cast<const void*>(e.bind), e.cluster);
}

const void* KernelWarpOf(const void* kernel) {
  return KernelWarpAt(kernel);
}

const char* KernelNameOf(const void* kernel, const char* written) {
  return KernelNameAt(kernel, written);
}

unsigned int KernelStaticShared(const void* kernel) {
  return KernelStaticSharedAt(kernel);
}

int NameNext(const char* name, unsigned int) {
  P().next_name = name;
  return 0;
}

void RunKernel(const char* name, unsigned int line, unsigned int static_shared,
               const Config& config, void (*body)(void*), void* context,
               void (*warp)(void*, ::ws::simt::Warp&), const void* kernel) {
  Program& p = P();
  AsyncLaunchStarts();  // the threads' asynchronous copies start afresh (emu_async.cpp)
  emu::LaunchConfig cfg;
  // The SIMT path where the kernel has a warp function (WS_PROGRAM_ENGINE=fiber: never).
  static const bool fiber_only = [] {
    const char* e = std::getenv("WS_PROGRAM_ENGINE");
    return e != nullptr && std::string(e) == "fiber";
  }();
  std::string engine_reason;
  if (fiber_only) {
    engine_reason = "--engine fiber";
  } else if (warp == nullptr) {
    const char* why = kernel != nullptr ? KernelSimtReasonAt(kernel) : nullptr;
    engine_reason = why != nullptr ? why
                                   : "launched from a template or through a pointer the rewriter "
                                     "did not give a warp function (yet)";
  } else if (p.schedule.kind != Schedule::Kind::kInOrder) {
    engine_reason = "the " + p.schedule.Name() + " schedule runs the threads one by one";
  }
  if (engine_reason.empty()) {
    cfg.warp_body = [warp, context](const emu::WarpLanes& lanes) {
      t_flops.ops += ::ws::simt::RunWarp(lanes, &detail::kSimtClassifier, warp, context);
    };
  }
  cfg.kernel = name;
  cfg.cooperative = config.cooperative;
  // Its cluster: cudaLaunchKernelEx's attribute, else the kernel's __cluster_dims__. A cluster's
  // blocks sync with each other: thread by thread (yet).
  if (config.cluster.x != 0 || config.cluster.y != 0 || config.cluster.z != 0) {
    cfg.cluster = {config.cluster.x, config.cluster.y, config.cluster.z};
  } else if (const unsigned packed = kernel != nullptr ? KernelClusterAt(kernel) : 0u;
             packed != 0) {
    cfg.cluster = {packed & 0xffu, packed >> 8 & 0xffu, packed >> 16 & 0xffu};
  }
  if (cfg.cluster.count() > 1 && engine_reason.empty()) {
    engine_reason = "a cluster launch runs its blocks thread by thread (yet)";
    cfg.warp_body = nullptr;
  }
  cfg.grid = {config.grid.x, config.grid.y, config.grid.z};
  cfg.block = {config.block.x, config.block.y, config.block.z};
  cfg.shared_bytes = static_shared;
  cfg.dynamic_shared_bytes = static_cast<std::uint32_t>(config.shared);
  detail::RegisterDeviceHeap();  // before the launch's buffers are taken (once, where wanted)
  {
    std::lock_guard lock(p.mutex);
    cfg.buffers = p.buffers;
  }
  cfg.preset = p.preset;
  {
    // A kernel that asked (cudaFuncSetAttributeOf) has its static shared memory and the dynamic
    // it asked for, which then bounds its launches' as on the GPU. (A launch through a lambda,
    // LaunchVia, names no kernel here: it keeps the plain limit.)
    std::lock_guard lock(p.mutex);
    const auto asked = p.max_dynamic_shared.find(kernel);
    if (kernel != nullptr && asked != p.max_dynamic_shared.end())
      cfg.preset.shared_per_block =
          std::min(std::max(p.preset.shared_per_block, p.preset.shared_per_block_optin),
                   static_shared + asked->second);
  }
  cfg.keep_blocks = p.keep_blocks;
  if (cfg.grid.count() * cfg.block.count() <= p.keep_all_up_to) {
    cfg.keep_blocks.clear();
    for (std::uint64_t b = 0; b < cfg.grid.count(); ++b)
      cfg.keep_blocks.push_back(static_cast<std::uint32_t>(b));
  }
  cfg.schedule = p.schedule;
  cfg.workers = p.workers;
  cfg.instances = true;  // the rewriter's Loop, Iter and Frame give each access its instance
  p.registers_only = KeepsArraysInRegisters(name);
  if (ProgressCell* progress = Progress()) {  // the parent shows how far the launch has got
    std::strncpy(progress->kernel, name, sizeof progress->kernel - 1);
    progress->blocks_done.store(0, std::memory_order_relaxed);
    progress->blocks.store(cfg.grid.count(), std::memory_order_relaxed);
    static std::uint32_t launches = 0;
    progress->launch.store(++launches, std::memory_order_release);
    cfg.blocks_done = &progress->blocks_done;
  }
  std::fflush(stdout);  // what the host printed before a launch that may never end is kept
  if (p.sticky_error != cudaSuccess) {  // after a failed assert no kernel runs
    p.last_error = p.sticky_error;
    return;
  }
  p.assert_failed = false;
  (void)TakeFlops();  // a launch that failed before this one left its count
  CompiledCodeLaunching(name, p.sites);
  auto run = emu::RunLaunch(cfg, [&] { body(context); });
  FlushPrinted();
  if (!run.ok() && p.assert_failed) {
    // As on a GPU: the launch ends, and the program learns it from its next call.
    p.sticky_error = p.last_error = cudaErrorAssert;
    return;
  }
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
  t.engine = engine_reason.empty() ? "simt" : "fiber";
  t.engine_reason = engine_reason;
  t.origin = LaunchOrigin();
  t.stats.flops = TakeFlops();
  t.stats.flops_counted = true;
  NameProgramSites(t, p.sites);
  std::lock_guard lock(p.mutex);
  // The model's time of the launch (kernel_table.h): its DRAM sectors at the preset's bandwidth,
  // its shared wavefronts at one per cycle per SM (bank conflicts cost time) and its FLOPs at the
  // FP32 peak, added, and a launch's fixed overhead.
  p.model_ms += kModeledLaunchOverheadMs + ModelLaunchTime(t, p.preset).ms();
  p.run.file = p.sites.main_file;
  p.run.backend = "emu";
  p.run.preset = p.preset.name;
  KeepLaunch(p.run, std::move(t));
}

}  // namespace ws::prog
