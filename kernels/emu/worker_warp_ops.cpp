// The worker's warp-level intrinsics (worker.h): a lane that calls one waits (Worker::WarpOp);
// when every lane its mask names is there, the lanes meet and exchange values (warp_meeting.h).
#include "emu/warp_meeting.h"
#include "emu/worker.h"

namespace ws::emu::detail {

std::string Worker::WhereIs(const ThreadCtx& c) {
  switch (c.status) {
    case ThreadStatus::kExited:
      return "has exited";
    case ThreadStatus::kAtBarrier:
      if (c.barrier_tile == kGridSync || c.barrier_tile == kClusterSync)
        return std::string("waits at ") +
               (c.barrier_tile == kGridSync ? "this_grid().sync()" : "cluster.sync()") +
               " on line " + std::to_string(PlaceLine(c.barrier_place));
      return (c.barrier_tile != 0 ? "waits at the sync() of a tile of " +
                                        std::to_string(c.barrier_tile) + " threads on line "
                                  : std::string("waits at __syncthreads() on line ")) +
             std::to_string(PlaceLine(c.barrier_place));
    case ThreadStatus::kAtWarpOp:
      return std::string("waits at ") + ToString(static_cast<WarpOpKind>(c.warp_kind)) +
             " on line " + std::to_string(PlaceLine(c.warp_place)) + " with mask " +
             Hex(c.warp_mask);
    default:
      return "is elsewhere";
  }
}
std::string Worker::Hex(std::uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%08x", v);
  return buf;
}

// The lanes of each warp that wait at a warp-level intrinsic meet when every lane their mask
// names is there: values are exchanged, the meeting recorded, and they go on. Returns how many
// meetings took place (the scheduler then runs the lanes on), or -1 when a warp can never meet
// (a lane of its mask exited or waits elsewhere: on a GPU, a hang or undefined values).
int Worker::ResolveWarpOps(std::uint64_t b, const uint3& bidx, std::uint32_t n) {
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
      ReportError(b, problem + " (block (" + std::to_string(bidx.x) + "," + std::to_string(bidx.y) +
                         "," + std::to_string(bidx.z) + "))");
      return -1;
    }
    met += met_here;
  }
  return met;
}

void Worker::Meet(std::uint32_t w, std::uint32_t first, std::uint32_t group, WarpOpKind kind) {
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

}  // namespace ws::emu::detail
