// The emulator runtime (see emu_runtime.h): a launch's workers and their fibers, the canonical
// ids of its sites, and the functions a kernel calls (ws_cuda_emu.h). The worker's class is in
// worker.h, split by feature over the worker_*.cpp files beside this one. Fiber switches go
// through Boost.Context's fcontext (about 5 ns each, against ~200 ns for ucontext, which makes a
// system call); under ASan each switch is announced to the sanitizer so it tracks the fiber
// stacks.
//
// Index of this file:
// [SECTION] Fiber stacks
// [SECTION] Worker: fibers and the block loop
// [SECTION] Canonical ids
// [SECTION] The API kernels call
// [SECTION] RunLaunch
#include <boost/context/protected_fixedsize_stack.hpp>

#include <malloc.h>

#include <algorithm>
#include <optional>
#include <sstream>
#include <thread>

#include "emu/thread_pool.h"
#include "emu/worker.h"
#include "emu/worker_cluster.h"
#include "warpscope/kernels/ws_program_simt.h"
#include "warpscope/trace/block_schedule.h"

namespace ws::emu {

constinit thread_local ThreadState* t_thread = nullptr;
constinit thread_local bool t_reads_pending = false;

namespace detail {

constinit thread_local Worker* t_worker = nullptr;
constinit thread_local ThreadCtx* t_ctx = nullptr;

namespace {

//-------------------------------------------------------------------------------------------------
// [SECTION] Fiber stacks
//-------------------------------------------------------------------------------------------------

// Fiber stacks (with a guard page each) are kept across launches: a slider drag re-runs a lesson
// many times a second, and mapping a thousand stacks (or a warp's megabyte, whose first pages its
// variables then fault in) every time costs more than the run.
template <std::size_t bytes, std::size_t keep>
class StackPool {
 public:
  ctx::stack_context Get() {
    {
      std::lock_guard lock(mutex_);
      if (!free_.empty()) {
        ctx::stack_context sc = free_.back();
        free_.pop_back();
        return sc;
      }
    }
    return ctx::protected_fixedsize_stack(bytes).allocate();
  }
  void Put(ctx::stack_context sc) {
    std::lock_guard lock(mutex_);
    if (free_.size() < keep) {
      free_.push_back(sc);
    } else {
      ctx::protected_fixedsize_stack(bytes).deallocate(sc);
    }
  }

 private:
  std::mutex mutex_;
  std::vector<ctx::stack_context> free_;
};

// Enough for 4 workers of 1024 threads (or of 32 warps); never destroyed: fibers may outlive
// statics.
template <std::size_t bytes>
auto& Stacks() {
  static auto *pool = new StackPool < bytes, bytes == kStackBytes ? 4096 : 128 > ();
  return *pool;
}

std::atomic<std::uint32_t> g_launch_tag{0};

// A launch's workers make and free their scratch (logs, shadow batches, the interval's pairs)
// each time; glibc returns the larger blocks to the system at once (mmap'd, or trimmed off the
// heap's top), and the next launch faults every page in again: a quarter of a small lesson's
// time, and of a slider's. Blocks under 16 MiB stay in the process for reuse, and a free top of
// the heap is trimmed past 64 MiB (multi-gpu's 16 launches: 13,000 page faults to 5,700; A/B wall
// 0.84, 10 pairs; the 1024^2 tiled matmul's peak unchanged at 393 MB, where 64 and 256 MiB took
// it to 450 MB).
[[maybe_unused]] const bool g_malloc_kept = [] {
  mallopt(M_MMAP_THRESHOLD, 16 << 20);
  mallopt(M_TRIM_THRESHOLD, 64 << 20);
  return true;
}();

}  // namespace

template <std::size_t bytes>
ctx::stack_context PooledStack<bytes>::allocate() {
  return Stacks<bytes>().Get();
}
template <std::size_t bytes>
void PooledStack<bytes>::deallocate(ctx::stack_context& sc) {
  Stacks<bytes>().Put(sc);
}
template struct PooledStack<kStackBytes>;
template struct PooledStack<kWarpStackBytes>;

//-------------------------------------------------------------------------------------------------
// [SECTION] Worker: fibers and the block loop
//-------------------------------------------------------------------------------------------------

// One fiber per thread of a block, created once and reused block after block: each runs the
// kernel body, then parks with the scheduler until the next block (or until the worker quits).
void Worker::StartFibers(std::uint32_t n) {
  threads_.resize(n);
  fibers_.reserve(n);
  PooledStack<kStackBytes> alloc;
  for (std::uint32_t i = 0; i < n; ++i) {
    ThreadCtx* c = &threads_[i];
    const ctx::stack_context sc = alloc.allocate();
    c->stack.bottom = static_cast<char*>(sc.sp) - sc.size;
    c->stack.size = sc.size;
    FreshStack(c->stack);
    fibers_.emplace_back(std::allocator_arg, ctx::preallocated(sc.sp, sc.size, sc), alloc,
                         [this, c](ctx::fiber&& sched) {
                           AfterSwitch(c->stack, &scheduler_stack_);
                           c->scheduler = std::move(sched);
                           while (!quitting_) {
                             c->in_kernel = true;
                             try {
                               (*launch_->body)();
                               c->status = ThreadStatus::kExited;
                             } catch (const ThreadAbort&) {
                               c->status = ThreadStatus::kFaulted;
                             }
                             c->in_kernel = false;
                             YieldToScheduler(c);
                           }
                           BeforeFinalSwitch(scheduler_stack_);
                           return std::move(c->scheduler);
                         });
  }
}

void Worker::Run() {
  t_worker = this;
  const LaunchConfig& cfg = *launch_->config;
  const std::uint32_t n = static_cast<std::uint32_t>(cfg.block.count());
  simt_ = launch_->warp_body != nullptr;
  if (simt_)
    StartWarpFibers(n);
  else
    StartFibers(n);
  const std::uint64_t blocks = cfg.grid.count();
  if (team_ != nullptr) {  // a cluster launch: the team's clusters
    RunClusters();
    StopFibers(n);
    MergeIntoLaunch();
    return;
  }
  std::optional<BlockDispatcher> dispatcher;
  if (cfg.model_sms > 0 && !cfg.cooperative)
    dispatcher.emplace(cfg.model_sms, cfg.model_blocks_per_sm);
  for (;;) {
    const std::uint64_t b = launch_->next_block.fetch_add(1);
    if (b >= blocks || b > launch_->stop_after.load()) break;
    BlockPlacement placed;
    if (dispatcher) {  // one worker: blocks come in index order
      placed = dispatcher->Place(static_cast<std::uint32_t>(b));
      block_sm_ = static_cast<unsigned>(placed.sm);
      block_start_ = static_cast<std::uint64_t>(placed.start);
    }
    if (!(simt_ ? RunBlockSimt(b) : RunBlock(b))) {
      // The failed block's requests so far count, as each did when it was made.
      requests_.AddCounted(local_sites_, launch_->config->buffers, &stats_);
      if (launch_->grid) launch_->grid->Leave(b, true);
      break;
    }
    if (launch_->grid) launch_->grid->Leave(b, false);
    if (cfg.blocks_done != nullptr) cfg.blocks_done->fetch_add(1, std::memory_order_relaxed);
    if (dispatcher) {  // the block ends when its last thread does
      std::uint32_t last = 0;
      for (const ThreadCtx& c : threads_) last = std::max(last, c.clock);
      dispatcher->Finish(placed, static_cast<double>(block_start_ + last));
    }
  }
  StopFibers(n);
  MergeIntoLaunch();
}

void Worker::StopFibers(std::uint32_t n) {
  // Let every parked fiber leave its loop and return, so its stack unwinds cleanly. A fiber
  // still inside the kernel (its block failed) must not run on: it is destroyed below.
  quitting_ = true;
  // Fibers stopped inside the kernel (their block failed while they waited at a barrier or a
  // pipeline's wait) are resumed to throw ThreadAbort where they yielded, and unwind their kernel
  // frames as a failed thread does, on a switch AddressSanitizer is told of. Destroyed instead,
  // Boost unwound them on their stacks without telling it: the frames the unwinder left kept
  // their redzones, and a landing pad's __asan_handle_no_return then read them as an overflow (a
  // block pipeline's consumers parked at consumer_wait(), every run under the sanitizers, though
  // the stacks were cleared first as below).
  aborting_ = true;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (fibers_[i] && threads_[i].in_kernel) Resume(i);
  }
  aborting_ = false;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (fibers_[i] && !threads_[i].in_kernel) Resume(i);
  }
  // Any fiber still in the kernel is destroyed with its stack cleared first (nothing is checked
  // in it any more).
  for (std::uint32_t i = 0; i < n; ++i)
    if (fibers_[i] && threads_[i].in_kernel) FreshStack(threads_[i].stack);
  fibers_.clear();
}

// This worker's tallies and counts into the launch's.
void Worker::MergeIntoLaunch() {
  std::lock_guard lock(launch_->mutex);
  launch_->hazards.Merge(hazard_tally_);
  std::vector<std::uint8_t>& broken = launch_->only_read_broken;
  if (broken.size() < only_read_.size()) broken.resize(only_read_.size(), 0);
  for (std::size_t i = 0; i < only_read_.size(); ++i) broken[i] |= only_read_[i] == 2 ? 1 : 0;
  launch_->stats.Merge(stats_);
  if (launch_->warp_op_counts.size() < warp_op_counts_.size())
    launch_->warp_op_counts.resize(warp_op_counts_.size(), 0);
  for (std::size_t i = 0; i < warp_op_counts_.size(); ++i)
    launch_->warp_op_counts[i] += warp_op_counts_[i];
}

//-------------------------------------------------------------------------------------------------
// [SECTION] Canonical ids
//-------------------------------------------------------------------------------------------------

namespace {

// Turns first-come provisional site ids into the canonical order, so that traces do not depend
// on which worker saw a site first.
void Canonicalize(Launch& L, LaunchTrace& t) {
  std::vector<std::uint64_t> keys;
  for (const auto& [k, id] : L.site_ids) keys.push_back(k);
  SiteTable table = BuildSiteTable(keys);
  std::vector<std::uint16_t> remap(L.site_ids.size());
  for (const auto& [k, id] : L.site_ids) remap[id] = table.id_of_key.at(k);
  t.sites = std::move(table.sites);
  for (const auto& [k, id] : table.id_of_key) {
    const auto note = L.fragment_notes.find(k & ~std::uint64_t{0xff});  // the key but its size
    if (note != L.fragment_notes.end()) t.sites[id].fragment = note->second;
  }
  std::vector<std::pair<std::uint32_t, std::uint16_t>> bars(L.barrier_ids.begin(),
                                                            L.barrier_ids.end());
  std::vector<std::uint16_t> bremap(bars.size());
  for (std::size_t i = 0; i < bars.size(); ++i) {  // std::map: already sorted by place
    const auto tile = L.barrier_tiles.find(bars[i].first);
    t.barrier_sites.push_back({PlaceLine(bars[i].first), "",
                               static_cast<std::uint16_t>(PlaceFile(bars[i].first)), "",
                               tile == L.barrier_tiles.end() ? 0u : tile->second});
    bremap[bars[i].second] = static_cast<std::uint16_t>(i);
  }
  LaunchStats stats;
  stats.Resize(t.sites.size(), t.barrier_sites.size());
  for (std::size_t old = 0; old < L.stats.sites.size() && old < remap.size(); ++old) {
    stats.sites[remap[old]] = L.stats.sites[old];
  }
  for (std::size_t old = 0; old < L.stats.barriers.size() && old < bremap.size(); ++old) {
    stats.barriers[bremap[old]] = L.stats.barriers[old];
  }
  stats.access_records = L.stats.access_records;
  stats.barrier_records = L.stats.barrier_records;
  stats.divergent_warps = L.stats.divergent_warps;
  stats.thread_clock = L.stats.thread_clock;
  stats.cluster_bytes = L.stats.cluster_bytes;
  stats.cluster_accesses = L.stats.cluster_accesses;
  t.stats = std::move(stats);
  // Warp-op sites in (place, kind) order.
  std::vector<std::uint16_t> wremap(L.warp_op_ids.size());
  std::size_t wi = 0;
  for (const auto& [key, id] : L.warp_op_ids) {  // std::map: sorted by (place, kind)
    const std::uint32_t place = static_cast<std::uint32_t>(key >> 8);
    WarpOpSite site;
    site.line = PlaceLine(place);
    site.file_tag = static_cast<std::uint16_t>(PlaceFile(place));
    site.kind = static_cast<WarpOpKind>(key & 0xffu);
    t.warp_op_sites.push_back(site);
    t.warp_op_counts.push_back(id < L.warp_op_counts.size() ? L.warp_op_counts[id] : 0);
    wremap[id] = static_cast<std::uint16_t>(wi++);
  }
  if (L.config->whole_grid_hazards) {
    HazardTally tally = L.hazards;
    tally.Merge(L.shadow.tally());
    tally.Merge(L.grid_tally);
    for (const auto& s : L.grid_shadows)
      if (s) tally.Merge(s->tally());
    t.hazards = tally.Report(t.sites, t.buffers, remap);
    t.hazards.whole_grid = true;
    t.hazards.grid_synced = L.config->cooperative;
    t.hazards.blocks_in_grid = t.grid.count();
    // What was checked: every shared and global access (an interval that wrote nothing is not
    // paired, but its accesses were looked at all the same).
    t.hazards.shared_accesses = t.hazards.global_accesses = 0;
    for (std::size_t i = 0; i < t.sites.size() && i < t.stats.sites.size(); ++i) {
      if (t.sites[i].space == MemorySpace::kShared)
        t.hazards.shared_accesses += t.stats.sites[i].accesses;
      else if (t.sites[i].space == MemorySpace::kGlobal)
        t.hazards.global_accesses += t.stats.sites[i].accesses;
    }
    t.hazards.values_known = t.hazards.shared_accesses + t.hazards.global_accesses > 0;
    // The loads of a buffer the kernel's text only reads skipped the check; where a store
    // reached one after all (Worker::OnlyReadSkips), they were not checked: counted.
    for (std::size_t i = 0; i < t.sites.size() && i < t.stats.sites.size(); ++i) {
      const SiteInfo& s = t.sites[i];
      if (s.space == MemorySpace::kGlobal && s.op == AccessOp::kLoad &&
          s.buffer < L.only_read_broken.size() && L.only_read_broken[s.buffer] != 0)
        t.hazards.unlogged_reads += t.stats.sites[i].accesses;
    }
  }
  for (auto& [b, rec] : L.kept) {
    for (AccessRecord& a : rec.accesses) a.site = remap[a.site];
    for (BarrierRecord& r : rec.barriers) r.site = bremap[r.site];
    for (WarpOpRecord& w : rec.warp_ops) w.site = wremap[w.site];
    t.blocks.push_back(std::move(rec));
  }
}

}  // namespace
}  // namespace detail

//-------------------------------------------------------------------------------------------------
// [SECTION] The API kernels call
//-------------------------------------------------------------------------------------------------

using detail::Canonicalize;
using detail::g_launch_tag;
using detail::Launch;
using detail::t_worker;

namespace {
// In a warp function: the lane whose turn it is (WS_SIMT_LANES points t_thread at its state).
int RunningLane() {
  const ThreadState* t = t_thread;
  return static_cast<int>(
      (t->thread_idx.x + t->block_dim.x * (t->thread_idx.y + t->block_dim.y * t->thread_idx.z)) &
      31u);
}
}  // namespace
using detail::Worker;

void RecordAccess(std::uint64_t key, std::uint32_t offset, const void* where) {
  t_worker->Record(key, offset, where);
}

void CheckIndex(long long index, unsigned long long count, std::uint32_t place, const char* what) {
  std::ostringstream m;
  m << "index " << index << " is outside the " << what << " of " << count << " elements";
  t_worker->Fail(place, m.str());
}

void SyncThreads(std::uint32_t place) {
  t_worker->Barrier(place);
}

const void* ConstantSymbol(const void* symbol, std::uint32_t* buffer, std::uint32_t place) {
  for (const LaunchConfig::ConstantBinding& c : CurrentLaunchConfig().constant_symbols) {
    if (c.symbol != symbol) continue;
    *buffer = c.buffer;
    return c.data;
  }
  t_worker->Fail(place, "a __constant__ array read before cudaMemcpyToSymbol filled it");
}

int SyncThreadsCount(std::uint32_t place, int predicate) {
  return t_worker->BarrierCount(place, predicate);
}

void TileSync(std::uint32_t threads, std::uint32_t place) {
  t_worker->TileBarrier(threads, place);
}

std::uint64_t* TileSlots() {
  return t_worker->TileSlots();
}

void GridSync(std::uint32_t place) {
  t_worker->GridBarrier(place);
}

std::uint64_t WarpOp(std::uint32_t kind, std::uint32_t mask, std::uint64_t value, int arg,
                     int width, std::uint32_t place) {
  if (::ws::simt::WarpCall* call = ::ws::simt::t_warp_call) {
    // A warp function's call (ws_program_simt.h): noted for the meeting, then its result.
    const int lane = RunningLane();
    if (call->noting) {
      SimtWarpOpNote(lane, kind, mask, value, arg, width, place);
      return value;
    }
    return SimtWarpOpResult(lane);
  }
  return t_worker->WarpOp(kind, mask, value, arg, width, place);
}

void RecordWarpAccess(std::uint64_t key, std::uint32_t mask, const std::uint32_t (&offsets)[32],
                      const std::uint32_t (&times)[32], const std::uint64_t* values,
                      const void* const* ptrs) {
  t_worker->RecordWarp(key, mask, offsets, times, values, ptrs);
}
void RecordWarpAffine(std::uint64_t key, std::uint32_t first, std::int32_t step, std::int32_t delta,
                      std::uint32_t group, const std::uint32_t (&times)[32],
                      const std::uint64_t* values, const void* const* ptrs) {
  t_worker->RecordWarpAffine(key, first, step, delta, group, times, values, ptrs);
}
void SimtReadValues() {
  t_worker->SimtMaterialize();
}
void OnlyRead(const std::uint32_t* read, std::size_t reads, const std::uint32_t* written,
              std::size_t writes) {
  t_worker->OnlyRead(read, reads, written, writes);
}
bool WarpBarrier(std::uint32_t mask, std::uint32_t place) {
  return t_worker->WarpBarrier(mask, place);
}
void WarpExit(std::uint32_t mask) {
  t_worker->WarpExit(mask);
}
void EnterLane(int lane) {
  t_worker->EnterLane(lane);
}
int OnFiberStack(const void* p) {
  using detail::t_ctx;
  if (t_ctx == nullptr || t_ctx->stack.size == 0) return -1;
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  const auto bottom = reinterpret_cast<std::uintptr_t>(t_ctx->stack.bottom);
  return at - bottom < t_ctx->stack.size ? 1 : 0;
}
void SimtWarpOpNote(int lane, std::uint32_t kind, std::uint32_t mask, std::uint64_t value, int arg,
                    int width, std::uint32_t place) {
  t_worker->SimtWarpOpNote(lane, kind, mask, value, arg, width, place);
}
void SimtWarpOpMeet() {
  t_worker->SimtWarpOpMeet();
}
std::uint64_t SimtWarpOpResult(int lane) {
  return t_worker->SimtWarpOpResult(lane);
}
void LeaveLanes() {
  t_worker->LeaveLanes();
}
void FailThread(std::uint32_t place, const std::string& what) {
  t_worker->Fail(place, what);
}

void WaitFor(std::uint32_t place, std::string what, std::function<bool(std::uint32_t*)> ready) {
  if (::ws::simt::t_warp != nullptr)
    t_worker->Fail(place,
                   what + " in a warp function: a bug (its kernel should run thread by thread)");
  t_worker->Wait(place, std::move(what), std::move(ready));
}

void OrderBlockAt(std::uint32_t time) {
  t_worker->OrderBlockAt(time);
}

void NoteAsyncEvent(int kind, std::uint32_t group, std::uint32_t stages) {
  t_worker->NoteAsync(static_cast<AsyncEventKind>(kind), group, stages);
}

void NoteFragmentSite(std::uint64_t key, const std::function<std::string()>& what) {
  t_worker->NoteFragment(key, what);
}

void ReportEarlyRead(std::uint64_t copy_key, std::uint64_t read_key, std::uint32_t offset) {
  t_worker->EarlyRead(copy_key, read_key, offset);
}

std::uint32_t CurrentLaunchTag() {
  return t_worker->LaunchTag();
}

const LaunchConfig& CurrentLaunchConfig() {
  return t_worker->Config();
}

std::uint32_t SharedArrayBase(std::uint32_t bytes, std::uint32_t* tag, std::uint32_t* base,
                              void* data) {
  return t_worker->SharedBase(bytes, tag, base, data);
}

void AddWork(std::uint32_t units) {
  if (::ws::simt::Warp* w = ::ws::simt::t_warp) {  // a warp function's lane: its own clock
    w->clk[RunningLane()] += units;
    return;
  }
  t_worker->AddWork(units);
}

unsigned int SmId() {
  return t_worker->SmId();
}

unsigned long long GlobalTimer() {
  if (const ::ws::simt::Warp* w = ::ws::simt::t_warp)  // a warp function's lane: its own clock
    return t_worker->BlockStart() + w->clk[RunningLane()];
  return t_worker->GlobalTimer();
}

unsigned long long ThreadClock() {
  if (const ::ws::simt::Warp* w = ::ws::simt::t_warp) return w->clk[RunningLane()];
  return t_worker->ThreadClock();
}

// A program's read of a clock is the launch's floor (Worker::NoteClockRead): a thread that read
// 19.8 M cycles of clock has waited 10 ms at the preset's 1.98 GHz.
void NoteClockRead() {
  t_worker->NoteClockRead(ThreadClock());
}

unsigned char* DynamicSharedMemory(std::uint32_t* bytes, std::uint32_t* offset) {
  return t_worker->DynamicShared(bytes, offset);
}

//-------------------------------------------------------------------------------------------------
// [SECTION] RunLaunch
//-------------------------------------------------------------------------------------------------

Result<LaunchTrace> RunLaunch(const LaunchConfig& config, const std::function<void()>& body) {
  if (Status s = CheckLaunch(config.preset, config.grid, config.block,
                             config.shared_bytes + config.dynamic_shared_bytes);
      !s.ok()) {
    return Status::Error(config.kernel + ": " + s.message());
  }
  if (!(config.cluster == Dim3{1, 1, 1})) {  // a dimension of 0 too
    if (Status s = CheckCluster(config); !s.ok())
      return Status::Error(config.kernel + ": " + s.message());
    if (config.cooperative)
      return Status::Error(config.kernel +
                           ": a cooperative launch of a kernel in clusters is not supported (yet)");
  }
  Launch L;
  L.config = &config;
  L.body = &body;
  // The SIMT path where the kernel has a warp function and the launch needs no thread-by-thread
  // order (another schedule). (The block-scheduler model reads each lane's clock: GlobalTimer.)
  if (config.warp_body && config.schedule.kind == Schedule::Kind::kInOrder)
    L.warp_body = &config.warp_body;
  L.tag = ++g_launch_tag;
  L.keep_sorted = config.keep_blocks;
  std::sort(L.keep_sorted.begin(), L.keep_sorted.end());
  const std::uint64_t blocks = config.grid.count();
  if (!config.cache_probes.empty())
    L.cache = std::make_unique<GridCacheReplay>(config.cache_probes, blocks, config.block.count());
  if (blocks * config.block.count() <= LaunchTrace::kMaxActivityThreads)
    L.active.assign(blocks * config.block.count(), 0);
  if (config.model_sms > 0) {
    if (Status s = CheckBlockSchedule(config.model_sms, config.model_blocks_per_sm); !s.ok())
      return Status::Error(config.kernel + ": " + s.message());
  }
  // The cores, asked once: glibc opens and reads /sys/devices/system/cpu/online on each call
  // (5 % of a one-thread launch's time).
  static const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  unsigned workers = config.workers ? config.workers : cores;
  if (config.model_sms > 0) workers = 1;  // the model deals blocks one after another
  workers = static_cast<unsigned>(std::min<std::uint64_t>(workers, blocks));
  // A cooperative launch: every block resident at once, each on a worker of its own.
  if (config.cooperative) {
    workers = static_cast<unsigned>(blocks);
    L.grid = std::make_unique<detail::GridRendezvous>(blocks);
  }
  // A cluster launch: teams of the cluster's size, as many as the workers asked for hold (one at
  // least), whose blocks wait for each other at their syncs: the race check's shadow must not make
  // one wait for its turn there (ShadowOrder::NeverWait).
  const auto cluster = static_cast<std::uint32_t>(config.cluster.count());
  if (cluster > 1) {
    const std::uint64_t teams =
        std::max<std::uint64_t>(1, std::min<std::uint64_t>(blocks / cluster, workers / cluster));
    for (std::uint64_t t = 0; t < teams; ++t)
      L.teams.push_back(std::make_unique<detail::ClusterTeam>(&L, cluster));
    workers = static_cast<unsigned>(teams * cluster);
    L.shadow.NeverWait(blocks);
  }
  std::vector<std::unique_ptr<Worker>> pool;
  for (unsigned i = 0; i < workers; ++i) {
    pool.push_back(std::make_unique<Worker>(&L));
    if (!L.teams.empty()) pool.back()->JoinTeam(L.teams[i / cluster].get(), i % cluster);
  }
  RunOnWorkers(workers, [&pool](unsigned i) { pool[i]->Run(); });
  if (!L.error.empty()) return Status::Error(config.kernel + ": " + L.error);

  LaunchTrace t;
  t.kernel = config.kernel;
  t.grid = config.grid;
  t.block = config.block;
  t.cluster = config.cluster;
  t.shared_bytes = config.shared_bytes;
  t.buffers = config.buffers;
  t.truncated = L.truncated.load();
  Canonicalize(L, t);
  if (L.cache) t.cache_replays = L.cache->Finish();
  t.thread_active = std::move(L.active);
  // (A cooperative launch's kept blocks do not mark its grid syncs: within each block only.)
  if (!config.whole_grid_hazards) t.hazards = FindHazards(t, !config.cooperative);
  return t;
}

}  // namespace ws::emu
