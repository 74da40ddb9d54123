// The emulator runtime (see emu_runtime.h). Fiber switches go through Boost.Context's fcontext
// (about 5 ns each, against ~200 ns for ucontext, which makes a system call); under ASan each
// switch is announced to the sanitizer so it tracks the fiber stacks.
#include <boost/context/fiber.hpp>
#include <boost/context/protected_fixedsize_stack.hpp>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include "emu/fiber_asan.h"
#include "emu/instance_table.h"
#include "emu/shadow_order.h"
#include "emu/warp_meeting.h"
#include "warpscope/kernels/emu_runtime.h"
#include "warpscope/kernels/site_table.h"
#include "warpscope/kernels/ws_cuda.h"
#include "warpscope/trace/analysis.h"
#include "warpscope/trace/block_schedule.h"
#include "warpscope/trace/hazards.h"

namespace ws::emu {

thread_local ThreadState* t_thread = nullptr;

namespace {

namespace ctx = boost::context;

constexpr std::size_t kMaxSites = 256;
// A kept block's access records at most (36 bytes each with their values: 576 MB).
constexpr std::size_t kMaxKept = std::size_t{16} << 20;
constexpr std::size_t kMaxBarrierSites = 16;
constexpr std::size_t kMaxWarpOpSites = 32;
#if defined(__SANITIZE_ADDRESS__)
constexpr std::size_t kStackBytes = 256 * 1024;
#else
constexpr std::size_t kStackBytes = 64 * 1024;
#endif

struct ThreadAbort {};  // unwinds a fiber whose thread hit an error

// Shared memory a block has not written holds this byte in every place (a GPU leaves it
// undefined): a float read from it is a NaN and an int -1, so a race that reads a slot before
// its writer shows in the output check, never equal to a right answer by chance (as 0 would be).
constexpr unsigned char kUnwrittenShared = 0xff;

// Fiber stacks (with a guard page each) are kept across launches: a slider drag re-runs a lesson
// many times a second, and mapping a thousand stacks every time costs more than the run.
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
    return ctx::protected_fixedsize_stack(kStackBytes).allocate();
  }
  void Put(ctx::stack_context sc) {
    std::lock_guard lock(mutex_);
    if (free_.size() < kKeep) {
      free_.push_back(sc);
    } else {
      ctx::protected_fixedsize_stack(kStackBytes).deallocate(sc);
    }
  }

 private:
  static constexpr std::size_t kKeep = 4096;  // enough for 4 workers of 1024 threads
  std::mutex mutex_;
  std::vector<ctx::stack_context> free_;
};

StackPool& Stacks() {
  static StackPool* pool = new StackPool();  // never destroyed: fibers may outlive statics
  return *pool;
}

// The allocator Boost calls when a fiber ends: the stack goes back to the pool.
struct PooledStack {
  ctx::stack_context allocate() { return Stacks().Get(); }
  void deallocate(ctx::stack_context& sc) { Stacks().Put(sc); }
};

enum class ThreadStatus : std::uint8_t { kReady, kAtBarrier, kAtWarpOp, kExited, kFaulted };

struct ThreadCtx {
  ThreadState state{};
  std::uint32_t linear = 0;
  std::uint32_t clock = 0;
  ThreadStatus status = ThreadStatus::kReady;
  std::uint32_t barrier_place = 0;  // MakePlace(file, line) of the barrier it waits at
  std::uint32_t epoch = 0;          // barriers passed so far
  bool in_kernel = false;           // suspended inside the kernel body (at a barrier), not parked
  bool touched = false;             // made an access or met a barrier in this block
  std::uint32_t site_count[kMaxSites] = {};
  std::uint32_t sites_used = 0;  // site_count[0, sites_used) may be non-zero
  std::uint32_t barrier_count[kMaxBarrierSites] = {};
  int barrier_predicate = 0;  // __syncthreads_count(): what this thread brought
  int barrier_result = 0;     // and what it gets: the block's count
  // At a warp-level intrinsic (kAtWarpOp): what the lane brought, and what it gets back.
  std::uint32_t warp_place = 0, warp_kind = 0, warp_mask = 0;
  std::uint64_t warp_value = 0, warp_result = 0;
  int warp_arg = 0, warp_width = 32;
  // A kept store's value is read back at the thread's next stop (the store happens just after
  // its record): where, how many bytes, and which entry of the block's values it fills.
  const void* pending_where = nullptr;
  std::uint32_t pending_bytes = 0;
  std::size_t pending_index = 0;
  bool pending_in_log = false;  // the entry is log[pending_index] (else the block's values)
  ctx::fiber scheduler;         // where to go when this thread yields
  FiberStack stack;             // for the ASan annotations
  // The accesses it made since its warp's last round (Worker::Record's warp logs): site,
  // offset and dynamic instance each.
  // With the race check on (Worker::hazards_), the log holds the barrier interval: its entries
  // before `formed` are in requests already; each has its time and value too.
  struct Logged {
    std::uint32_t offset, instance;
    std::uint16_t site;
    std::uint32_t time;
    std::uint64_t value;
  };
  std::vector<Logged> log;
  std::size_t formed = 0;
  static_assert(sizeof(Logged) == 24, "a log entry is 24 bytes");
};

// What all workers of one launch share.
struct Launch {
  const LaunchConfig* config = nullptr;
  const std::function<void()>* body = nullptr;
  std::uint32_t tag = 0;
  std::atomic<std::uint64_t> next_block{0};
  std::atomic<std::uint64_t> stop_after{~0ull};  // blocks above the first faulting one are skipped
  std::mutex mutex;
  std::map<std::uint64_t, std::uint16_t> site_ids;  // key -> provisional id (first come)
  std::vector<SiteInfo> sites_by_id;                // provisional id -> info, written under mutex
  std::map<std::uint32_t, std::uint16_t> barrier_ids;  // place -> provisional id
  std::map<std::uint64_t, std::uint16_t> warp_op_ids;  // (place << 8 | kind) -> provisional id
  std::vector<std::uint64_t> warp_op_counts;           // by provisional id
  std::atomic<bool> truncated{false};  // a block's figures are partial (memory bounds)
  std::uint64_t error_block = ~0ull;
  std::string error;
  std::map<std::uint32_t, BlockRecords> kept;
  LaunchStats stats;
  std::vector<std::uint8_t> active;  // per thread; each worker writes only its blocks' bytes
  // Races over the whole grid (LaunchConfig::whole_grid_hazards): each worker pairs the accesses
  // within its blocks' barrier intervals; the global accesses go through one shadow in block
  // order (shadow_order.h).
  HazardTally hazards;  // the workers' tallies, merged as each finishes (under mutex)
  ShadowOrder shadow;
  std::unique_ptr<GridCacheReplay> cache;  // LaunchConfig::cache_probes, if any
};

std::atomic<std::uint32_t> g_launch_tag{0};

class Worker;
thread_local Worker* t_worker = nullptr;
thread_local ThreadCtx* t_ctx = nullptr;

class Worker {
 public:
  explicit Worker(Launch* launch)
      : launch_(launch),
        step_each_access_(launch->config->schedule.StepsEachAccess()),
        hazards_(launch->config->whole_grid_hazards),
        instances_(launch->config->instances) {}

  void Run() {
    t_worker = this;
    const LaunchConfig& cfg = *launch_->config;
    const std::uint32_t n = static_cast<std::uint32_t>(cfg.block.count());
    threads_.resize(n);
    fibers_.reserve(n);
    PooledStack alloc;
    for (std::uint32_t i = 0; i < n; ++i) {
      ThreadCtx* c = &threads_[i];
      const ctx::stack_context sc = alloc.allocate();
      c->stack.bottom = static_cast<char*>(sc.sp) - sc.size;
      c->stack.size = sc.size;
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
    const std::uint64_t blocks = cfg.grid.count();
    std::optional<BlockDispatcher> dispatcher;
    if (cfg.model_sms > 0) dispatcher.emplace(cfg.model_sms, cfg.model_blocks_per_sm);
    for (;;) {
      const std::uint64_t b = launch_->next_block.fetch_add(1);
      if (b >= blocks || b > launch_->stop_after.load()) break;
      BlockPlacement placed;
      if (dispatcher) {  // one worker: blocks come in index order
        placed = dispatcher->Place(static_cast<std::uint32_t>(b));
        block_sm_ = static_cast<unsigned>(placed.sm);
        block_start_ = static_cast<std::uint64_t>(placed.start);
      }
      if (!RunBlock(b)) break;
      if (cfg.blocks_done != nullptr) cfg.blocks_done->fetch_add(1, std::memory_order_relaxed);
      if (dispatcher) {  // the block ends when its last thread does
        std::uint32_t last = 0;
        for (const ThreadCtx& c : threads_) last = std::max(last, c.clock);
        dispatcher->Finish(placed, static_cast<double>(block_start_ + last));
      }
    }
    // Let every parked fiber leave its loop and return, so its stack unwinds cleanly. A fiber
    // still inside the kernel (its block failed) must not run on: it is destroyed below.
    quitting_ = true;
    for (std::uint32_t i = 0; i < n; ++i) {
      if (!threads_[i].in_kernel) Resume(i);
    }
    // Fibers stopped mid-kernel (a faulted block) are destroyed here; Boost unwinds them.
    fibers_.clear();
    std::lock_guard lock(launch_->mutex);
    launch_->hazards.Merge(hazard_tally_);
    launch_->stats.Merge(stats_);
    if (launch_->warp_op_counts.size() < warp_op_counts_.size())
      launch_->warp_op_counts.resize(warp_op_counts_.size(), 0);
    for (std::size_t i = 0; i < warp_op_counts_.size(); ++i)
      launch_->warp_op_counts[i] += warp_op_counts_[i];
  }

  // Every access asks: a direct-mapped cache of the keys this worker has seen answers.
  std::uint16_t SiteId(std::uint64_t key) {
    SiteSlot& slot = site_slots_[(key * 0x9e3779b97f4a7c15ull) >> 58];
    if (slot.key == key) [[likely]]
      return slot.id;
    slot = {key, SlowSiteId(key)};
    return slot.id;
  }

  // A slot missed: the key may still be this worker's (two keys can share a slot), else the
  // launch's table is asked under its lock.
  [[gnu::noinline]] std::uint16_t SlowSiteId(std::uint64_t key) {
    for (const auto& [k, id] : site_cache_) {
      if (k == key) return id;
    }
    std::uint16_t id = 0;
    bool too_many = false;
    {
      std::lock_guard lock(launch_->mutex);
      auto it = launch_->site_ids.find(key);
      if (it != launch_->site_ids.end()) {
        id = it->second;
      } else if (launch_->site_ids.size() >= kMaxSites) {
        too_many = true;
      } else {
        id = static_cast<std::uint16_t>(launch_->site_ids.size());
        launch_->site_ids.emplace(key, id);
        launch_->sites_by_id.push_back(SiteFromKey(key));
      }
      if (local_sites_.size() < launch_->sites_by_id.size()) {
        local_sites_.assign(launch_->sites_by_id.begin(), launch_->sites_by_id.end());
      }
    }
    // Fail takes the mutex itself: report only after releasing it.
    if (too_many)
      Fail(KeyPlace(key),
           "the kernel has more than " + std::to_string(kMaxSites) + " access sites");
    site_cache_.emplace_back(key, id);
    return id;
  }

  std::uint16_t BarrierId(std::uint32_t place) {
    for (const auto& [p, id] : barrier_cache_) {
      if (p == place) return id;
    }
    std::lock_guard lock(launch_->mutex);
    auto [it, fresh] = launch_->barrier_ids.try_emplace(
        place, static_cast<std::uint16_t>(launch_->barrier_ids.size()));
    (void)fresh;
    barrier_cache_.emplace_back(place, it->second);
    return it->second;
  }

  std::uint16_t WarpOpId(std::uint32_t place, std::uint32_t kind) {
    const std::uint64_t key = (std::uint64_t{place} << 8) | kind;
    for (const auto& [k, id] : warp_op_cache_) {
      if (k == key) return id;
    }
    std::unique_lock lock(launch_->mutex);
    if (launch_->warp_op_ids.size() >= kMaxWarpOpSites && !launch_->warp_op_ids.count(key)) {
      lock.unlock();
      Fail(place, "the kernel has more than " + std::to_string(kMaxWarpOpSites) +
                      " warp-level intrinsic sites");
    }
    auto [it, fresh] = launch_->warp_op_ids.try_emplace(
        key, static_cast<std::uint16_t>(launch_->warp_op_ids.size()));
    (void)fresh;
    warp_op_cache_.emplace_back(key, it->second);
    if (warp_op_kinds_.size() <= it->second) warp_op_kinds_.resize(it->second + 1u, 0xff);
    warp_op_kinds_[it->second] = static_cast<std::uint8_t>(kind);
    return it->second;
  }

  // Each access goes straight into its warp request's row (WarpRequests); full records are
  // written only for the blocks the user keeps.
  //
  // In a block that is not kept, under the in-order schedule, an access is only logged (its
  // site, offset and instance, and for the race check its time and value: a vector append;
  // CheckInterval reads the logs at each barrier); after each round of the warp's threads the
  // warp's logs are formed into requests at once (FormWarpRequests): where every running lane
  // stopped at a barrier and every lane logged the same sites and instances in the same order, as
  // lanes that do not diverge do, position k of the logs is one request, costed with no
  // per-access lookup. Elsewhere the logs are replayed through the per-access path (RecordNow),
  // in the order the lanes ran, which gives the same requests.
  void Record(std::uint64_t key, std::uint32_t offset, const void* where) {
    ThreadCtx* c = t_ctx;
    if (logging_) [[likely]] {
      const std::uint16_t id = SiteId(key);
      std::uint64_t value = 0;
      if (hazards_) {
        if (c->pending_where != nullptr) FlushValue(c);
        if (c->log.size() >= kMaxLogged) [[unlikely]]
          CutInterval();  // the race check takes the interval so far
        if (where != nullptr) {
          const auto bytes = std::min<std::uint32_t>(static_cast<std::uint32_t>(key & 0xffu), 8);
          if (((key >> 12) & 3u) == kKeyLoad) {
            value = LoadValue(where, bytes);
          } else {  // a store's value once it has happened, at the thread's next stop
            c->pending_where = where;
            c->pending_bytes = bytes;
            c->pending_index = c->log.size();
            c->pending_in_log = true;
          }
        }
        if (((key >> 12) & 3u) != kKeyLoad) interval_writes_ = interval_writes_ || ForHazards(key);
      }
      interval_global_ = interval_global_ || KeySpaceOf(key) == kKeyGlobal;
      c->log.push_back({offset, c->state.instance, id, c->clock, value});
      ++c->clock;
      c->touched = true;
      if (c->log.size() - c->formed >= kMaxLogged) [[unlikely]]
        ReplayLog(*c);  // a long loop with no barrier: this lane's log now, then replays
      return;
    }
    if (c->pending_where != nullptr) [[unlikely]]
      FlushValue(c);
    // Lockstep and random schedules: stop before the access; the scheduler says who goes next.
    if (step_each_access_) [[unlikely]]
      YieldToScheduler(c);
    const std::uint16_t id = SiteId(key);
    const std::uint32_t iteration = RecordNow(*c, id, offset, c->state.instance);
    const AccessRecord r{offset, iteration, c->clock, static_cast<std::uint16_t>(c->linear),
                         id,     c->epoch};
    if (keep_block_) [[unlikely]] {
      if (current_.accesses.size() < kMaxKept)
        Keep(r, key, where);
      else
        launch_->truncated = true;
    } else if (hazards_ && ForHazards(key)) {
      KeepForHazards(r, key, where);
    }
    if (launch_->cache) [[unlikely]]
      ForCache(r);
    ++c->clock;
    c->touched = true;
  }

  // A load one of the launch's cache probes replays: kept until the block ends. Past
  // kMaxCacheRecords the block's replay is partial and the launch is marked truncated.
  void ForCache(const AccessRecord& r) {
    if (cache_wants_.size() <= r.site) {
      const std::size_t from = cache_wants_.size();
      cache_wants_.resize(local_sites_.size());
      for (std::size_t i = from; i < cache_wants_.size(); ++i)
        cache_wants_[i] = launch_->cache->Wants(local_sites_[i]) ? 1 : 0;
    }
    if (!cache_wants_[r.site]) return;
    if (cache_records_.size() < kMaxCacheRecords)
      cache_records_.push_back(r);
    else
      launch_->truncated = true;
  }

  // Accesses the race check looks at: shared memory, and global memory but a thread's own local
  // arrays.
  static bool ForHazards(std::uint64_t key) {
    const std::uint32_t space = KeySpaceOf(key);
    return space == kKeyShared || (space == kKeyGlobal && KeyArray(key) != kKeyLocalArray);
  }

  // An access of a block that is not kept, for the race check of its barrier interval. An
  // interval longer than the check's bound is checked in pieces (the report says how many).
  void KeepForHazards(const AccessRecord& r, std::uint64_t key, const void* where) {
    if (current_.accesses.size() - hazards_begin_ >= HazardReport::kMaxIntervalAccesses)
        [[unlikely]] {
      ++hazard_tally_.cut_intervals;
      CheckInterval();
    }
    Keep(r, key, where);
  }

  // The lane logs hold more of a barrier interval than kMaxLogged: every lane's log goes into
  // requests by the per-access path and is checked now (the report counts the cut interval).
  void CutInterval() {
    ++hazard_tally_.cut_intervals;
    for (ThreadCtx& c : threads_) {
      if (c.pending_where != nullptr) FlushValue(&c);
      if (c.log.size() > c.formed) ReplayLog(c);
    }
    CheckInterval();
  }

  // The per-access path: the access joins its warp request's row (its number among the warp's
  // requests at the site: by dynamic instance, or the lane's k-th arrival).
  // Returns that number.
  std::uint32_t RecordNow(ThreadCtx& c, std::uint16_t id, std::uint32_t offset,
                          std::uint32_t instance) {
    if (id >= c.sites_used) c.sites_used = id + 1u;
    const std::uint32_t iteration = instances_ && !instance_table_.Full()
                                        ? instance_table_.Ordinal(id, c.linear, instance)
                                        : c.site_count[id]++;
    requests_.Add(id, iteration, static_cast<std::uint16_t>(c.linear), offset);
    return iteration;
  }

  // A lane's log through the per-access path, and its warp's later logs too (once a warp's
  // requests have rows, its lanes' later accesses may join them).
  void ReplayLog(ThreadCtx& c) {
    replay_[c.linear / 32] = 1;
    for (std::size_t k = c.formed; k < c.log.size(); ++k)
      RecordNow(c, c.log[k].site, c.log[k].offset, c.log[k].instance);
    Formed(c);
  }

  // A lane's log is in requests: kept for the race check (its interval), else dropped.
  void Formed(ThreadCtx& c) {
    if (hazards_) {
      c.formed = c.log.size();
    } else {
      c.log.clear();
    }
  }

  // Did every lane of the warp that is still running stop at a barrier? Then no lane can bring
  // an access of a dynamic instance in this round's logs in a later round, and the round's logs
  // are whole requests. Lanes stopped at warp-level meetings may go on in different rounds (the
  // groups of a cooperative groups' labeled partition each reduce by shuffles of their own, and
  // their leaders' atomic is one request on a GPU): their logs replay.
  bool WarpStopsTogether(std::uint32_t first, std::uint32_t end) const {
    for (std::uint32_t i = first; i < end; ++i) {
      const ThreadStatus s = threads_[i].status;
      if (s != ThreadStatus::kExited && s != ThreadStatus::kAtBarrier) return false;
    }
    return true;
  }

  // After a round of warp `w`'s threads (each ran until it stopped): its logs into requests.
  void FormWarpRequests(std::uint32_t w, std::uint32_t n) {
    const std::uint32_t first = w * 32, end = std::min(n, first + 32);
    std::uint32_t mask = 0;
    const ThreadCtx* lead = nullptr;
    bool same = replay_[w] == 0 && WarpStopsTogether(first, end);
    for (std::uint32_t i = first; i < end; ++i) {
      const ThreadCtx& c = threads_[i];
      if (c.log.size() == c.formed) continue;
      mask |= 1u << (i - first);
      if (lead == nullptr) {
        lead = &c;
      } else if (same) {
        same = c.log.size() - c.formed == lead->log.size() - lead->formed &&
               std::equal(c.log.begin() + static_cast<std::ptrdiff_t>(c.formed), c.log.end(),
                          lead->log.begin() + static_cast<std::ptrdiff_t>(lead->formed),
                          [](const ThreadCtx::Logged& a, const ThreadCtx::Logged& b) {
                            return a.site == b.site && a.instance == b.instance;
                          });
      }
    }
    if (lead == nullptr) return;
    // By each lane's k-th arrival (the lessons): a lane that logged nothing this round may still
    // arrive later and join a request of this round, as its k-th; so every lane still running
    // must have logged.
    if (same && !instances_) {
      for (std::uint32_t i = first; i < end; ++i) {
        const ThreadCtx& c = threads_[i];
        if (c.status != ThreadStatus::kExited && c.log.size() == c.formed) same = false;
      }
    }
    if (!same) {
      for (std::uint32_t i = first; i < end; ++i) {
        if (threads_[i].log.size() > threads_[i].formed) ReplayLog(threads_[i]);
      }
      return;
    }
    std::uint32_t offsets[32] = {};
    const std::size_t count = lead->log.size() - lead->formed;
    for (std::size_t k = 0; k < count; ++k) {
      for (std::uint32_t m = mask; m != 0; m &= m - 1) {
        const std::uint32_t lane = static_cast<std::uint32_t>(__builtin_ctz(m));
        const ThreadCtx& c = threads_[first + lane];
        offsets[lane] = c.log[c.formed + k].offset;
      }
      requests_.AddWhole(lead->log[lead->formed + k].site, w, mask, offsets, local_sites_,
                         launch_->config->buffers, &stats_);
    }
    for (std::uint32_t i = first; i < end; ++i) Formed(threads_[i]);
  }

  // A kept access and its value: a load's is there now; a store's (and an atomic's result) once
  // it has happened, at the thread's next stop.
  [[gnu::noinline]] void Keep(const AccessRecord& r, std::uint64_t key, const void* where) {
    current_.accesses.push_back(r);
    std::uint64_t value = 0;
    const auto bytes = std::min<std::uint32_t>(static_cast<std::uint32_t>(key & 0xffu), 8);
    if (where != nullptr && ((key >> 12) & 3u) == kKeyLoad) {
      std::memcpy(&value, where, bytes);
    } else if (where != nullptr) {
      t_ctx->pending_where = where;
      t_ctx->pending_bytes = bytes;
      t_ctx->pending_index = current_.values.size();
      t_ctx->pending_in_log = false;
    }
    current_.values.push_back(value);
  }

  // The race check of the current barrier interval (or a piece of one): every pair within the
  // block, then its global accesses into the launch's shadow. A block that is not kept keeps
  // nothing of them after.
  void CheckInterval(bool block_end = false) {
    const auto block = static_cast<std::uint32_t>(current_.block);
    const std::vector<std::uint8_t>& kinds = SiteKinds();
    std::span<const AccessRecord> records;
    std::span<const std::uint64_t> values;
    bool pair = true;
    if (logging_) {
      // The lanes' logs, thread after thread; pairs only where the interval wrote shared or
      // global memory (its global reads still go into the shadow).
      pair = interval_writes_;
      const bool global = interval_global_;
      interval_writes_ = interval_global_ = false;
      interval_records_.clear();
      interval_values_.clear();
      // The words the interval wrote: only they, and the reads of them, can pair.
      written_words_.Clear();
      if (pair) {
        for (const ThreadCtx& c : threads_) {
          for (const ThreadCtx::Logged& e : c.log) {
            const std::uint8_t kind = e.site < kinds.size() ? kinds[e.site] : 0;
            if ((kind & kSiteWrite) == 0 || (kind & kSiteSpaces) == 0) continue;
            const SiteInfo& site = local_sites_[e.site];
            written_words_.Add(site.space, site.buffer, e.offset, site.size);
          }
        }
      }
      for (ThreadCtx& c : threads_) {
        if (!pair && !global) {  // nothing to pair and nothing for the shadow
          c.log.clear();
          c.formed = 0;
          continue;
        }
        for (const ThreadCtx::Logged& e : c.log) {
          const std::uint8_t kind = e.site < kinds.size() ? kinds[e.site] : 0;
          if ((kind & kSiteSpaces) == 0) continue;
          const AccessRecord r{e.offset, 0,      e.time, static_cast<std::uint16_t>(c.linear),
                               e.site,   c.epoch};
          if (pair) {
            const SiteInfo& site = local_sites_[e.site];
            if ((kind & kSiteWrite) != 0 ||
                written_words_.Touches(site.space, site.buffer, e.offset, site.size)) {
              interval_records_.push_back(r);
              interval_values_.push_back(e.value);
            }
          }
          if ((kind & kSiteSpaces) == kSiteGlobal) ToShadow(block, r, e.value);
        }
        c.log.clear();
        c.formed = 0;
      }
      records = interval_records_;
      values = interval_values_;
    } else {
      const std::size_t begin = hazards_begin_, end = current_.accesses.size();
      records = {current_.accesses.data() + begin, end - begin};
      values = {current_.values.data() + begin, end - begin};
      for (std::size_t i = 0; i < records.size(); ++i) {
        const AccessRecord& r = records[i];
        if (r.site < kinds.size() && (kinds[r.site] & kSiteSpaces) == kSiteGlobal)
          ToShadow(block, r, values[i]);
      }
    }
    if (pair && !records.empty()) {
      syncs_.clear();
      for (const WarpOpRecord& w : current_.warp_ops) {
        if (w.site < warp_op_kinds_.size() &&
            warp_op_kinds_[w.site] == static_cast<std::uint8_t>(WarpOpKind::kSyncWarp))
          syncs_.push_back({w.warp, w.time, w.mask});
      }
      interval_pairs_.Add(block, keep_block_, records, values, syncs_, local_sites_, hazard_tally_);
    }
    if (!logging_) {
      if (keep_block_) {
        hazards_begin_ = current_.accesses.size();
      } else {
        current_.accesses.clear();
        current_.values.clear();
        hazards_begin_ = 0;
      }
    }
    launch_->shadow.Put(current_.block, shadow_batch_, block_end);
  }

  // What the race check makes of each site: kSiteShared or kSiteGlobal (not a local array), or
  // 0 (not checked). Follows local_sites_.
  // kSiteWrite is added for a store or an atomic.
  static constexpr std::uint8_t kSiteShared = 1, kSiteGlobal = 2, kSiteSpaces = 3, kSiteWrite = 4;
  const std::vector<std::uint8_t>& SiteKinds() {
    if (site_kinds_.size() != local_sites_.size()) {
      site_kinds_.resize(local_sites_.size());
      for (std::size_t i = 0; i < local_sites_.size(); ++i) {
        const MemorySpace sp = local_sites_[i].space;
        site_kinds_[i] = sp == MemorySpace::kShared   ? kSiteShared
                         : sp == MemorySpace::kGlobal ? kSiteGlobal
                                                      : 0;
        if (site_kinds_[i] != 0 && local_sites_[i].op != AccessOp::kLoad)
          site_kinds_[i] |= kSiteWrite;
      }
    }
    return site_kinds_;
  }

  void ToShadow(std::uint32_t block, const AccessRecord& r, std::uint64_t value) {
    GlobalShadow::Access::Fill(shadow_batch_.emplace_back(), block, r, local_sites_[r.site], value,
                               true, keep_block_);
  }

  // The bytes at `where` as a number; by size, so that the value is read in one load (a memcpy
  // of a variable size wrote it to the stack a byte at a time and read it back whole, which the
  // processor cannot forward: it cost a fifth of the emulator's time).
  static std::uint64_t LoadValue(const void* where, std::uint32_t bytes) {
    switch (bytes) {
      case 4: {
        std::uint32_t v;
        std::memcpy(&v, where, 4);
        return v;
      }
      case 8: {
        std::uint64_t v;
        std::memcpy(&v, where, 8);
        return v;
      }
      case 2: {
        std::uint16_t v;
        std::memcpy(&v, where, 2);
        return v;
      }
      case 1:
        return *static_cast<const unsigned char*>(where);
      default: {
        std::uint64_t v = 0;
        std::memcpy(&v, where, bytes);
        return v;
      }
    }
  }

  void FlushValue(ThreadCtx* c) {
    const std::uint64_t value = LoadValue(c->pending_where, c->pending_bytes);
    if (c->pending_in_log)
      c->log[c->pending_index].value = value;
    else
      current_.values[c->pending_index] = value;
    c->pending_where = nullptr;
  }

  std::uint32_t SharedBase(std::uint32_t bytes, std::uint32_t* tag, std::uint32_t* base,
                           void* data) {
    if (*tag != launch_->tag) {
      if (data != nullptr) {  // filled now, and before each later block of this worker
        std::memset(data, kUnwrittenShared, bytes);
        shared_arrays_.emplace_back(data, bytes);
      }
      // Place arrays in the order the kernel first touches them, 16-byte aligned, per launch.
      *base = (shared_cursor_ + 15u) & ~15u;
      shared_cursor_ = *base + bytes;
      *tag = launch_->tag;
      const std::uint32_t limit = launch_->config->preset.shared_per_block;
      if (shared_cursor_ > limit) {
        Fail(0, "the kernel's shared arrays need " + std::to_string(shared_cursor_) +
                    " bytes per block, over the limit of " + std::to_string(limit) + " bytes on " +
                    launch_->config->preset.name);
      }
    }
    return *base;
  }

  [[noreturn]] void Fail(std::uint32_t place, const std::string& what) {
    const ThreadCtx* c = t_ctx;
    std::ostringstream m;
    if (PlaceLine(place) != 0) m << "line " << PlaceLine(place) << ": ";
    m << what;
    if (c != nullptr) {
      m << " (thread (" << c->state.thread_idx.x << "," << c->state.thread_idx.y << ","
        << c->state.thread_idx.z << ") of block (" << c->state.block_idx.x << ","
        << c->state.block_idx.y << "," << c->state.block_idx.z << "))";
    }
    ReportError(current_.block, m.str());
    throw ThreadAbort{};
  }

  void AddWork(std::uint32_t units) { t_ctx->clock += units; }
  std::uint32_t LaunchTag() const { return launch_->tag; }
  unsigned SmId() const { return block_sm_; }
  unsigned long long GlobalTimer() const { return block_start_ + t_ctx->clock; }
  unsigned long long ThreadClock() const { return t_ctx->clock; }

  unsigned char* DynamicShared(std::uint32_t* bytes, std::uint32_t* offset) {
    const LaunchConfig& cfg = *launch_->config;
    if (dynamic_shared_.size() != cfg.dynamic_shared_bytes)
      dynamic_shared_.assign(cfg.dynamic_shared_bytes, kUnwrittenShared);
    *bytes = cfg.dynamic_shared_bytes;
    *offset = (cfg.shared_bytes + 15u) & ~15u;  // after the static arrays, as on a GPU
    return dynamic_shared_.data();
  }

  void Barrier(std::uint32_t place) {
    ThreadCtx* c = t_ctx;
    c->status = ThreadStatus::kAtBarrier;
    c->barrier_place = place;
    YieldToScheduler(c);
  }

  int BarrierCount(std::uint32_t place, int predicate) {
    t_ctx->barrier_predicate = predicate != 0 ? 1 : 0;
    Barrier(place);
    return t_ctx->barrier_result;
  }

  std::uint64_t WarpOp(std::uint32_t kind, std::uint32_t mask, std::uint64_t value, int arg,
                       int width, std::uint32_t place) {
    ThreadCtx* c = t_ctx;
    if (width <= 0 || width > 32 || (width & (width - 1)) != 0) {
      Fail(place, std::string(ToString(static_cast<WarpOpKind>(kind))) + ": width " +
                      std::to_string(width) + " is not a power of two from 1 to 32");
    }
    c->status = ThreadStatus::kAtWarpOp;
    c->warp_place = place;
    c->warp_kind = kind;
    c->warp_mask = mask;
    c->warp_value = value;
    c->warp_arg = arg;
    c->warp_width = width;
    YieldToScheduler(c);
    return c->warp_result;
  }

 private:
  void ReportError(std::uint64_t block, const std::string& message) {
    std::lock_guard lock(launch_->mutex);
    if (block < launch_->error_block) {
      launch_->error_block = block;
      launch_->error = message;
    }
    std::uint64_t cur = launch_->stop_after.load();
    while (block < cur && !launch_->stop_after.compare_exchange_weak(cur, block)) {
    }
    launch_->shadow.Abandon();  // the launch fails: nobody waits for a turn
  }

  void YieldToScheduler(ThreadCtx* c) {
    BeforeSwitch(c->stack, scheduler_stack_);
    c->scheduler = std::move(c->scheduler).resume();
    AfterSwitch(c->stack);
  }

  void Resume(std::uint32_t i) {
    t_ctx = &threads_[i];
    t_thread = &threads_[i].state;
    BeforeSwitch(scheduler_stack_, threads_[i].stack);
    fibers_[i] = std::move(fibers_[i]).resume();
    AfterSwitch(scheduler_stack_);
    if (threads_[i].pending_where != nullptr) FlushValue(&threads_[i]);
    t_ctx = nullptr;
    t_thread = nullptr;
  }

  static std::string ThreadList(const std::vector<std::uint32_t>& ids) {
    // "0-15, 32, 40-47"
    std::ostringstream s;
    for (std::size_t i = 0; i < ids.size();) {
      std::size_t j = i;
      while (j + 1 < ids.size() && ids[j + 1] == ids[j] + 1) ++j;
      if (i > 0) s << ", ";
      s << ids[i];
      if (j > i) s << "-" << ids[j];
      i = j + 1;
    }
    return s.str();
  }

  static std::string WhereIs(const ThreadCtx& c) {
    switch (c.status) {
      case ThreadStatus::kExited:
        return "has exited";
      case ThreadStatus::kAtBarrier:
        return "waits at __syncthreads() on line " + std::to_string(PlaceLine(c.barrier_place));
      case ThreadStatus::kAtWarpOp:
        return std::string("waits at ") + ToString(static_cast<WarpOpKind>(c.warp_kind)) +
               " on line " + std::to_string(PlaceLine(c.warp_place)) + " with mask " +
               Hex(c.warp_mask);
      default:
        return "is elsewhere";
    }
  }
  static std::string Hex(std::uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08x", v);
    return buf;
  }

  // The lanes of each warp that wait at a warp-level intrinsic meet when every lane their mask
  // names is there: values are exchanged, the meeting recorded, and they go on. Returns how many
  // meetings took place (the scheduler then runs the lanes on), or -1 when a warp can never meet
  // (a lane of its mask exited or waits elsewhere: on a GPU, a hang or undefined values).
  int ResolveWarpOps(std::uint64_t b, const uint3& bidx, std::uint32_t n) {
    int met = 0;
    const std::uint32_t warps = (n + 31) / 32;
    for (std::uint32_t w = 0; w < warps; ++w) {
      const std::uint32_t first = w * 32, lanes = std::min<std::uint32_t>(32, n - first);
      const std::uint32_t exists = lanes == 32 ? 0xffffffffu : ((1u << lanes) - 1u);
      std::uint32_t waiting = 0;
      for (std::uint32_t l = 0; l < lanes; ++l) {
        if (threads_[first + l].status == ThreadStatus::kAtWarpOp) waiting |= 1u << l;
      }
      if (waiting == 0) continue;
      int met_here = 0;
      std::string problem;
      std::uint32_t left = waiting;
      while (left != 0) {
        const std::uint32_t lead = static_cast<std::uint32_t>(__builtin_ctz(left));
        const ThreadCtx& lc = threads_[first + lead];
        std::uint32_t group = 0;
        for (std::uint32_t l = 0; l < lanes; ++l) {
          const ThreadCtx& c = threads_[first + l];
          if ((left >> l & 1u) && c.warp_place == lc.warp_place && c.warp_kind == lc.warp_kind &&
              c.warp_mask == lc.warp_mask)
            group |= 1u << l;
        }
        left &= ~group;
        const WarpOpKind kind = static_cast<WarpOpKind>(lc.warp_kind);
        const std::uint32_t expected =
            kind == WarpOpKind::kActiveMask ? group : (lc.warp_mask & exists);
        if ((group & ~expected) != 0) {
          const std::uint32_t lane = static_cast<std::uint32_t>(__builtin_ctz(group & ~expected));
          problem = "line " + std::to_string(PlaceLine(lc.warp_place)) + ": lane " +
                    std::to_string(lane) + " of warp " + std::to_string(w) + " calls " +
                    ToString(kind) + " with mask " + Hex(lc.warp_mask) +
                    ", which leaves the lane itself out";
          continue;
        }
        if ((expected & ~group) != 0) {
          const std::uint32_t lane = static_cast<std::uint32_t>(__builtin_ctz(expected & ~group));
          problem = "line " + std::to_string(PlaceLine(lc.warp_place)) + ": " + ToString(kind) +
                    " with mask " + Hex(lc.warp_mask) + " names lane " + std::to_string(lane) +
                    " of warp " + std::to_string(w) + " (thread " + std::to_string(first + lane) +
                    "), which " + WhereIs(threads_[first + lane]) +
                    ". On a GPU this hangs or gives undefined values; every lane a mask names "
                    "must reach the same call.";
          continue;
        }
        Meet(w, first, group, kind);
        ++met_here;
      }
      if (met_here == 0) {
        ReportError(b, problem + " (block (" + std::to_string(bidx.x) + "," +
                           std::to_string(bidx.y) + "," + std::to_string(bidx.z) + "))");
        return -1;
      }
      met += met_here;
    }
    return met;
  }

  void Meet(std::uint32_t w, std::uint32_t first, std::uint32_t group, WarpOpKind kind) {
    const ThreadCtx& lead = threads_[first + static_cast<std::uint32_t>(__builtin_ctz(group))];
    const std::uint16_t id = WarpOpId(lead.warp_place, static_cast<std::uint32_t>(kind));
    if (warp_op_counts_.size() <= id) warp_op_counts_.resize(id + 1u, 0);
    ++warp_op_counts_[id];
    WarpOpRecord rec;
    rec.warp = static_cast<std::uint16_t>(w);
    rec.site = id;
    rec.mask = group;
    rec.iteration = warp_iterations_[{w, id}]++;
    std::uint32_t time = 0;
    WarpLane lanes[32];
    for (std::uint32_t l = 0; l < 32; ++l) {
      if (!(group >> l & 1u)) continue;
      const ThreadCtx& c = threads_[first + l];
      time = std::max(time, c.clock);
      lanes[l] = {c.warp_value, c.warp_mask, c.warp_arg, c.warp_width};
    }
    rec.time = time;
    const WarpMeeting met = MeetWarp(kind, group, lanes);
    std::copy(std::begin(met.source), std::end(met.source), std::begin(rec.source));
    for (std::uint32_t l = 0; l < 32; ++l) {
      if (group >> l & 1u) threads_[first + l].warp_result = met.result[l];
    }
    for (std::uint32_t l = 0; l < 32; ++l) {
      if (!(group >> l & 1u)) continue;
      ThreadCtx& c = threads_[first + l];
      c.clock = time + 1;
      c.status = ThreadStatus::kReady;
    }
    current_.warp_ops.push_back(rec);
  }

  // Runs the block's ready threads until each waits (at a barrier or a warp-level intrinsic) or
  // has exited, in the order of the launch's schedule (trace/schedule.h). False: one faulted.
  bool RunReadyThreads(std::uint32_t n) {
    const std::uint32_t warps = (n + 31) / 32;
    auto ready = [&](std::uint32_t i) { return threads_[i].status == ThreadStatus::kReady; };
    auto faulted = [&](std::uint32_t i) { return threads_[i].status == ThreadStatus::kFaulted; };
    switch (launch_->config->schedule.kind) {
      case Schedule::Kind::kInOrder:
        for (std::uint32_t i = 0; i < n; ++i) {
          if (ready(i)) Resume(i);
          if (faulted(i)) return false;
          if (i % 32 == 31 || i == n - 1) {
            if (logging_) FormWarpRequests(i / 32, n);
            if (!warp_done_[i / 32]) FinishWarpIfExited(i / 32, n);
          }
        }
        return true;
      case Schedule::Kind::kReverse:
        for (std::uint32_t i = n; i-- > 0;) {
          if (ready(i)) Resume(i);
          if (faulted(i)) return false;
        }
        break;
      case Schedule::Kind::kLockstep:  // a warp's lanes one access each, round after round
        for (std::uint32_t w = 0; w < warps; ++w) {
          const std::uint32_t end = std::min(n, (w + 1) * 32);
          for (bool any = true; any;) {
            any = false;
            for (std::uint32_t i = w * 32; i < end; ++i) {
              if (!ready(i)) continue;
              any = true;
              Resume(i);
              if (faulted(i)) return false;
            }
          }
        }
        break;
      case Schedule::Kind::kRandom: {  // one access of a thread drawn among the ready ones
        std::vector<std::uint32_t>& pool = ready_pool_;
        pool.clear();
        for (std::uint32_t i = 0; i < n; ++i)
          if (ready(i)) pool.push_back(i);
        while (!pool.empty()) {
          rng_ += 0x9e3779b97f4a7c15ull;  // splitmix64
          std::uint64_t z = rng_;
          z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
          z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
          z ^= z >> 31;
          const std::size_t k = static_cast<std::size_t>(z % pool.size());
          const std::uint32_t i = pool[k];
          Resume(i);
          if (faulted(i)) return false;
          if (!ready(i)) {
            pool[k] = pool.back();
            pool.pop_back();
          }
        }
        break;
      }
    }
    for (std::uint32_t w = 0; w < warps; ++w)
      if (!warp_done_[w]) FinishWarpIfExited(w, n);
    return true;
  }

  // Returns false when the block failed (the launch stops).
  bool RunBlock(std::uint64_t b) {
    const LaunchConfig& cfg = *launch_->config;
    const Dim3 bd = cfg.block, gd = cfg.grid;
    const std::uint32_t n = static_cast<std::uint32_t>(bd.count());
    const std::uint64_t gxy = std::uint64_t{gd.x} * gd.y;
    const uint3 bidx = {static_cast<unsigned>(b % gd.x), static_cast<unsigned>((b / gd.x) % gd.y),
                        static_cast<unsigned>(b / gxy)};
    for (std::uint32_t i = 0; i < n; ++i) {
      ThreadCtx& c = threads_[i];
      c.state = {{i % bd.x, (i / bd.x) % bd.y, i / (bd.x * bd.y)},
                 bidx,
                 {bd.x, bd.y, bd.z},
                 {gd.x, gd.y, gd.z},
                 nullptr,
                 0};
      c.linear = i;
      c.clock = 0;
      c.status = ThreadStatus::kReady;
      c.epoch = 0;
      c.touched = false;
      c.pending_where = nullptr;
      std::memset(c.site_count, 0, c.sites_used * sizeof c.site_count[0]);
      c.sites_used = 0;
      std::memset(c.barrier_count, 0, sizeof c.barrier_count);
    }
    current_.block = b;
    keep_block_ =
        std::find(cfg.keep_blocks.begin(), cfg.keep_blocks.end(), b) != cfg.keep_blocks.end();
    requests_.Begin(n, kMaxSites);
    const std::uint32_t warps = (n + 31) / 32;
    // A cache replay needs each load's request number as it is made: the per-access path.
    logging_ = !keep_block_ && cfg.schedule.kind == Schedule::Kind::kInOrder && !launch_->cache;
    replay_.assign(warps, 0);
    if (instances_) instance_table_.Begin(warps, kMaxSites);
    warp_done_.assign(warps, 0);
    current_.accesses.clear();
    hazards_begin_ = 0;
    cache_records_.clear();
    current_.barriers.clear();
    current_.warp_ops.clear();
    current_.values.clear();
    warp_iterations_.clear();
    for (const auto& [data, bytes] : shared_arrays_) std::memset(data, kUnwrittenShared, bytes);
    std::fill(dynamic_shared_.begin(), dynamic_shared_.end(), kUnwrittenShared);
    rng_ = launch_->config->schedule.seed ^ (b * 0x9e3779b97f4a7c15ull);

    for (;;) {
      if (!RunReadyThreads(n)) return false;
      const int warp_ops = ResolveWarpOps(b, bidx, n);
      if (warp_ops < 0) return false;
      if (warp_ops > 0) continue;
      // Every thread exited, or every thread waits at one barrier: the common cases, seen in
      // one pass; anything else is an error, described below.
      std::uint32_t n_exited = 0, n_same = 0;
      const std::uint32_t place0 = threads_[0].barrier_place;
      for (std::uint32_t i = 0; i < n; ++i) {
        if (threads_[i].status == ThreadStatus::kExited)
          ++n_exited;
        else if (threads_[i].barrier_place == place0)
          ++n_same;
      }
      if (n_exited == n) break;  // every thread finished
      if (n_same != n) {
        std::vector<std::uint32_t> exited;
        std::map<std::uint32_t, std::vector<std::uint32_t>> by_place;
        for (std::uint32_t i = 0; i < n; ++i) {
          if (threads_[i].status == ThreadStatus::kExited)
            exited.push_back(i);
          else
            by_place[threads_[i].barrier_place].push_back(i);
        }
        std::ostringstream m;
        m << "block (" << bidx.x << "," << bidx.y << "," << bidx.z << ") cannot pass its barrier: ";
        bool first = true;
        for (const auto& [place, ids] : by_place) {
          m << (first ? "" : "; ") << "threads " << ThreadList(ids)
            << " wait at __syncthreads() on line " << PlaceLine(place);
          first = false;
        }
        if (!exited.empty())
          m << "; threads " << ThreadList(exited) << " exited without reaching it";
        m << ". On a GPU this hangs or corrupts the block; every thread of a block must reach the "
             "same __syncthreads().";
        ReportError(b, m.str());
        return false;
      }
      // Everyone waits at the same barrier: all leave when the last one arrived.
      if (hazards_) CheckInterval();
      const std::uint32_t place = place0;
      const std::uint16_t id = BarrierId(place);
      if (id >= kMaxBarrierSites) {
        ReportError(b, "line " + std::to_string(PlaceLine(place)) + ": the kernel has more than " +
                           std::to_string(kMaxBarrierSites) + " __syncthreads() sites");
        return false;
      }
      std::uint32_t departure = 0;
      int count = 0;
      for (std::uint32_t i = 0; i < n; ++i) {
        departure = std::max(departure, threads_[i].clock);
        count += threads_[i].barrier_predicate;
      }
      for (std::uint32_t i = 0; i < n; ++i) {
        ThreadCtx& c = threads_[i];
        c.barrier_result = count;
        c.barrier_predicate = 0;
        c.touched = true;
        current_.barriers.push_back(
            {c.clock, departure, c.barrier_count[id]++, static_cast<std::uint16_t>(i), id, 0});
        c.clock = departure + 1;
        ++c.epoch;
        c.status = ThreadStatus::kReady;
      }
    }

    if (hazards_) CheckInterval(true);
    if (keep_block_) {
      std::lock_guard lock(launch_->mutex);
      launch_->kept[b] = current_;  // in execution order
    }
    if (!launch_->active.empty()) {
      std::uint8_t* active = launch_->active.data() + std::uint64_t{b} * n;
      for (std::uint32_t i = 0; i < n; ++i) active[i] = threads_[i].touched ? 1 : 0;
    }
    requests_.End(local_sites_, cfg.buffers, &stats_);
    if (requests_.TakeTruncated() || instance_table_.Full()) launch_->truncated = true;
    AnalyzeBarriers(current_.barriers, &stats_);
    if (launch_->cache) {
      launch_->cache->AddBlock(b, cache_records_, local_sites_, cfg.buffers);
      cache_records_.clear();
    }
    return true;
  }

  // A warp whose threads have all exited adds no lane to any request: its requests are added up
  // now, while its rows are still in the cache.
  void FinishWarpIfExited(std::uint32_t w, std::uint32_t n) {
    const std::uint32_t end = std::min(n, (w + 1) * 32);
    for (std::uint32_t i = w * 32; i < end; ++i) {
      if (threads_[i].status != ThreadStatus::kExited) return;
    }
    warp_done_[w] = 1;
    requests_.FinishWarp(w, local_sites_, launch_->config->buffers, &stats_);
  }

  Launch* launch_;
  std::vector<ThreadCtx> threads_;
  std::vector<ctx::fiber> fibers_;
  FiberStack scheduler_stack_;
  bool quitting_ = false;
  std::vector<std::pair<std::uint64_t, std::uint16_t>> site_cache_;
  struct SiteSlot {
    std::uint64_t key = ~0ull;  // no site key is all ones
    std::uint16_t id = 0;
  };
  SiteSlot site_slots_[64];
  std::vector<std::pair<std::uint32_t, std::uint16_t>> barrier_cache_;
  std::vector<std::pair<std::uint64_t, std::uint16_t>> warp_op_cache_;
  std::vector<std::uint64_t> warp_op_counts_;  // by provisional id, this worker's blocks
  std::map<std::pair<std::uint32_t, std::uint16_t>, std::uint32_t> warp_iterations_;
  std::vector<SiteInfo> local_sites_;
  BlockRecords current_;                 // barriers and warp meetings; accesses only when kept
  bool keep_block_ = false;              // the current block is one the user looks at
  WarpRequests requests_;                // the current block's accesses, by warp request
  std::vector<std::uint8_t> warp_done_;  // per warp of the current block: requests added up
  LaunchStats stats_;
  std::uint32_t shared_cursor_ = 0;
  std::vector<unsigned char> dynamic_shared_;
  std::vector<std::pair<void*, std::uint32_t>> shared_arrays_;  // static arrays, zeroed per block
  bool step_each_access_ = false;  // the schedule stops threads before every access
  bool hazards_ = false;           // LaunchConfig::whole_grid_hazards
  std::size_t hazards_begin_ = 0;  // current_.accesses from here: the interval not checked
  IntervalPairs interval_pairs_;
  HazardTally hazard_tally_;
  std::vector<WarpSync> syncs_;
  std::vector<GlobalShadow::Access> shadow_batch_;  // this block's, not yet in the shadow
  std::vector<std::uint8_t> warp_op_kinds_;         // by provisional warp-op id
  std::vector<std::uint8_t> site_kinds_;            // SiteKinds()
  bool interval_writes_ = false;  // the lanes' logs hold a shared or global store or atomic
  bool interval_global_ = false;  // and a global access (local arrays too: they are keyed so)
  std::vector<AccessRecord> interval_records_;  // an interval gathered from the lanes' logs
  std::vector<std::uint64_t> interval_values_;
  bool logging_ = false;  // accesses go to the lanes' logs (Record)
  // The cache replay's loads of the running block, and per site whether a probe wants it.
  static constexpr std::size_t kMaxCacheRecords = std::size_t{32} << 20;  // 640 MB
  std::vector<AccessRecord> cache_records_;
  WrittenWords written_words_;  // CheckInterval's, of the interval it checks
  std::vector<std::uint8_t> cache_wants_;
  std::vector<std::uint8_t> replay_;  // per warp of the block: its logs go through RecordNow
  // A lane's log at most (24 bytes an entry: 96 KB; a block of 1024 threads keeps at most 96 MB
  // of logs' capacity) before it is replayed (and, with the race check, its interval checked).
  static constexpr std::size_t kMaxLogged = std::size_t{1} << 12;
  bool instances_ = false;        // requests by instance key (LaunchConfig::instances)
  InstanceTable instance_table_;  // requests by instance (instances_)
  std::uint64_t rng_ = 0;         // the random schedule's generator (splitmix64)
  std::vector<std::uint32_t> ready_pool_;
  unsigned block_sm_ = 0;          // the block-scheduler model's placement of the current
  std::uint64_t block_start_ = 0;  // block (0 and 0 without the model)
};

// Turns first-come provisional site ids into the canonical order, so that traces do not depend
// on which worker saw a site first.
void Canonicalize(Launch& L, LaunchTrace& t) {
  std::vector<std::uint64_t> keys;
  for (const auto& [k, id] : L.site_ids) keys.push_back(k);
  SiteTable table = BuildSiteTable(keys);
  std::vector<std::uint16_t> remap(L.site_ids.size());
  for (const auto& [k, id] : L.site_ids) remap[id] = table.id_of_key.at(k);
  t.sites = std::move(table.sites);
  std::vector<std::pair<std::uint32_t, std::uint16_t>> bars(L.barrier_ids.begin(),
                                                            L.barrier_ids.end());
  std::vector<std::uint16_t> bremap(bars.size());
  for (std::size_t i = 0; i < bars.size(); ++i) {  // std::map: already sorted by place
    t.barrier_sites.push_back(
        {PlaceLine(bars[i].first), "", static_cast<std::uint16_t>(PlaceFile(bars[i].first)), ""});
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
    t.hazards = tally.Report(t.sites, t.buffers, remap);
    t.hazards.whole_grid = true;
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
  }
  for (auto& [b, rec] : L.kept) {
    for (AccessRecord& a : rec.accesses) a.site = remap[a.site];
    for (BarrierRecord& r : rec.barriers) r.site = bremap[r.site];
    for (WarpOpRecord& w : rec.warp_ops) w.site = wremap[w.site];
    t.blocks.push_back(std::move(rec));
  }
}

}  // namespace

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

int SyncThreadsCount(std::uint32_t place, int predicate) {
  return t_worker->BarrierCount(place, predicate);
}

std::uint64_t WarpOp(std::uint32_t kind, std::uint32_t mask, std::uint64_t value, int arg,
                     int width, std::uint32_t place) {
  return t_worker->WarpOp(kind, mask, value, arg, width, place);
}

void FailThread(std::uint32_t place, const std::string& what) {
  t_worker->Fail(place, what);
}

std::uint32_t CurrentLaunchTag() {
  return t_worker->LaunchTag();
}

std::uint32_t SharedArrayBase(std::uint32_t bytes, std::uint32_t* tag, std::uint32_t* base,
                              void* data) {
  return t_worker->SharedBase(bytes, tag, base, data);
}

void AddWork(std::uint32_t units) {
  t_worker->AddWork(units);
}

unsigned int SmId() {
  return t_worker->SmId();
}

unsigned long long GlobalTimer() {
  return t_worker->GlobalTimer();
}

unsigned long long ThreadClock() {
  return t_worker->ThreadClock();
}

unsigned char* DynamicSharedMemory(std::uint32_t* bytes, std::uint32_t* offset) {
  return t_worker->DynamicShared(bytes, offset);
}

Result<LaunchTrace> RunLaunch(const LaunchConfig& config, const std::function<void()>& body) {
  if (Status s = CheckLaunch(config.preset, config.grid, config.block,
                             config.shared_bytes + config.dynamic_shared_bytes);
      !s.ok()) {
    return Status::Error(config.kernel + ": " + s.message());
  }
  Launch L;
  L.config = &config;
  L.body = &body;
  L.tag = ++g_launch_tag;
  const std::uint64_t blocks = config.grid.count();
  if (!config.cache_probes.empty())
    L.cache = std::make_unique<GridCacheReplay>(config.cache_probes, blocks, config.block.count());
  if (blocks * config.block.count() <= LaunchTrace::kMaxActivityThreads)
    L.active.assign(blocks * config.block.count(), 0);
  if (config.model_sms > 0) {
    if (Status s = CheckBlockSchedule(config.model_sms, config.model_blocks_per_sm); !s.ok())
      return Status::Error(config.kernel + ": " + s.message());
  }
  unsigned workers =
      config.workers ? config.workers : std::max(1u, std::thread::hardware_concurrency());
  if (config.model_sms > 0) workers = 1;  // the model deals blocks one after another
  workers = static_cast<unsigned>(std::min<std::uint64_t>(workers, blocks));
  std::vector<std::unique_ptr<Worker>> pool;
  for (unsigned i = 0; i < workers; ++i) pool.push_back(std::make_unique<Worker>(&L));
  if (workers == 1) {
    pool[0]->Run();
  } else {
    std::vector<std::thread> threads;
    for (auto& w : pool) threads.emplace_back([&w] { w->Run(); });
    for (auto& t : threads) t.join();
  }
  if (!L.error.empty()) return Status::Error(config.kernel + ": " + L.error);

  LaunchTrace t;
  t.kernel = config.kernel;
  t.grid = config.grid;
  t.block = config.block;
  t.shared_bytes = config.shared_bytes;
  t.buffers = config.buffers;
  t.truncated = L.truncated.load();
  Canonicalize(L, t);
  if (L.cache) t.cache_replays = L.cache->Finish();
  t.thread_active = std::move(L.active);
  if (!config.whole_grid_hazards) t.hazards = FindHazards(t);
  return t;
}

}  // namespace ws::emu
