// The emulator worker's state (private to kernels/emu/; worker.h): its limits, one GPU thread's
// context (ThreadCtx) and what the workers of one launch share (Launch).
#pragma once

#include <boost/context/fiber.hpp>

#include <algorithm>
#include <atomic>
#include <condition_variable>
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
#include "warpscope/kernels/emu_runtime.h"
#include "warpscope/kernels/site_table.h"
#include "warpscope/kernels/ws_cuda.h"
#include "warpscope/kernels/ws_program_simt.h"
#include "warpscope/trace/analysis.h"
#include "warpscope/trace/hazards.h"

namespace ws::emu::detail {

//-------------------------------------------------------------------------------------------------
// [SECTION] Limits and constants
//-------------------------------------------------------------------------------------------------

namespace ctx = boost::context;

constexpr std::size_t kMaxSites = 256;
// A kept block's access records at most (36 bytes each with their values: 576 MB).
constexpr std::size_t kMaxKept = std::size_t{16} << 20;
constexpr std::size_t kMaxBarrierSites = 16;
constexpr std::uint32_t kGridSync = ~0u;  // ThreadCtx::barrier_tile of a thread at a grid sync
constexpr std::uint32_t kClusterSync = ~0u - 1;  // ... and at a cluster's sync (worker_cluster.cpp)
// A sync of the whole block first: a grid's or a cluster's sync, or the block's own barrier.
constexpr bool BlockWide(std::uint32_t barrier_tile) {
  return barrier_tile == 0 || barrier_tile == kGridSync || barrier_tile == kClusterSync;
}
constexpr std::size_t kMaxWarpOpSites = 32;
#if defined(__SANITIZE_ADDRESS__)
constexpr std::size_t kStackBytes = 256 * 1024;
#else
constexpr std::size_t kStackBytes = 64 * 1024;
#endif
// A warp's variables are 32 of each thread's: a warp fiber's stack is larger than a thread's.
#if defined(__SANITIZE_ADDRESS__)
constexpr std::size_t kWarpStackBytes = std::size_t{4} << 20;
#else
constexpr std::size_t kWarpStackBytes = std::size_t{1} << 20;
#endif
// Fiber stacks of `bytes` (kStackBytes or kWarpStackBytes) from the pool kept across launches
// (runtime.cpp), and back to it: Boost's allocator interface.
template <std::size_t bytes>
struct PooledStack {
  ctx::stack_context allocate();
  void deallocate(ctx::stack_context& sc);
};

struct ThreadAbort {};  // unwinds a fiber whose thread hit an error

// Shared memory a block has not written holds this byte in every place (a GPU leaves it
// undefined): a float read from it is a NaN and an int -1, so a race that reads a slot before
// its writer shows in the output check, never equal to a right answer by chance (as 0 would be).
constexpr unsigned char kUnwrittenShared = 0xff;

//-------------------------------------------------------------------------------------------------
// [SECTION] ThreadCtx: one GPU thread
//-------------------------------------------------------------------------------------------------

// kAtWait: parked until what it waits for holds (ThreadCtx::wait_ready: a block pipeline's
// stage, emu_async.cpp), checked between the block's rounds (Worker::WakeWaiters).
enum class ThreadStatus : std::uint8_t {
  kReady,
  kAtBarrier,
  kAtWarpOp,
  kAtWait,
  kExited,
  kFaulted
};

struct ThreadCtx {
  ThreadState state{};
  std::uint32_t linear = 0;
  std::uint32_t clock = 0;
  ThreadStatus status = ThreadStatus::kReady;
  std::uint32_t barrier_place = 0;  // MakePlace(file, line) of the barrier it waits at
  std::uint32_t barrier_tile = 0;   // its tile's threads (a multi-warp tile's sync); 0: the block
                                    // (kGridSync: this_grid().sync(), a block barrier first)
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
  // At a wait (kAtWait): whether it may go on, and the clock it goes on at (at least its own);
  // where and what, for the message when the block's threads wait for each other for ever.
  std::function<bool(std::uint32_t*)> wait_ready;
  std::uint32_t wait_place = 0;
  std::string wait_what;
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

//-------------------------------------------------------------------------------------------------
// [SECTION] Launch: what the workers of one launch share
//-------------------------------------------------------------------------------------------------

// What all workers of one launch share.
// this_grid().sync() in a cooperative launch (worker_tiles.cpp): every block, each on a worker of
// its own, waits until all have come. A block that ends (or fails) while others wait, or before
// a sync they reach, breaks it: on a GPU they would wait for ever. A cluster's sync
// (worker_cluster.cpp) is one too, of the cluster's blocks, made anew for each cluster (Reset).
class GridRendezvous {
 public:
  // `sync`: what the program calls ("this_grid().sync()"); `whole`: whose blocks must all
  // reach it ("a cooperative launch"), and what waits ("the grid").
  explicit GridRendezvous(std::uint64_t blocks, std::string sync = "this_grid().sync()",
                          std::string whole = "a cooperative launch", std::string who = "the grid")
      : blocks_(blocks), sync_(std::move(sync)), whole_(std::move(whole)), who_(std::move(who)) {}
  enum class Outcome { kPassed, kStop, kError };
  // Block `b`'s threads all wait at the grid sync at `place`. kStop: another block failed (its
  // error is the launch's); kError: `*why` says what broke the sync.
  // `clock`: the block's latest arrival in, the grid's (every block's) out.
  Outcome Arrive(std::uint64_t b, std::uint32_t place, std::uint32_t* clock, std::string* why);
  // Block `b` ended (`failed`: with an error); it reaches no more grid syncs.
  void Leave(std::uint64_t b, bool failed);
  // For the next cluster: nobody waits or has left (every block of the last one left).
  void Reset() {
    std::lock_guard lock(mutex_);
    arrived_ = left_ = 0;
    latest_ = 0;
  }

 private:
  std::mutex mutex_;
  std::condition_variable passed_;
  const std::uint64_t blocks_;
  const std::string sync_, whole_, who_;
  std::uint64_t arrived_ = 0, left_ = 0, generation_ = 0;
  std::uint32_t latest_ = 0, released_ = 0;  // this sync's latest arrival; the last one passed
  std::uint32_t place_ = 0;                  // the sync the waiting blocks are at
  bool broken_ = false, failed_ = false;
  std::string why_;
};

class ClusterTeam;  // worker_cluster.h

struct Launch {
  const LaunchConfig* config = nullptr;
  const std::function<void()>* body = nullptr;
  // The SIMT path: the kernel's warp function, once per warp (null: the body, once per thread).
  const std::function<void(const WarpLanes&)>* warp_body = nullptr;
  std::uint32_t tag = 0;
  // LaunchConfig::keep_blocks, sorted: each block looks itself up as it begins (a launch that
  // keeps every block of a large grid made that a scan of the whole list per block).
  std::vector<std::uint32_t> keep_sorted;
  std::atomic<std::uint64_t> next_block{0};
  std::atomic<std::uint64_t> stop_after{~0ull};  // blocks above the first faulting one are skipped
  std::mutex mutex;
  std::map<std::uint64_t, std::uint16_t> site_ids;  // key -> provisional id (first come)
  std::vector<SiteInfo> sites_by_id;                // provisional id -> info, written under mutex
  std::map<std::uint32_t, std::uint16_t> barrier_ids;    // place -> provisional id
  std::map<std::uint32_t, std::uint32_t> barrier_tiles;  // place -> a multi-warp tile's threads
  // a site key but its size -> the wmma fragment loaded or stored there (Worker::NoteFragment)
  std::map<std::uint64_t, std::string> fragment_notes;
  std::unique_ptr<GridRendezvous> grid;  // a cooperative launch's grid syncs (worker_tiles.cpp)
  // A cluster launch's teams (worker_cluster.h): each runs one cluster at a time, a worker a block.
  std::vector<std::unique_ptr<ClusterTeam>> teams;
  std::atomic<std::uint64_t> next_cluster{0};
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
  std::vector<std::uint8_t> only_read_broken;  // by buffer id: a store reached one only read
  ShadowOrder shadow;
  // A cooperative launch's: one shadow a grid epoch (the accesses between two grid syncs), which
  // pairs the blocks' global accesses of that epoch only (the grid sync orders the rest).
  // A block asks for epoch e + 1 only after the grid sync that ends epoch e, which every block
  // reached after putting in its end of epoch e - 1: that shadow is done, its tally kept in
  // grid_tally and its memory let go.
  std::mutex grid_shadows_mutex;
  std::vector<std::unique_ptr<ShadowOrder>> grid_shadows;
  HazardTally grid_tally;
  ShadowOrder& GridShadow(std::uint32_t epoch) {
    std::lock_guard lock(grid_shadows_mutex);
    while (grid_shadows.size() <= epoch) {
      grid_shadows.push_back(std::make_unique<ShadowOrder>());
      grid_shadows.back()->NeverWait(config->grid.count());
    }
    if (epoch >= 2 && grid_shadows[epoch - 2]) {
      grid_tally.Merge(grid_shadows[epoch - 2]->tally());
      grid_shadows[epoch - 2].reset();
    }
    return *grid_shadows[epoch];
  }
  std::unique_ptr<GridCacheReplay> cache;  // LaunchConfig::cache_probes, if any
};

class Worker;
// The running worker and fiber of this OS thread (defined in runtime.cpp). constinit: no
// dynamic initialization, so a read from another file is a plain thread-local load, with no call
// to a guard function.
extern constinit thread_local Worker* t_worker;
extern constinit thread_local ThreadCtx* t_ctx;

}  // namespace ws::emu::detail
