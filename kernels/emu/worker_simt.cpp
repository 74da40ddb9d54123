// The worker's SIMT path (worker.h; docs/ENGINE.md, "The SIMT engine"): a block's warps, each a
// fiber that runs the kernel's warp function for its 32 lanes together. A warp's request comes
// formed (RecordWarp: one call, its lanes' offsets, times and values); a barrier stops the warp,
// not a thread, and the block's barrier is passed as on the per-thread path (PassBarrier), with
// the same records, so that every figure is the per-thread path's.
#include "emu/worker.h"

namespace ws::emu::detail {

// One fiber per warp, kept at the index of the warp's first thread (threads_[w * 32] holds its
// scheduler and stack); the others stay empty.
void Worker::StartWarpFibers(std::uint32_t n) {
  threads_.resize(n);
  fibers_.resize(n);
  PooledStack<kWarpStackBytes> alloc;  // kept across launches, as the threads' are
  for (std::uint32_t first = 0; first < n; first += 32) {
    ThreadCtx* c = &threads_[first];
    const ctx::stack_context sc = alloc.allocate();
    c->stack.bottom = static_cast<char*>(sc.sp) - sc.size;
    c->stack.size = sc.size;
    FreshStack(c->stack);
    const std::uint32_t w = first / 32;
    fibers_[first] = ctx::fiber(std::allocator_arg, ctx::preallocated(sc.sp, sc.size, sc), alloc,
                                [this, c, w, n](ctx::fiber&& sched) {
                                  AfterSwitch(c->stack, &scheduler_stack_);
                                  c->scheduler = std::move(sched);
                                  while (!quitting_) {
                                    c->in_kernel = true;
                                    RunWarp(w, n);
                                    c->in_kernel = false;
                                    YieldToScheduler(c);
                                  }
                                  BeforeFinalSwitch(scheduler_stack_);
                                  return std::move(c->scheduler);
                                });
  }
}

// Warp `w`'s lanes through the warp function; each ends exited, or faulted if one failed.
void Worker::RunWarp(std::uint32_t w, std::uint32_t n) {
  const std::uint32_t first = w * 32, end = std::min(n, first + 32);
  WarpLanes lanes;
  lanes.warp = w;
  lanes.values = keep_block_ || hazards_;
  for (std::uint32_t i = first; i < end; ++i) {
    lanes.live |= 1u << (i - first);
    lanes.state[i - first] = &threads_[i].state;
    lanes.clock[i - first] = &threads_[i].clock;
  }
  try {
    (*launch_->warp_body)(lanes);
    for (std::uint32_t i = first; i < end; ++i)
      if ((simt_parked_[w] >> (i - first) & 1u) == 0u) threads_[i].status = ThreadStatus::kExited;
    warp_state_[w] = kWarpDone;
  } catch (const ThreadAbort&) {
    for (std::uint32_t i = first; i < end; ++i) threads_[i].status = ThreadStatus::kFaulted;
    warp_state_[w] = kWarpFaulted;
  }
}

// A block on the SIMT path: its warps in order, each until it waits at a barrier or ends; when
// every thread waits at one barrier, all leave (PassBarrier, as on the per-thread path).
bool Worker::RunBlockSimt(std::uint64_t b) {
  const LaunchConfig& cfg = *launch_->config;
  const Dim3 gd = cfg.grid;
  const std::uint32_t n = static_cast<std::uint32_t>(cfg.block.count());
  const std::uint32_t warps = (n + 31) / 32;
  const std::uint64_t gxy = std::uint64_t{gd.x} * gd.y;
  const uint3 bidx = {static_cast<unsigned>(b % gd.x), static_cast<unsigned>((b / gd.x) % gd.y),
                      static_cast<unsigned>(b / gxy)};
  BeginBlock(b, bidx);
  simt_logged_.assign(warps, 0u);
  SimtClearLog();
  simt_touched_.assign(warps, 0u);
  simt_parked_.assign(warps, 0u);
  if (simt_iter_.size() != warps) simt_iter_.resize(warps);
  for (std::vector<std::uint32_t>& it : simt_iter_) std::fill(it.begin(), it.end(), 0u);
  warp_state_.assign(warps, kWarpReady);
  for (;;) {
    for (std::uint32_t w = 0; w < warps; ++w) {
      if (warp_state_[w] != kWarpReady) continue;
      simt_warp_ = w;
      Resume(w * 32);
      if (warp_state_[w] == kWarpFaulted) return false;
      if (!warp_done_[w]) FinishWarpIfExited(w, n);
    }
    const std::uint32_t place0 = threads_[0].barrier_place;
    const BlockStop stop = StopOf(n);
    if (stop == BlockStop::kEnded) break;
    if (stop == BlockStop::kApart) {
      ReportBarrierMismatch(b, bidx, n);
      return false;
    }
    for (std::uint32_t w = 0; w < warps; ++w) {
      if (simt_parked_[w] == 0) continue;
      // Every thread came to one barrier, but a warp's lanes came apart (a divergent branch each
      // side of which holds the barrier): its parked lanes cannot go on. The per-thread path
      // runs such a kernel; this one says so.
      std::vector<std::uint32_t> parked;
      for (std::uint32_t l = 0; l < 32; ++l)
        if ((simt_parked_[w] >> l & 1u) != 0u) parked.push_back(w * 32 + l);
      ReportError(b, "line " + std::to_string(PlaceLine(place0)) + ": threads " +
                         ThreadList(parked) +
                         " reached __syncthreads() apart from the rest of their warp (in a "
                         "divergent branch); the SIMT engine cannot run them on from there "
                         "(run with --engine fiber)");
      return false;
    }
    if (!PassBarrier(b, place0, n)) return false;
    for (std::uint8_t& st : warp_state_)
      if (st == kWarpWaiting) st = kWarpReady;
  }
  for (std::uint32_t i = 0; i < n; ++i)
    if ((simt_touched_[i / 32] >> (i % 32) & 1u) != 0u) threads_[i].touched = true;
  // A warp meets as it goes (not when every warp is waiting): its meetings in time order.
  std::stable_sort(current_.warp_ops.begin(), current_.warp_ops.end(),
                   [](const WarpOpRecord& x, const WarpOpRecord& y) {
                     return std::pair(x.time, x.warp) < std::pair(y.time, y.warp);
                   });
  EndBlock(b, n);
  return true;
}

// One request of the running warp. In a block that is not kept it is costed now (AddWhole) and,
// for the race check, each lane's access goes into its log, already formed; in a kept block each
// access is a record, and the request a row, as on the per-thread path.
void Worker::RecordWarp(std::uint64_t key, std::uint32_t mask, const std::uint32_t (&offsets)[32],
                        const std::uint32_t (&times)[32], const std::uint64_t* values,
                        const void* const* ptrs) {
  const std::uint16_t id = SiteId(key);
  const std::uint32_t w = simt_warp_, first = w * 32;
  std::vector<std::uint32_t>& iters = simt_iter_[w];
  if (iters.size() <= id) iters.resize(id + 1u, 0u);
  const std::uint32_t iteration = iters[id]++;
  const bool for_hazards = hazards_ && ForHazards(key);
  if (StoresToSeveral(key)) [[unlikely]]
    OnlyReadStores(mask, offsets);
  if (logging_) {
    if (id < kMaxSites) {
      requests_.AddWhole(id, w, mask, offsets, local_sites_, launch_->config->buffers, &stats_);
    } else {
      for (std::uint32_t m = mask; m != 0; m &= m - 1) {
        const std::uint32_t lane = static_cast<std::uint32_t>(__builtin_ctz(m));
        requests_.Add(id, iteration, static_cast<std::uint16_t>(first + lane), offsets[lane]);
      }
    }
    if (for_hazards) SimtLog(id, key, mask, offsets, times, values, ptrs, nullptr);
    if (launch_->cache) [[unlikely]]
      CacheWarp(id, iteration, mask, offsets, times);
    simt_touched_[w] |= mask;
    return;
  }
  // A kept block: records, as the per-thread path keeps them; the request is costed now, as in
  // any block (a row per iteration would hold the same lanes: one call, one request).
  const bool whole = id < kMaxSites;
  std::uint64_t read[32];
  if (values == nullptr && ptrs != nullptr) values = ReadLanes(id, mask, ptrs, read);
  if (whole)
    requests_.AddWhole(id, w, mask, offsets, local_sites_, launch_->config->buffers, &stats_);
  for (std::uint32_t m = mask; m != 0; m &= m - 1) {
    const std::uint32_t lane = static_cast<std::uint32_t>(__builtin_ctz(m));
    ThreadCtx& c = threads_[first + lane];
    const auto thread = static_cast<std::uint16_t>(first + lane);
    const AccessRecord r{offsets[lane], iteration, times[lane], thread, id, c.epoch};
    if (!whole) requests_.Add(id, iteration, thread, offsets[lane]);
    if (launch_->cache) [[unlikely]]
      ForCache(r);
    const std::uint64_t value = values != nullptr ? values[lane] : 0;
    if (keep_block_) {
      if (current_.accesses.size() < kMaxKept) {
        current_.accesses.push_back(r);
        current_.values.push_back(value);
      } else {
        launch_->truncated = true;
      }
    } else if (for_hazards) {
      if (current_.accesses.size() - hazards_begin_ >= HazardReport::kMaxIntervalAccesses) {
        ++hazard_tally_.cut_intervals;
        CheckInterval();
      }
      current_.accesses.push_back(r);
      current_.values.push_back(value);
    }
    c.touched = true;
  }
  if (kept_log_ && for_hazards) SimtLog(id, key, mask, offsets, times, values, nullptr, nullptr);
}

// A whole warp's request whose lanes lie in rows (emu::RecordWarpAffine): counted by its shape
// (WarpRequests::AddAffine); its lanes' offsets are made only for what needs each (the race
// check's log, a kept block's records).
void Worker::RecordWarpAffine(std::uint64_t key, std::uint32_t first, std::int32_t step,
                              std::int32_t delta, std::uint32_t group,
                              const std::uint32_t (&times)[32], const std::uint64_t* values,
                              const void* const* ptrs) {
  std::uint32_t offsets[32];
  const std::uint16_t id = SiteId(key);
  if (!logging_ || id >= kMaxSites || launch_->cache || StoresToSeveral(key)) {
    RowOffsets(first, static_cast<std::uint32_t>(step), static_cast<std::uint32_t>(delta), group,
               offsets);
    RecordWarp(key, ~0u, offsets, times, values, ptrs);
    return;
  }
  const std::uint32_t w = simt_warp_;
  std::vector<std::uint32_t>& iters = simt_iter_[w];
  if (iters.size() <= id) iters.resize(id + 1u, 0u);
  ++iters[id];
  requests_.AddAffine(id, first, step, delta, group, local_sites_, launch_->config->buffers,
                      &stats_);
  if (hazards_ && ForHazards(key)) {
    const std::uint32_t rows[4] = {first, static_cast<std::uint32_t>(step),
                                   static_cast<std::uint32_t>(delta), group};
    SimtLog(id, key, ~0u, offsets, times, values, ptrs, rows);
  }
  simt_touched_[w] = ~0u;
}

// A request's lanes for the cache replay (ForCache), as the per-thread path gives them: each
// lane's offset and time, the warp's number of the request at the site.
void Worker::CacheWarp(std::uint16_t id, std::uint32_t iteration, std::uint32_t mask,
                       const std::uint32_t (&offsets)[32], const std::uint32_t (&times)[32]) {
  const std::uint32_t first = simt_warp_ * 32;
  for (std::uint32_t m = mask; m != 0; m &= m - 1) {
    const std::uint32_t lane = static_cast<std::uint32_t>(__builtin_ctz(m));
    ForCache({offsets[lane], iteration, times[lane], static_cast<std::uint16_t>(first + lane), id,
              threads_[first + lane].epoch});
  }
}

bool Worker::WarpBarrier(std::uint32_t mask, std::uint32_t place) {
  const std::uint32_t w = simt_warp_, first = w * 32;
  const std::uint32_t n = static_cast<std::uint32_t>(threads_.size());
  const std::uint32_t end = std::min(n, first + 32);
  bool together = true;
  for (std::uint32_t i = first; i < end; ++i) {
    ThreadCtx& c = threads_[i];
    if ((mask >> (i - first) & 1u) != 0u) {
      c.status = ThreadStatus::kAtBarrier;
      c.barrier_place = place;
    } else if (c.status != ThreadStatus::kExited) {
      together = false;
    }
  }
  if (!together) {  // a divergent barrier: these lanes stay at it
    simt_parked_[w] |= mask;
    return false;
  }
  ThreadCtx* lead = &threads_[first];  // holds the warp's fiber
  warp_state_[w] = kWarpWaiting;
  YieldToScheduler(lead);
  t_ctx = lead;
  t_thread = &lead->state;
  return true;
}

void Worker::WarpExit(std::uint32_t mask) {
  const std::uint32_t first = simt_warp_ * 32;
  for (std::uint32_t m = mask; m != 0; m &= m - 1)
    threads_[first + static_cast<std::uint32_t>(__builtin_ctz(m))].status = ThreadStatus::kExited;
}

// A lane's warp-level intrinsic, as the per-thread path's lane waits at it (Worker::WarpOp).
void Worker::SimtWarpOpNote(int lane, std::uint32_t kind, std::uint32_t mask, std::uint64_t value,
                            int arg, int width, std::uint32_t place) {
  ThreadCtx& c = threads_[simt_warp_ * 32 + static_cast<std::uint32_t>(lane)];
  if (width <= 0 || width > 32 || (width & (width - 1)) != 0) {
    t_ctx = &c;
    Fail(place, std::string(ToString(static_cast<WarpOpKind>(kind))) + ": width " +
                    std::to_string(width) + " is not a power of two from 1 to 32");
  }
  c.status = ThreadStatus::kAtWarpOp;
  c.warp_place = place;
  c.warp_kind = kind;
  c.warp_mask = mask;
  c.warp_value = value;
  c.warp_arg = arg;
  c.warp_width = width;
}

// The noted lanes meet (ResolveWarpOps: only this warp's lanes wait at one). A meeting that can
// never happen (a lane the mask names is elsewhere) is the launch's error, as on that path.
void Worker::SimtWarpOpMeet() {
  const LaunchConfig& cfg = *launch_->config;
  const std::uint32_t n = static_cast<std::uint32_t>(cfg.block.count());
  const std::uint64_t b = current_.block;
  const Dim3 gd = cfg.grid;
  const std::uint64_t gxy = std::uint64_t{gd.x} * gd.y;
  const uint3 bidx = {static_cast<unsigned>(b % gd.x), static_cast<unsigned>((b / gd.x) % gd.y),
                      static_cast<unsigned>(b / gxy)};
  for (;;) {
    const int met = ResolveWarpOps(b, bidx, n);
    if (met < 0) throw ThreadAbort{};
    bool waiting = false;
    const std::uint32_t first = simt_warp_ * 32, end = std::min(n, first + 32);
    for (std::uint32_t i = first; i < end; ++i)
      waiting = waiting || threads_[i].status == ThreadStatus::kAtWarpOp;
    if (!waiting) return;
    if (met == 0) throw ThreadAbort{};  // (ResolveWarpOps said why)
  }
}

}  // namespace ws::emu::detail
