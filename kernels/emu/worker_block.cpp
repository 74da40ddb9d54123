// The worker's blocks (worker.h): a block's threads run in the launch's schedule until each
// waits or exits; warps meet at their warp-level intrinsics; when every thread waits at the same
// barrier, all leave together; at the block's end its figures go to the launch.
#include <algorithm>
#include <sstream>

#include "emu/worker.h"

namespace ws::emu::detail {

std::string Worker::ThreadList(const std::vector<std::uint32_t>& ids) {
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

// Runs the block's ready threads until each waits (at a barrier or a warp-level intrinsic) or
// has exited, in the order of the launch's schedule (trace/schedule.h). False: one faulted.
bool Worker::RunReadyThreads(std::uint32_t n) {
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

// Where a block's threads stopped: all ended, all at thread 0's barrier, or apart (some ended,
// or waiting at another barrier: an error). Both paths' block loops ask.
Worker::BlockStop Worker::StopOf(std::uint32_t n) const {
  std::uint32_t n_exited = 0, n_same = 0;
  const std::uint32_t place0 = threads_[0].barrier_place;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (threads_[i].status == ThreadStatus::kExited)
      ++n_exited;
    else if (threads_[i].status == ThreadStatus::kAtBarrier &&  // not a parked thread's old place
             threads_[i].barrier_place == place0 &&
             threads_[i].barrier_tile == threads_[0].barrier_tile &&
             BlockWide(threads_[i].barrier_tile))
      ++n_same;
  }
  return n_exited == n ? BlockStop::kEnded
         : n_same == n ? BlockStop::kAtOneBarrier
                       : BlockStop::kApart;
}

// Returns false when the block failed (the launch stops).
bool Worker::RunBlock(std::uint64_t b) {
  const LaunchConfig& cfg = *launch_->config;
  const Dim3 gd = cfg.grid;
  const std::uint32_t n = static_cast<std::uint32_t>(cfg.block.count());
  const std::uint64_t gxy = std::uint64_t{gd.x} * gd.y;
  const uint3 bidx = {static_cast<unsigned>(b % gd.x), static_cast<unsigned>((b / gd.x) % gd.y),
                      static_cast<unsigned>(b / gxy)};
  BeginBlock(b, bidx);
  for (;;) {
    if (!RunReadyThreads(n)) return false;
    // Parked threads whose wait is over go on first: a warp meeting they belong to waits for them.
    if (WakeWaiters(n) > 0) continue;
    const int warp_ops = ResolveWarpOps(b, bidx, n);
    if (warp_ops < 0) return false;
    if (warp_ops > 0) continue;
    const int tiles = PassTileBarriers(b, n);
    if (tiles < 0) return false;
    if (tiles > 0) continue;
    if (WakeWaiters(n) > 0) continue;  // (a tile's pass may end a wait)
    // Every thread exited, or every thread waits at one barrier: the common cases, seen in
    // one pass; anything else is an error (ReportBarrierMismatch describes it).
    const std::uint32_t place0 = threads_[0].barrier_place;
    const BlockStop stop = StopOf(n);
    if (stop == BlockStop::kEnded) break;  // every thread finished
    if (stop == BlockStop::kApart) {
      ReportBarrierMismatch(b, bidx, n);
      return false;
    }
    // this_grid().sync(): the block's threads are all there; then every block's.
    // Every block leaves at the grid's latest arrival (the blocks' clocks kept together).
    std::uint32_t floor = 0;
    if (threads_[0].barrier_tile == kGridSync || threads_[0].barrier_tile == kClusterSync) {
      for (std::uint32_t i = 0; i < n; ++i) floor = std::max(floor, threads_[i].clock);
      std::string why;
      const bool grid = threads_[0].barrier_tile == kGridSync;
      const auto outcome =
          (grid ? *launch_->grid : ClusterSyncOf()).Arrive(b, place0, &floor, &why);
      if (outcome == GridRendezvous::Outcome::kError) ReportError(b, why);
      if (outcome != GridRendezvous::Outcome::kPassed) return false;
      if (grid) grid_epoch_end_ = hazards_;  // the interval's check ends the block's grid epoch
    }
    // Everyone waits at the same barrier: all leave when the last one arrived.
    if (!PassBarrier(b, place0, n, floor)) return false;
  }
  EndBlock(b, n);
  return true;
}

// The threads at a wait (kAtWait) whose wait is over go on, at the clock it gives them: how many.
int Worker::WakeWaiters(std::uint32_t n) {
  int woken = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    ThreadCtx& c = threads_[i];
    std::uint32_t floor = 0;
    if (c.status != ThreadStatus::kAtWait || !c.wait_ready(&floor)) continue;
    c.clock = std::max(c.clock, floor);
    c.status = ThreadStatus::kReady;
    c.wait_ready = nullptr;
    ++woken;
  }
  return woken;
}

// Each thread of block `b` back at its start, and the block's records empty.
void Worker::BeginBlock(std::uint64_t b, const uint3& bidx) {
  grid_epoch_ = 0;
  grid_epoch_end_ = false;
  const LaunchConfig& cfg = *launch_->config;
  const Dim3 bd = cfg.block, gd = cfg.grid;
  const std::uint32_t n = static_cast<std::uint32_t>(bd.count());
  std::uint32_t tx = 0, ty = 0, tz = 0;  // thread i's index, counted up (no division a thread)
  for (std::uint32_t i = 0; i < n; ++i) {
    ThreadCtx& c = threads_[i];
    c.state = {{tx, ty, tz}, bidx, {bd.x, bd.y, bd.z}, {gd.x, gd.y, gd.z}, nullptr, 0};
    if (++tx == bd.x) {
      tx = 0;
      if (++ty == bd.y) {
        ty = 0;
        ++tz;
      }
    }
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
  keep_block_ = std::binary_search(launch_->keep_sorted.begin(), launch_->keep_sorted.end(), b);
  if (keep_block_ && kept_accesses_ > 0) {  // as many as the last kept block's, made at once
    current_.accesses.reserve(std::min(kept_accesses_, kMaxKept));
    current_.values.reserve(std::min(kept_accesses_, kMaxKept));
  }
  requests_.Begin(n, kMaxSites);
  const std::uint32_t warps = (n + 31) / 32;
  // A cache replay needs each load's request number as it is made: on the per-thread path, the
  // per-access path (a warp function makes its requests whole: CacheWarp).
  logging_ =
      !keep_block_ && cfg.schedule.kind == Schedule::Kind::kInOrder && (simt_ || !launch_->cache);
  kept_log_ = keep_block_ && simt_ && hazards_ && cfg.schedule.kind == Schedule::Kind::kInOrder;
  replay_.assign(warps, 0);
  if (instances_) instance_table_.Begin(warps, kMaxSites);
  warp_done_.assign(warps, 0);
  current_.accesses.clear();
  hazards_begin_ = 0;
  cache_records_.clear();
  current_.barriers.clear();
  current_.warp_ops.clear();
  current_.async_events.clear();
  tile_syncs_.clear();
  current_.values.clear();
  warp_iterations_.clear();
  for (const auto& [data, bytes] : shared_arrays_) std::memset(data, kUnwrittenShared, bytes);
  std::fill(dynamic_shared_.begin(), dynamic_shared_.end(), kUnwrittenShared);
  rng_ = launch_->config->schedule.seed ^ (b * 0x9e3779b97f4a7c15ull);
}

// Not every thread that has not exited waits at the same barrier: the error names each barrier
// and its threads, and the threads that exited; or threads wait (kAtWait) and none can go on:
// it names each wait and its threads.
void Worker::ReportBarrierMismatch(std::uint64_t b, const uint3& bidx, std::uint32_t n) {
  std::vector<std::uint32_t> exited;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::vector<std::uint32_t>> by_place;
  bool tiles = false;  // a multi-warp tile's sync among them
  std::map<std::pair<std::uint32_t, std::string>, std::vector<std::uint32_t>> waiting;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (threads_[i].status == ThreadStatus::kExited) {
      exited.push_back(i);
    } else if (threads_[i].status == ThreadStatus::kAtWait) {
      waiting[{threads_[i].wait_place, threads_[i].wait_what}].push_back(i);
    } else {
      by_place[{threads_[i].barrier_place, threads_[i].barrier_tile}].push_back(i);
      tiles = tiles || !BlockWide(threads_[i].barrier_tile);
    }
  }
  std::ostringstream m;
  m << "block (" << bidx.x << "," << bidx.y << "," << bidx.z << ") "
    << (waiting.empty() ? "cannot pass its barrier: " : "waits for ever, no thread can go on: ");
  bool first = true;
  if (!waiting.empty()) {  // a block pipeline's waits that nothing will end
    for (const auto& [at, ids] : waiting) {
      m << (first ? "" : "; ") << "threads " << ThreadList(ids) << " wait at " << at.second
        << " on line " << PlaceLine(at.first);
      first = false;
    }
  }
  for (const auto& [at, ids] : by_place) {
    m << (first ? "" : "; ") << "threads " << ThreadList(ids) << " wait at ";
    if (at.second == kGridSync)
      m << "this_grid().sync()";
    else if (at.second == kClusterSync)
      m << "cluster.sync()";
    else if (at.second == 0)
      m << "__syncthreads()";
    else
      m << "the sync() of a tile of " << at.second << " threads";
    m << " on line " << PlaceLine(at.first);
    first = false;
  }
  if (!exited.empty())
    m << "; threads " << ThreadList(exited)
      << (waiting.empty() ? " exited without reaching it" : " exited");
  const bool grid = std::any_of(by_place.begin(), by_place.end(),
                                [](const auto& at) { return at.first.second == kGridSync; });
  if (!waiting.empty())
    m << ". On a GPU this hangs; a consumer_wait() needs every producer of its stage to commit "
         "it, and a producer_acquire() every consumer to release the stage's last use.";
  else if (grid)
    m << ". On a GPU this hangs or corrupts the grid; every thread of a cooperative launch must "
         "reach each this_grid().sync(), and every thread of a block the same __syncthreads().";
  else if (tiles)
    m << ". On a GPU this hangs or corrupts the block; every thread of a tile must reach the "
         "same sync() of its tile, and every thread of a block the same __syncthreads().";
  else
    m << ". On a GPU this hangs or corrupts the block; every thread of a block must reach the "
         "same __syncthreads().";
  ReportError(b, m.str());
}

// Every thread of the block waits at the barrier at `place`: all leave when the last one arrived
// (the departure), with the block's count for __syncthreads_count(). False: too many barrier
// sites (the launch stops).
bool Worker::PassBarrier(std::uint64_t b, std::uint32_t place, std::uint32_t n,
                         std::uint32_t floor) {
  if (hazards_) CheckInterval();
  const std::uint16_t id = BarrierId(place);
  if (id >= kMaxBarrierSites) {
    ReportError(b, "line " + std::to_string(PlaceLine(place)) + ": the kernel has more than " +
                       std::to_string(kMaxBarrierSites) + " __syncthreads() sites");
    return false;
  }
  std::uint32_t departure = floor, earliest = ~0u;  // floor: a grid sync's latest arrival
  int count = 0;
  bool one_instance = true;  // every thread's count of this barrier agrees
  const std::uint32_t iteration = threads_[0].barrier_count[id];
  for (std::uint32_t i = 0; i < n; ++i) {
    departure = std::max(departure, threads_[i].clock);
    earliest = std::min(earliest, threads_[i].clock);
    count += threads_[i].barrier_predicate;
    one_instance = one_instance && threads_[i].barrier_count[id] == iteration;
  }
  // In a block that is not kept, one instance of the barrier goes into the figures at once, as
  // AnalyzeBarriers would add its records (no record a thread).
  const bool at_once = !keep_block_ && one_instance;
  if (at_once) {
    if (stats_.barriers.size() <= id) stats_.Resize(0, id + 1u);
    BarrierStats& bs = stats_.barriers[id];
    ++bs.instances;
    bs.max_skew = std::max<std::uint64_t>(bs.max_skew, departure - earliest);
    bs.max_wait = std::max<std::uint64_t>(bs.max_wait, departure - earliest);
    bs.thread_arrivals += n;
    stats_.barrier_records += n;
  }
  std::uint64_t waits = 0;
  for (std::uint32_t i = 0; i < n; ++i) {
    ThreadCtx& c = threads_[i];
    c.barrier_result = count;
    c.barrier_predicate = 0;
    c.touched = true;
    if (at_once) {
      waits += departure - c.clock;
      ++c.barrier_count[id];
    } else {
      current_.barriers.push_back(
          {c.clock, departure, c.barrier_count[id]++, static_cast<std::uint16_t>(i), id, 0});
    }
    c.clock = departure + 1;
    ++c.epoch;
    c.status = ThreadStatus::kReady;
  }
  if (at_once) stats_.barriers[id].wait_sum += waits;
  return true;
}

// The block's end: its last interval checked, its records kept (if the user keeps it), its
// requests and barriers into the worker's figures, its loads into the cache replay.
void Worker::EndBlock(std::uint64_t b, std::uint32_t n) {
  const LaunchConfig& cfg = *launch_->config;
  if (hazards_) CheckInterval(true);
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
  if (keep_block_) {  // moved, not copied (a 1024^2 matmul's block: 60 MB)
    kept_accesses_ = current_.accesses.size();
    {
      std::lock_guard lock(launch_->mutex);
      launch_->kept[b] = std::move(current_);  // in execution order
    }
    current_ = BlockRecords{};
  }
}

}  // namespace ws::emu::detail
