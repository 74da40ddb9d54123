// The CPU emulator: runs one kernel launch with one fiber per GPU thread.
//
// - A block runs on one worker (an OS thread); its threads are fibers (Boost.Context) created
//   once per worker and reused block after block. Fibers run in thread order until they finish
//   or reach __syncthreads(); when every thread of the block waits at the same barrier, all leave
//   it together (departure = the latest arrival on the logical clock).
// - A barrier that some threads never reach (they exited, or wait at another barrier) is an
//   error naming the line and the threads; the emulator never hangs.
// - Blocks are dealt to workers over all cores. Each block is analysed as soon as it finishes
//   and only the kept blocks' records are stored, so statistics cover the whole grid without a
//   full trace. Results do not depend on which worker ran which block: the same launch gives the
//   same trace, byte for byte.
// - With the block-scheduler model on (LaunchConfig::model_sms), one worker runs the blocks in
//   index order and each block starts on the SM and at the time the model gives it, so a kernel
//   reading smid() and globaltimer() sees a schedule like a GPU's (deterministic, in work units).
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "warpscope/trace/cache_model.h"
#include "warpscope/trace/device_preset.h"
#include "warpscope/trace/launch.h"
#include "warpscope/trace/schedule.h"
#include "warpscope/trace/status.h"

namespace ws::emu {

struct ThreadState;

// The SIMT path (docs/ENGINE.md): a warp's 32 lanes run together in one call of the kernel's warp
// function, on one fiber per warp. What the worker tells the warp function about its warp.
struct WarpLanes {
  std::uint32_t warp = 0;  // in the block
  std::uint32_t live = 0;  // the lanes that exist (a block's last warp may be partial)
  bool values = false;     // accesses carry their values (the race check, a kept block)
  const ThreadState* state[32] = {};
  std::uint32_t* clock[32] = {};  // each lane's clock: one tick per access
};

struct LaunchConfig {
  std::string kernel;
  Dim3 grid, block;
  // A cooperative launch (cudaLaunchCooperativeKernel): every block resident at once, each on a
  // worker of its own, so that this_grid().sync() can wait for all.
  bool cooperative = false;
  // A cluster launch (compute capability 9.0: __cluster_dims__, cudaLaunchKernelEx's cluster
  // attribute): the grid's blocks in clusters of this many, each cluster's blocks resident at
  // once, each on a worker of its own, so that cluster.sync() waits for all and a block reaches
  // the others' shared memory (emu/worker_cluster.h). {1, 1, 1}: none.
  Dim3 cluster;
  std::uint32_t shared_bytes = 0;          // declared static shared memory, checked before running
  std::uint32_t dynamic_shared_bytes = 0;  // <<<grid, block, bytes>>>
  std::vector<BufferInfo> buffers;
  // Where each buffer lies in this process (a lesson's warp functions find their arrays by
  // address: lesson_simt.cpp); empty for a program, whose runtime knows its own.
  std::vector<const void*> buffer_data;
  // Per buffer, 1 where it holds a lesson's __constant__ array (CopyToSymbol): its warp
  // functions' loads of it are keyed in the constant space.
  std::vector<std::uint8_t> buffer_constant;
  // A lesson's __constant__ arrays, each bound to the buffer its run's CopyToSymbol gave it (a
  // process-wide symbol: two runs at once, the app's slider and its sweep, each have their own).
  struct ConstantBinding {
    const void* symbol;
    const void* data;
    std::uint32_t buffer;
  };
  std::vector<ConstantBinding> constant_symbols;
  // Per buffer, where a lesson's texture lies over it (MakeTexture2D), the bytes its layout spans
  // (0: none): a warp function's texture fetches are keyed at the layout's offsets in it.
  std::vector<std::uint64_t> buffer_texture_bytes;
  DevicePreset preset;
  std::vector<std::uint32_t> keep_blocks;  // linear block indices whose records are kept
  unsigned workers = 0;                    // 0: one per core
  // The block-scheduler model (trace/block_schedule.h): with model_sms > 0 the blocks run one
  // after another in index order, each placed on an SM when one of its model_blocks_per_sm slots
  // frees; smid() and globaltimer() read the placement. 0: no model (every block starts at 0).
  int model_sms = 0, model_blocks_per_sm = 0;
  // The order the block's threads are interleaved in (trace/schedule.h); in-order by default.
  Schedule schedule;
  // A warp's request at a site is formed by its lanes that reach the site with the same instance
  // key (ThreadState::instance: the program's loop iterations and calls), as the lanes a GPU runs
  // together; otherwise by each lane's k-th arrival (the lessons, which never skip a step).
  bool instances = false;
  // Counts the blocks that finished (a program's progress, progress.h), if set.
  std::atomic<std::uint64_t>* blocks_done = nullptr;
  // Races are looked for in every block as it runs (trace/hazards.h); off, only among the kept
  // blocks, from their records.
  bool whole_grid_hazards = true;
  // Every block's loads replayed through these caches as the blocks end (trace/cache_model.h);
  // the counts are the trace's cache_replays.
  std::vector<CacheProbe> cache_probes;
  // The kernel's warp function (the SIMT path), if it has one: called once per warp, on a fiber
  // of the warp's own, instead of the body once per thread. Only with the in-order schedule, no
  // cache probes (RunLaunch falls back to the body otherwise).
  std::function<void(const WarpLanes&)> warp_body;
};

// Runs `body` (the kernel call) once per GPU thread. Returns the launch's trace, or the error
// that stopped it (a limit, an out-of-range index, a barrier not all threads reach).
Result<LaunchTrace> RunLaunch(const LaunchConfig& config, const std::function<void()>& body);

// Thread-block clusters (emu/worker_cluster.cpp). At most kMaxClusterBlocks blocks a cluster.
inline constexpr std::uint32_t kMaxClusterBlocks = 8;
// Whether `config`'s cluster fits its grid and preset (a message naming the limit where not).
Status CheckCluster(const LaunchConfig& config);
// For code running inside a launch: the calling block's rank in its cluster, the cluster's blocks
// (1 and rank 0 outside a cluster launch), its sync (the block's barrier, then the cluster's),
// and where `p` (the calling block's shared memory) lies in block `rank`'s of the cluster (the
// thread fails, naming `place`, where there is no such rank).
std::uint32_t ClusterRank();
std::uint32_t ClusterBlocks();
void ClusterSync(std::uint32_t place);
void* ClusterMapShared(const void* p, std::uint32_t rank, std::uint32_t place);
// Where `addr` lies in another block's shared memory of the caller's cluster: that block's rank
// and the same place in the caller's own (`*own`), which `mine(own, ctx)` must say is one of the
// caller's shared arrays. False where it is no other block's.
bool ClusterRemoteShared(std::uintptr_t addr, bool (*mine)(std::uintptr_t, void*), void* ctx,
                         std::uint32_t* rank, std::uintptr_t* own);
// The calling thread's access of `bytes` in the shared memory of its cluster's block of rank
// `rank`, added to the launch's LaunchStats::cluster_bytes (the whole grid's).
void NoteClusterAccess(std::uint32_t rank, std::uint32_t bytes);

// For code running inside a launch (the program runtime): ends the calling GPU thread's launch
// with `what` (prefixed with the place's line, followed by the thread and block), and the number
// that tells this launch from the others (what SharedArrayBase's tag compares with).
[[noreturn]] void FailThread(std::uint32_t place, const std::string& what);
std::uint32_t CurrentLaunchTag();
// Parks the calling GPU thread (thread by thread, not a warp function) until `ready` says it may
// go on, checked between the block's rounds; it goes on at the logical clock `ready` gives it (or
// its own, where later). Where the block's threads all wait and none can go on, the launch stops
// naming `what` at `place` and the threads there.
void WaitFor(std::uint32_t place, std::string what, std::function<bool(std::uint32_t*)> ready);
// Orders the calling thread's block's accesses before logical time `time` against those after
// it in the race check, without ending its barrier interval.
void OrderBlockAt(std::uint32_t time);
// The calling thread reads shared memory (site key `read_key`, `offset` into the block's window)
// where its own asynchronous copy (the shared write's site key `copy_key`) lands later: a hazard
// of kind HazardKind::kEarlyRead, where the race check is on.
void ReportEarlyRead(std::uint64_t copy_key, std::uint64_t read_key, std::uint32_t offset);
// The calling thread's asynchronous-copy event (AsyncEventKind) at its logical clock now, kept
// with the block's records where the block is kept (the pipeline view).
void NoteAsyncEvent(int kind, std::uint32_t group, std::uint32_t stages = 0);
// A wmma fragment's load or store whose sites have key `key` but for its size bits, `what()`
// naming it ("m16n16k16 a half row 16": shape, use, type and layout as kernels/tensor/
// fragments.tsv, then the leading dimension; called once a launch and worker): those sites carry
// it (SiteInfo::fragment), or "several" where two calls there named different fragments.
void NoteFragmentSite(std::uint64_t key, const std::function<std::string()>& what);
// The configuration of the launch the calling worker runs.
const LaunchConfig& CurrentLaunchConfig();

// For a warp function (the SIMT path; the running warp is the worker's):
// One request of the running warp: the lanes in `mask`, their offsets, their clocks' times and
// (LaneWarp::values) the values.
//
// With the race check, a shared load's request whose lanes' offsets step evenly and whose times
// agree may be kept without its values (`ptrs`, each lane's address, given: null where the
// statement also stores, whose loads must keep theirs): t_reads_pending is then set, and before
// the next store of the block (SimtReadValues) or at its barrier the values are read from memory,
// which nothing has written since those loads.
void RecordWarpAccess(std::uint64_t key, std::uint32_t mask, const std::uint32_t (&offsets)[32],
                      const std::uint32_t (&times)[32], const std::uint64_t* values,
                      const void* const* ptrs = nullptr);
// The same for a whole warp whose lanes lie in rows of `group` lanes (32, 16, 8, 4 or 2): lane
// l at offset `first + (l / group) * delta + (l % group) * step` (the common shapes: consecutive,
// broadcast, strided, and a 2D block's rows of blockDim.x lanes), costed by its shape without a
// lane's offset in hand. (`delta` is 0 where `group` is 32.)
void RecordWarpAffine(std::uint64_t key, std::uint32_t first, std::int32_t step, std::int32_t delta,
                      std::uint32_t group, const std::uint32_t (&times)[32],
                      const std::uint64_t* values, const void* const* ptrs);
extern constinit thread_local bool t_reads_pending;
void SimtReadValues();
// The running worker's buffers whose loads skip the race check for this launch: those in `read`
// (ids) and not in `written` (ws::simt::OnlyRead).
void OnlyRead(const std::uint32_t* read, std::size_t reads, const std::uint32_t* written,
              std::size_t writes);
// The lanes in `mask` reach __syncthreads() at `place`. False where other lanes of the warp
// that have not exited are in another branch: the lanes in `mask` then wait there for good
// (they run no more; the block's barrier check names them as the per-thread path does).
bool WarpBarrier(std::uint32_t mask, std::uint32_t place);
// The lanes in `mask` left the kernel (a `return`).
void WarpExit(std::uint32_t mask);
// A warp-level intrinsic on the SIMT path: each running lane's call is noted (SimtWarpOpNote,
// as the per-thread path's lane waits at it), then the lanes meet as they meet there
// (SimtWarpOpMeet: the same groups, records, clocks and errors), and each lane takes its result.
void SimtWarpOpNote(int lane, std::uint32_t kind, std::uint32_t mask, std::uint64_t value, int arg,
                    int width, std::uint32_t place);
void SimtWarpOpMeet();
std::uint64_t SimtWarpOpResult(int lane);
// The calls that read the running thread (printf, clock64, assert) see lane `lane`; LeaveLanes
// goes back to the warp's first lane.
void EnterLane(int lane);
// Whether `p` is on the stack of the fiber running now (a thread's or a warp's): 1 yes, 0 no, -1
// not known (no fiber runs: the caller's own stack, whose bounds it judges).
int OnFiberStack(const void* p);
void LeaveLanes();

}  // namespace ws::emu
