// The emulator's worker (private to kernels/emu/): one OS thread that runs blocks of a launch,
// each GPU thread of a block a fiber. One class, split over files by feature, as Tracy splits its
// View:
//   worker.h            the class, and the small functions every
//                       access or fiber switch calls (inline here, so the split costs no call)
//   runtime.cpp         the launch: workers and their fibers, canonical ids, the API kernels call
//   worker_block.cpp    a block: its threads' schedule, its barriers, its end
//   worker_access.cpp   memory accesses: lane logs into warp requests, kept records
//   worker_hazards.cpp  the race check of a barrier interval
//   worker_warp_ops.cpp warp-level intrinsics: the lanes of a mask meet and exchange values
//   worker_sites.cpp    site, barrier and warp-op ids; shared memory placement; errors
//   worker_simt.cpp     the SIMT path: a block's warps, their requests, barriers and exits
//   worker_simt_log.cpp the SIMT path's race-check log, gathered into each thread's order
//   worker_state.h      the limits, a thread's context (ThreadCtx), a launch's shared state
//
// Index of this file:
// [SECTION] Worker
#pragma once

#include <boost/context/fiber.hpp>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "emu/fiber_asan.h"
#include "emu/instance_table.h"
#include "emu/shadow_order.h"
#include "emu/worker_state.h"
#include "warpscope/kernels/emu_runtime.h"
#include "warpscope/kernels/site_table.h"
#include "warpscope/kernels/ws_cuda.h"
#include "warpscope/kernels/ws_program_simt.h"
#include "warpscope/trace/analysis.h"
#include "warpscope/trace/hazards.h"

namespace ws::emu::detail {

//-------------------------------------------------------------------------------------------------
// [SECTION] Worker
//-------------------------------------------------------------------------------------------------

class Worker {
 public:
  explicit Worker(Launch* launch)
      : launch_(launch),
        step_each_access_(launch->config->schedule.StepsEachAccess()),
        hazards_(launch->config->whole_grid_hazards),
        instances_(launch->config->instances) {}

  // Runs blocks of the launch until none is left or one fails (runtime.cpp).
  void Run();

  // The SIMT path (worker_simt.cpp): the running warp's requests, barriers and exits.
  void RecordWarp(std::uint64_t key, std::uint32_t mask, const std::uint32_t (&offsets)[32],
                  const std::uint32_t (&times)[32], const std::uint64_t* values,
                  const void* const* ptrs);
  void RecordWarpAffine(std::uint64_t key, std::uint32_t first, std::int32_t step,
                        std::int32_t delta, std::uint32_t group, const std::uint32_t (&times)[32],
                        const std::uint64_t* values, const void* const* ptrs);
  void SimtLog(std::uint16_t id, std::uint64_t key, std::uint32_t mask,
               const std::uint32_t (&offsets)[32], const std::uint32_t (&times)[32],
               const std::uint64_t* values, const void* const* ptrs, const std::uint32_t* rows);
  void SimtMaterialize();
  void CacheWarp(std::uint16_t id, std::uint32_t iteration, std::uint32_t mask,
                 const std::uint32_t (&offsets)[32], const std::uint32_t (&times)[32]);
  const std::uint64_t* ReadLanes(std::uint16_t id, std::uint32_t mask, const void* const* ptrs,
                                 std::uint64_t (&out)[32]) const;
  static void ReadWarp(std::uint32_t size, const void* const* ptrs, std::uint64_t* out,
                       bool packed = false);
  bool WarpBarrier(std::uint32_t mask, std::uint32_t place);
  void WarpExit(std::uint32_t mask);
  void SimtWarpOpNote(int lane, std::uint32_t kind, std::uint32_t mask, std::uint64_t value,
                      int arg, int width, std::uint32_t place);
  void SimtWarpOpMeet();
  std::uint64_t SimtWarpOpResult(int lane) {
    return threads_[simt_warp_ * 32 + static_cast<std::uint32_t>(lane)].warp_result;
  }
  void EnterLane(int lane) {
    ThreadCtx* c = &threads_[simt_warp_ * 32 + static_cast<std::uint32_t>(lane)];
    t_ctx = c;
    t_thread = &c->state;
  }
  void LeaveLanes() { EnterLane(0); }

  // Every access asks: a direct-mapped cache of the keys this worker has seen answers.
  std::uint16_t SiteId(std::uint64_t key) {
    SiteSlot& slot = site_slots_[(key * 0x9e3779b97f4a7c15ull) >> 58];
    if (slot.key == key) [[likely]]
      return slot.id;
    slot = {key, SlowSiteId(key)};
    return slot.id;
  }
  [[gnu::noinline]] std::uint16_t SlowSiteId(std::uint64_t key);  // worker_sites.cpp
  std::uint16_t BarrierId(std::uint32_t place);
  std::uint16_t WarpOpId(std::uint32_t place, std::uint32_t kind);

  // Each access goes straight into its warp request's row (WarpRequests); full records are
  // written only for the blocks the user keeps. In a block that is not kept, under the in-order
  // schedule, an access is only logged (its site, offset and instance, and for the race check its
  // time and value: a vector append; CheckInterval reads the logs at each barrier); after each
  // round of the warp's threads the warp's logs are formed into requests at once
  // (FormWarpRequests): where every running lane stopped at a barrier and every lane logged the
  // same sites and instances in the same order, position k of the logs is one request. Elsewhere
  // the logs are replayed through the per-access path (RecordNow), which gives the same requests.
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
          if (KeyOpOf(key) == kKeyLoad) {
            value = ::ws::simt::ValueAt(where, bytes);
          } else {  // a store's value once it has happened, at the thread's next stop
            c->pending_where = where;
            c->pending_bytes = bytes;
            c->pending_index = c->log.size();
            c->pending_in_log = true;
          }
        }
        if (KeyOpOf(key) != kKeyLoad) {
          interval_writes_ = interval_writes_ || ForHazards(key);
          if (KeySpaceOf(key) == kKeyGlobal) interval_global_written_ |= ArrayBit(KeyArray(key));
        }
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
  void ForCache(const AccessRecord& r);  // worker_access.cpp

  // Accesses the race check looks at: shared memory, and global memory but a thread's own local
  // arrays and the loads of a buffer the kernel only reads (OnlyRead).
  bool ForHazards(std::uint64_t key) {
    const std::uint32_t space = KeySpaceOf(key);
    if (space == kKeyShared) return true;
    if (space != kKeyGlobal || KeyArray(key) == kKeyLocalArray) return false;
    return only_read_.empty() || !OnlyReadSkips(key);
  }
  // The SIMT path (worker_hazards.cpp): this launch's buffers only read (ws::simt::OnlyRead); of
  // an access of one, whether it skips the race check (a store there marks the buffer's loads
  // not checked: Launch::only_read_broken).
  void OnlyRead(const std::uint32_t* read, std::size_t reads, const std::uint32_t* written,
                std::size_t writes);
  bool OnlyReadSkips(std::uint64_t key);
  void OnlyReadStores(std::uint32_t mask, const std::uint32_t (&offsets)[32]);
  // A warp's store keyed by several buffers, where some are only read (OnlyReadStores).
  bool StoresToSeveral(std::uint64_t key) const {
    return !only_read_.empty() && KeyArray(key) == kSeveralBuffers && KeyOpOf(key) != kKeyLoad;
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

  void CutInterval();  // worker_access.cpp

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

  void ReplayLog(ThreadCtx& c);  // worker_access.cpp

  // A lane's log is in requests: kept for the race check (its interval), else dropped.
  void Formed(ThreadCtx& c) {
    if (hazards_) {
      c.formed = c.log.size();
    } else {
      c.log.clear();
    }
  }

  // worker_access.cpp
  bool WarpStopsTogether(std::uint32_t first, std::uint32_t end) const;
  void FormWarpRequests(std::uint32_t w, std::uint32_t n);
  [[gnu::noinline]] void Keep(const AccessRecord& r, std::uint64_t key, const void* where);

  // worker_hazards.cpp
  void CheckInterval(bool block_end = false);
  // What the race check makes of each site: kSiteShared or kSiteGlobal (not a local array), or
  // 0 (not checked). Follows local_sites_.
  // kSiteWrite is added for a store or an atomic.
  static constexpr std::uint8_t kSiteShared = 1, kSiteGlobal = 2, kSiteSpaces = 3, kSiteWrite = 4;
  const std::vector<std::uint8_t>& SiteKinds();
  bool GatherLogs(std::uint32_t block, const std::vector<std::uint8_t>& kinds);
  void GatherOne(std::uint32_t block, const std::vector<std::uint8_t>& kinds, bool pair,
                 const AccessRecord& r, std::uint64_t value);
  void MarkWrittenWords(const std::vector<std::uint8_t>& kinds);
  // A global access of the interval into this block's batch for the launch's shadow. Once per
  // checked access: inline here, as the other per-access functions.
  void ToShadow(std::uint32_t block, const AccessRecord& r, std::uint64_t value) {
    GlobalShadow::Access::Fill(shadow_batch_.accesses.emplace_back(), block, r,
                               local_sites_[r.site], value, true, keep_block_);
  }

  void FlushValue(ThreadCtx* c) {
    const std::uint64_t value = ::ws::simt::ValueAt(c->pending_where, c->pending_bytes);
    if (c->pending_in_log)
      c->log[c->pending_index].value = value;
    else
      current_.values[c->pending_index] = value;
    c->pending_where = nullptr;
  }

  // The base of a static shared array in the block's shared memory: placed on the array's first
  // use in this launch (worker_sites.cpp), then read from its tag and base.
  std::uint32_t SharedBase(std::uint32_t bytes, std::uint32_t* tag, std::uint32_t* base,
                           void* data) {
    if (*tag != launch_->tag) PlaceSharedArray(bytes, tag, base, data);
    return *base;
  }

  [[noreturn]] void Fail(std::uint32_t place, const std::string& what);  // worker_sites.cpp

  void AddWork(std::uint32_t units) { t_ctx->clock += units; }
  std::uint32_t LaunchTag() const { return launch_->tag; }
  const LaunchConfig& Config() const { return *launch_->config; }
  unsigned SmId() const { return block_sm_; }
  unsigned long long GlobalTimer() const { return block_start_ + t_ctx->clock; }
  std::uint64_t BlockStart() const { return block_start_; }
  // A thread read the clock at `clock` (its own, from the block's start): the launch took that
  // long at least (LaunchStats::thread_clock, the model's floor on the launch's time).
  void NoteClockRead(std::uint64_t clock) {
    stats_.thread_clock = std::max<std::uint64_t>(stats_.thread_clock, block_start_ + clock);
  }
  unsigned long long ThreadClock() const { return t_ctx->clock; }

  unsigned char* DynamicShared(std::uint32_t* bytes, std::uint32_t* offset) {
    const LaunchConfig& cfg = *launch_->config;
    if (dynamic_shared_.size() != cfg.dynamic_shared_bytes)
      dynamic_shared_.assign(cfg.dynamic_shared_bytes, kUnwrittenShared);
    *bytes = cfg.dynamic_shared_bytes;
    *offset = (cfg.shared_bytes + 15u) & ~15u;  // after the static arrays, as on a GPU
    return dynamic_shared_.data();
  }

  // The running thread waits at the barrier at `place`: the block's (`tile` 0), a multi-warp
  // tile's (its threads), or a grid's or cluster's sync (kGridSync, kClusterSync).
  void Barrier(std::uint32_t place, std::uint32_t tile = 0) {
    ThreadCtx* c = t_ctx;
    c->status = ThreadStatus::kAtBarrier;
    c->barrier_place = place;
    c->barrier_tile = tile;
    YieldToScheduler(c);
  }

  // A multi-warp tile's sync: a barrier of the `threads` threads of the caller's tile
  // (PassTileBarriers lets them go). worker_tiles.cpp.
  void TileBarrier(std::uint32_t threads, std::uint32_t place);
  // this_grid().sync(): the block's barrier, then every block's (GridRendezvous).
  void GridBarrier(std::uint32_t place);
  // A cluster launch (worker_cluster.cpp): its sync, as GridBarrier's; the worker's team and its
  // block's rank there (null, 0: none).
  void ClusterBarrier(std::uint32_t place);
  void JoinTeam(ClusterTeam* team, std::uint32_t rank) { team_ = team, team_rank_ = rank; }
  ClusterTeam* Team() const { return team_; }
  void NoteClusterAccess(std::uint32_t rank, std::uint32_t bytes);  // worker_cluster.cpp
  std::uint32_t TeamRank() const { return team_rank_; }
  std::uint64_t* TileSlots() { return tile_slots_; }

  int BarrierCount(std::uint32_t place, int predicate) {
    t_ctx->barrier_predicate = predicate != 0 ? 1 : 0;
    Barrier(place);
    return t_ctx->barrier_result;
  }

  // Parks the running thread until `ready` says it may go on (a block pipeline's stage:
  // emu_async.cpp); it goes on at the clock `ready` gives, or its own where later. `what` and
  // `place` name the wait where the block's threads wait for each other for ever.
  void Wait(std::uint32_t place, std::string what, std::function<bool(std::uint32_t*)> ready) {
    ThreadCtx* c = t_ctx;
    std::uint32_t floor = 0;
    if (ready(&floor)) {
      c->clock = std::max(c->clock, floor);
      return;
    }
    c->status = ThreadStatus::kAtWait;
    c->wait_place = place;
    c->wait_what = std::move(what);
    c->wait_ready = std::move(ready);
    YieldToScheduler(c);
  }

  // Orders the block's accesses before logical time `time` against those after it in the race
  // check (a WarpSync of every warp: a block pipeline's stage handed from producers to consumers,
  // emu_async.cpp), without ending the block's barrier interval.
  void OrderBlockAt(std::uint32_t time) {
    const auto warps = static_cast<std::uint16_t>((launch_->config->block.count() + 31) / 32);
    tile_syncs_.push_back({0, time, ~0u, warps});
  }

  // The running thread's asynchronous-copy event, kept with a kept block's records.
  void NoteAsync(AsyncEventKind kind, std::uint32_t group, std::uint32_t stages) {
    if (!keep_block_) return;
    const ThreadCtx* c = t_ctx;
    current_.async_events.push_back({c->clock, group, static_cast<std::uint16_t>(c->linear), kind,
                                     static_cast<std::uint8_t>(std::min(stages, 255u))});
  }

  // A wmma fragment's load or store at the sites of key `key` (its size bits clear): `what()`
  // names the fragment as kernels/tensor/fragments.tsv does, with the leading dimension
  // (emu_wmma.cpp). Each worker notes a key once a launch; where two calls at one site name
  // different fragments (a helper loading A and B from one array), the site's note is "several".
  void NoteFragment(std::uint64_t key, const std::function<std::string()>& what) {
    const std::string name = what();
    for (const auto& [k, noted] : fragments_noted_)
      if (k == key && noted == name) return;
    fragments_noted_.emplace_back(key, name);
    std::lock_guard lock(launch_->mutex);
    const auto [it, fresh] = launch_->fragment_notes.emplace(key, name);
    if (!fresh && it->second != name) it->second = "several";
  }

  // The running thread reads shared memory where its own asynchronous copy lands later
  // (emu_async.cpp): one pair of HazardKind::kEarlyRead, the copy's shared write and the read.
  void EarlyRead(std::uint64_t copy_key, std::uint64_t read_key, std::uint32_t offset) {
    if (!hazards_) return;
    const ThreadCtx* c = t_ctx;
    HazardAccess copy, read;
    copy.block = read.block = static_cast<std::uint32_t>(current_.block);
    copy.thread = read.thread = static_cast<std::uint16_t>(c->linear);
    copy.site = SiteId(copy_key);
    read.site = SiteId(read_key);
    copy.time = read.time = c->clock;
    copy.epoch = read.epoch = c->epoch;
    // The example: a kept block's first (as hazard_words.h's Rank), then by block, thread, byte.
    const std::uint64_t rank = (keep_block_ ? 0 : std::uint64_t{1} << 63) |
                               std::uint64_t{std::min(copy.block, 0xffffffu)} << 38 |
                               std::uint64_t{copy.thread} << 24 | (offset & 0xffffffu);
    hazard_tally_.Add(HazardKind::kEarlyRead, MemorySpace::kShared, copy, read, offset, 0, rank);
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
  void ReportError(std::uint64_t block, const std::string& message);  // worker_sites.cpp
  void PlaceSharedArray(std::uint32_t bytes, std::uint32_t* tag, std::uint32_t* base, void* data);

  void YieldToScheduler(ThreadCtx* c) {
    BeforeSwitch(c->stack, scheduler_stack_);
    c->scheduler = std::move(c->scheduler).resume();
    AfterSwitch(c->stack);
    // Its block failed while it waited in the kernel (StopFibers): it unwinds as a failed
    // thread does.
    if (aborting_ && c->in_kernel) throw ThreadAbort{};
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

  // runtime.cpp
  void StartFibers(std::uint32_t n);
  void StopFibers(std::uint32_t n);
  void MergeIntoLaunch();

  // worker_warp_ops.cpp
  static std::string WhereIs(const ThreadCtx& c);
  static std::string Hex(std::uint32_t v);
  int ResolveWarpOps(std::uint64_t b, const uint3& bidx, std::uint32_t n);
  void Meet(std::uint32_t w, std::uint32_t first, std::uint32_t group, WarpOpKind kind);

  // worker_simt.cpp
  void StartWarpFibers(std::uint32_t n);
  bool RunBlockSimt(std::uint64_t b);
  void RunWarp(std::uint32_t w, std::uint32_t n);

  void RunClusters();  // worker_cluster.cpp: the team's clusters, a block each
  GridRendezvous& ClusterSyncOf();
  ClusterTeam* team_ = nullptr;
  std::uint32_t team_rank_ = 0;
  // worker_block.cpp
  static std::string ThreadList(const std::vector<std::uint32_t>& ids);
  bool RunReadyThreads(std::uint32_t n);
  bool RunBlock(std::uint64_t b);
  enum class BlockStop { kEnded, kAtOneBarrier, kApart };
  BlockStop StopOf(std::uint32_t n) const;
  void BeginBlock(std::uint64_t b, const uint3& bidx);
  void ReportBarrierMismatch(std::uint64_t b, const uint3& bidx, std::uint32_t n);
  bool PassBarrier(std::uint64_t b, std::uint32_t place, std::uint32_t n, std::uint32_t floor = 0);
  int PassTileBarriers(std::uint64_t b, std::uint32_t n);  // worker_tiles.cpp
  int WakeWaiters(std::uint32_t n);
  void EndBlock(std::uint64_t b, std::uint32_t n);
  void FinishWarpIfExited(std::uint32_t w, std::uint32_t n);  // worker_access.cpp

  Launch* launch_;
  std::vector<ThreadCtx> threads_;
  std::vector<ctx::fiber> fibers_;
  FiberStack scheduler_stack_;
  bool quitting_ = false;
  bool aborting_ = false;  // StopFibers: a fiber resumed inside the kernel throws ThreadAbort
  std::vector<std::pair<std::uint64_t, std::uint16_t>> site_cache_;
  struct SiteSlot {
    std::uint64_t key = ~0ull;  // no site key is all ones
    std::uint16_t id = 0;
  };
  SiteSlot site_slots_[64];
  std::vector<std::pair<std::uint32_t, std::uint16_t>> barrier_cache_;
  std::vector<std::pair<std::uint64_t, std::uint16_t>> warp_op_cache_;
  std::vector<std::uint64_t> warp_op_counts_;  // by provisional id, this worker's blocks
  // NoteFragment's keys and names this worker has noted
  std::vector<std::pair<std::uint64_t, std::string>> fragments_noted_;
  std::map<std::pair<std::uint32_t, std::uint16_t>, std::uint32_t> warp_iterations_;
  std::vector<SiteInfo> local_sites_;
  BlockRecords current_;                 // barriers and warp meetings; accesses only when kept
  bool keep_block_ = false;              // the current block is one the user looks at
  std::size_t kept_accesses_ = 0;        // the accesses of the last block kept (its records')
  WarpRequests requests_;                // the current block's accesses, by warp request
  std::vector<std::uint8_t> warp_done_;  // per warp of the current block: requests added up
  LaunchStats stats_;
  std::uint32_t shared_cursor_ = 0;
  std::vector<unsigned char> dynamic_shared_;
  std::vector<std::pair<void*, std::uint32_t>> shared_arrays_;  // static arrays, zeroed per block
  bool step_each_access_ = false;  // the schedule stops threads before every access
  bool hazards_ = false;           // LaunchConfig::whole_grid_hazards
  // A cooperative launch's grid epoch (grid syncs passed) and whether the interval being checked
  // ends at a grid sync (Launch::GridShadow).
  std::uint32_t grid_epoch_ = 0;
  bool grid_epoch_end_ = false;
  std::size_t hazards_begin_ = 0;  // current_.accesses from here: the interval not checked
  IntervalPairs interval_pairs_;
  HazardTally hazard_tally_;
  std::vector<std::uint8_t> only_read_;  // by buffer id: 1 only read, 2 and a store reached it
  std::vector<WarpSync> syncs_;
  std::vector<WarpSync> tile_syncs_;         // the current block's multi-warp tile barriers passed
  std::uint64_t tile_slots_[32] = {};        // a multi-warp tile's exchange slots, one per warp
  GlobalShadow::Batch shadow_batch_;         // this block's, not yet in the shadow
  std::vector<std::uint8_t> warp_op_kinds_;  // by provisional warp-op id
  std::vector<std::uint8_t> site_kinds_;     // SiteKinds()
  bool interval_writes_ = false;  // the lanes' logs hold a shared or global store or atomic
  bool interval_global_ = false;
  // The global arrays the interval's stores and atomics wrote, a bit each (its id % 64; local
  // arrays are keyed as global): a run of loads of another goes to the shadow as it came
  // (SimtGather).
  std::uint64_t interval_global_written_ = 0;
  std::vector<AccessRecord> interval_records_;  // an interval gathered from the lanes' logs
  std::vector<std::uint64_t> interval_values_;
  bool logging_ = false;  // accesses go to the lanes' logs (Record)
  // A kept block on the SIMT path: its accesses are records (kept), and its race check reads the
  // warps' log, as a block that is not kept (the same pairs, without a record a lane to sort).
  bool kept_log_ = false;
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
  // The SIMT path: the launch runs warp functions; the warp running now; per warp, the number of
  // requests it made at each site so far (a request's iteration).
  bool simt_ = false;
  std::uint32_t simt_warp_ = 0;
  std::vector<std::vector<std::uint32_t>> simt_iter_;
  // With the race check, the interval's accesses in the order the warps made them (one arena, not
  // a log per lane); GatherLogs puts them back in each thread's order. And how many each thread
  // has in it (an interval is cut where one thread's reach kMaxLogged, as its lane log would).
  struct SimtLogged {
    std::uint32_t offset, time;
    std::uint64_t value;
    std::uint16_t site, thread;
  };
  struct SimtRequest {  // one request of the interval: its lanes' entries from `at` on
    std::uint16_t site, warp;
    std::uint32_t mask, at;  // kSimtShape | k: a shared load's kept without values (simt_shapes_)
    // A whole warp's global load at one time: its lanes went straight into the shadow's batch
    // (the run at `at` in shadow_batch_: Batch::AddRun), its time `time` (SimtLog); `run` while
    // it may go to the shadow as it came (ApplyBatch), not in its threads' order (SimtGather).
    bool in_batch = false, run = false;
    std::uint32_t time = 0;
    std::uint64_t span = 0;  // a run's lowest and highest offsets (GlobalShadow::Batch)
  };
  // A shared load's request without its values: lane l's offset, and address, `offset + (l - l0)
  // * step` (`at + ...`; l0 its first lane), or for a whole warp in rows of `group` lanes
  // `offset + (l / group) * delta + (l % group) * step` (RowOffsets); its time every lane's
  // (RecordWarpAccess).
  static constexpr std::uint32_t kSimtShape = 1u << 31;
  struct SimtShape {
    const char* at;
    std::uint32_t offset, time;
    std::int32_t step, delta = 0;
    std::uint32_t group = 32;
  };
  std::vector<SimtShape> simt_shapes_;
  std::size_t simt_shaped_from_ = 0;  // simt_log_'s first request that may be a shape
  std::vector<SimtRequest> simt_log_;
  std::vector<std::uint32_t> simt_offsets_, simt_times_;
  std::vector<std::uint64_t> simt_values_;
  std::vector<SimtLogged> simt_sorted_;
  std::vector<std::uint32_t> simt_logged_, simt_bucket_;  // per warp: requests in the interval
  std::vector<std::uint32_t> simt_touched_;               // per warp: lanes that made an access
  std::vector<std::uint32_t> simt_parked_;  // per warp: lanes left at a divergent barrier
  void SimtClearLog() {
    simt_log_.clear();
    simt_shapes_.clear();
    simt_shaped_from_ = 0;
    t_reads_pending = false;
    simt_offsets_.clear();
    simt_times_.clear();
    simt_values_.clear();
    std::fill(simt_logged_.begin(), simt_logged_.end(), 0u);
  }
  // `written`: interval_global_written_ (a run of loads of an array not in it goes as it came).
  void SimtGather(std::uint32_t block, const std::vector<std::uint8_t>& kinds, bool pair,
                  bool global, std::uint64_t written);
  // (A site over several buffers, kSeveralBuffers, is every bit.)
  static std::uint64_t ArrayBit(std::uint32_t array) {
    return array == kSeveralBuffers ? ~std::uint64_t{0} : std::uint64_t{1} << (array & 63u);
  }
  static constexpr std::uint8_t kWarpReady = 0, kWarpWaiting = 1, kWarpDone = 2, kWarpFaulted = 3;
  std::vector<std::uint8_t> warp_state_;  // per warp of the block
  unsigned block_sm_ = 0;                 // the block-scheduler model's placement of the current
  std::uint64_t block_start_ = 0;         // block (0 and 0 without the model)
};

}  // namespace ws::emu::detail
