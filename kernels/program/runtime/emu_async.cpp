// Asynchronous copies from global to shared memory on the emulator (ws_program_async.h):
// __pipeline_memcpy_async, __pipeline_commit and __pipeline_wait_prior, and a thread's
// cuda::pipeline (shim/cuda/pipeline) on the same queue. A copy is recorded as a
// global read where it is issued and lands, as a shared write recorded at its site, at the wait
// that covers it: a read of the destination before then sees what was there before, as the
// hardware may show it.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "emu_program_state.h"  // Builtins, Classify (first: it sets the shim's macros)
#include "warpscope/kernels/emu_runtime.h"
// The shim's declarations of what this file defines.
#include "cuda/barrier"   // a block's barrier
#include "cuda/pipeline"  // the thread's pipeline, and what is not yet
#include "ws_program_async.h"

namespace ws::prog {
namespace {

struct Pending {
  unsigned char* dst = nullptr;
  std::array<unsigned char, 32> bytes{};  // a copy's 16 bytes at most; a bulk copy's piece 32
  unsigned int size = 0, place = 0;
  bool bulk = false;            // a piece of a bulk copy through the TMA (AsyncBulkCopyForBarrier)
  std::uint64_t batch = 0;      // the commit group it belongs to (kBarrierBound, kStageBound)
  const void* stage = nullptr;  // kStageBound: the group pipeline's pipeline_shared_state
  std::uint64_t use = 0;        // and the stage use it goes into
};

// A thread's copies not yet landed; `open` is the group its next copy joins (those before it are
// committed).
struct Copies {
  std::uint64_t launch = 0, block = 0;
  std::uint64_t open = 0;
  // A thread's cuda::pipeline: its oldest stage not yet waited for (libcu++'s tail; its head is
  // `open`, the groups committed).
  std::uint64_t tail = 0;
  std::uint64_t waited = 0;  // the stage its last consumer_wait waited for (the view's release)
  std::vector<Pending> pending;
};

std::atomic<std::uint64_t> g_launch{1};

}  // namespace

thread_local std::uint64_t t_copies_in_flight = 0;
// The launch t_copies_in_flight counts for: copies a launch left unlanded (dropped with a block,
// a launch that stopped) do not count in the next.
thread_local std::uint64_t t_copies_launch = 0;

namespace {

// The running thread's copies, kept per emulated thread on the worker that runs it. A block's
// copies that no wait landed are dropped when its thread state serves another block or launch:
// they were bound for a shared memory that is gone.
Copies& Mine() {
  thread_local std::unordered_map<const void*, Copies> copies;
  const uint3* b = Builtins();  // threadIdx, blockIdx, blockDim, gridDim
  const std::uint64_t block =
      b[1].x + std::uint64_t{b[3].x} * (b[1].y + std::uint64_t{b[3].y} * b[1].z);
  Copies& c = copies[::ws::emu::t_thread];
  const std::uint64_t launch = g_launch.load(std::memory_order_relaxed);
  if (c.launch != launch || c.block != block) {
    t_copies_in_flight -= std::min<std::uint64_t>(t_copies_in_flight, c.pending.size());
    c = Copies{};
    c.launch = launch;
    c.block = block;
  }
  return c;
}

std::uint32_t SpaceOf(const void* p, unsigned int bytes, unsigned int place, unsigned int op) {
  const detail::Classified c = detail::Classify(p, bytes, place, op);
  if (c.where != detail::Where::kRecorded) return ~0u;
  return KeySpaceOf(c.key);
}

}  // namespace

void AsyncLaunchStarts() {
  g_launch.fetch_add(1, std::memory_order_relaxed);
}

namespace {
// The group of a copy bound to a cuda::barrier: it lands at the thread's next arrive_and_wait.
constexpr std::uint64_t kBarrierBound = ~std::uint64_t{0};
// A copy into a group pipeline's stage (Pending::stage): it lands as its thread commits the stage.
constexpr std::uint64_t kStageBound = kBarrierBound - 1;
void Issue(void* dst, const void* src, std::size_t bytes, std::size_t zfill, unsigned int place,
           std::uint64_t bound, const void* stage = nullptr, std::uint64_t use = 0,
           bool bulk = false);
}  // namespace

void AsyncCopy(void* dst, const void* src, std::size_t bytes, std::size_t zfill,
               unsigned int place) {
  Issue(dst, src, bytes, zfill, place, 0);
}

void AsyncCopyForBarrier(void* dst, const void* src, std::size_t bytes, unsigned int place) {
  Issue(dst, src, bytes, 0, place, kBarrierBound);
}

bool AsyncBulkCopyForBarrier(void* dst, const void* src, std::size_t bytes, const void* barrier,
                             unsigned int place) {
  if (::ws::emu::t_thread == nullptr) return true;  // host code: no device to copy on
  // libcu++'s dispatch: global into shared memory with the barrier in the block's shared memory;
  // anything else is its cp.async (or plain copies), which the caller records as before.
  const auto first = static_cast<unsigned int>(bytes < 16 ? bytes : 16);
  if (bytes == 0 || SpaceOf(barrier, 8, place, kOpLoad) != kKeyShared ||
      SpaceOf(dst, first, place, kOpStore) != kKeyShared ||
      SpaceOf(src, first, place, kOpLoad) != kKeyGlobal)
    return false;
  const auto d = reinterpret_cast<std::uintptr_t>(dst), s = reinterpret_cast<std::uintptr_t>(src);
  // cp.async.bulk's rule (the PTX ISA): both addresses and the size multiples of 16 bytes, which
  // the copy's 16-byte alignment promised.
  if (bytes % 16 != 0 || d % 16 != 0 || s % 16 != 0)
    emu::FailThread(place,
                    "cuda::memcpy_async promised 16-byte alignment, which makes it a bulk "
                    "copy through the TMA on compute 9.0 (cp.async.bulk), but its size (" +
                        std::to_string(bytes) +
                        " bytes) or an address is not a multiple "
                        "of 16 bytes");
  async_pieces::ForEachBulkPiece(s, bytes, [&](std::size_t at, std::size_t n) {
    Issue(static_cast<unsigned char*>(dst) + at, static_cast<const unsigned char*>(src) + at, n, 0,
          place, kBarrierBound, nullptr, 0, true);
  });
  return true;
}

namespace {
// The group a copy's events name (AsyncEvent::group): its stage use, its commit group, or 0 for a
// cuda::barrier's.
std::uint32_t GroupOf(const Pending& p) {
  if (p.stage != nullptr) return static_cast<std::uint32_t>(p.use);
  return p.batch == kBarrierBound ? 0u : static_cast<std::uint32_t>(p.batch);
}
void Note(AsyncEventKind kind, std::uint64_t group, std::uint32_t stages = 0) {
  emu::NoteAsyncEvent(static_cast<int>(kind), static_cast<std::uint32_t>(group), stages);
}
// `bound`: 0 for the thread's open commit group, or kBarrierBound, or kStageBound (into `stage`).
// `bulk`: a piece of a bulk copy (AsyncBulkCopyForBarrier, which checked it), keyed as the TMA's.
void Issue(void* dst, const void* src, std::size_t bytes, std::size_t zfill, unsigned int place,
           std::uint64_t bound, const void* stage, std::uint64_t use, bool bulk) {
  if (::ws::emu::t_thread == nullptr) return;  // host code: no device to copy on
  const auto d = reinterpret_cast<std::uintptr_t>(dst), s = reinterpret_cast<std::uintptr_t>(src);
  if (!bulk && bytes != 4 && bytes != 8 && bytes != 16)
    emu::FailThread(
        place, "__pipeline_memcpy_async copies 4, 8 or 16 bytes, not " + std::to_string(bytes));
  if (zfill > bytes)
    emu::FailThread(place, "__pipeline_memcpy_async: the bytes to fill with zeros (" +
                               std::to_string(zfill) + ") are more than the copy's " +
                               std::to_string(bytes));
  if (!bulk && (d % bytes != 0 || s % bytes != 0))
    emu::FailThread(place, "__pipeline_memcpy_async of " + std::to_string(bytes) +
                               " bytes needs both addresses aligned to " + std::to_string(bytes) +
                               " bytes");
  const unsigned int read = static_cast<unsigned int>(bytes - zfill);
  if (SpaceOf(dst, static_cast<unsigned int>(bytes), place, kOpStore) != kKeyShared ||
      (read > 0 && SpaceOf(src, read, place, kOpLoad) != kKeyGlobal))
    emu::FailThread(place,
                    "__pipeline_memcpy_async copies from global memory into shared memory: its "
                    "destination must be a __shared__ array and its source a device buffer");
  if (bulk) {
    const detail::Classified r = detail::Classify(src, read, place, kOpLoad);
    if (r.where == detail::Where::kRecorded) emu::RecordAccess(BulkCopyKey(r.key), r.offset, src);
  } else if (read > 0) {
    Record(src, read, place, kOpLoad);
  }
  Copies& c = Mine();
  Pending p;
  p.dst = static_cast<unsigned char*>(dst);
  p.size = static_cast<unsigned int>(bytes);
  p.place = place;
  p.batch = bound != 0 ? bound : c.open;
  p.stage = stage;
  p.use = use;
  p.bulk = bulk;
  std::memcpy(p.bytes.data(), src, read);  // read where issued; the rest stays zero
  c.pending.push_back(p);
  const std::uint64_t launch = g_launch.load(std::memory_order_relaxed);
  if (t_copies_launch != launch) {
    t_copies_launch = launch;
    t_copies_in_flight = 0;
  }
  ++t_copies_in_flight;
  Note(AsyncEventKind::kIssue, GroupOf(p));
}
}  // namespace

void AsyncCommit() {
  if (::ws::emu::t_thread == nullptr) return;
  Copies& c = Mine();
  Note(AsyncEventKind::kCommit, c.open);
  ++c.open;
}

namespace {

// Lands the copies `lands` says, in the order they were issued.
template <typename Lands>
void Land(Copies& c, Lands lands) {
  std::size_t kept = 0;
  for (std::size_t i = 0; i < c.pending.size(); ++i) {
    Pending& p = c.pending[i];
    if (lands(p)) {
      if (t_copies_in_flight > 0) --t_copies_in_flight;
      // Its site key says an asynchronous copy's write (kKeyAsyncCopy: costed as the hardware
      // serves it); the address was checked where the copy was issued.
      const detail::Classified w = detail::Classify(p.dst, p.size, p.place, kOpStore);
      if (w.where == detail::Where::kRecorded)
        emu::RecordAccess(p.bulk ? BulkCopyKey(w.key) : w.key | kKeyAsyncCopy, w.offset, p.dst);
      Note(AsyncEventKind::kLand, GroupOf(p));
      std::memcpy(p.dst, p.bytes.data(), p.size);
    } else {
      c.pending[kept++] = p;
    }
  }
  c.pending.resize(kept);
}

// Lands the copies of the groups before `upto` (with `barrier`, those bound to a cuda::barrier).
void LandBefore(Copies& c, std::uint64_t upto, bool barrier = false) {
  Land(c, [&](const Pending& p) { return barrier ? p.batch == kBarrierBound : p.batch < upto; });
}

}  // namespace

void AsyncWaitPrior(std::size_t prior, unsigned int place) {
  if (::ws::emu::t_thread == nullptr) return;
  // cuda_pipeline_primitives.h's __pipeline_wait_prior waits through cp.async.wait_group for N
  // from 0 to 8 and aborts the kernel on any other (its switch's default: a GPU reports the trap).
  if (place != ~0u && prior > 8)
    emu::FailThread(place, "__pipeline_wait_prior(" + std::to_string(prior) +
                               "): it takes 0 to 8 groups still in flight "
                               "(cuda_pipeline_primitives.h aborts the kernel on any other)");
  Copies& c = Mine();
  // The committed groups are 0 .. open - 1: all but the newest `prior` of them land.
  const std::uint64_t upto = c.open > prior ? c.open - prior : 0;
  if (upto > 0) Note(AsyncEventKind::kWaitBegin, upto - 1);
  LandBefore(c, upto);
  if (upto > 0) Note(AsyncEventKind::kWaitEnd, upto - 1);
}

// A thread's cuda::pipeline (shim/cuda/pipeline), as libcu++ runs it: its stages are the commit
// groups from its making on (head: `open`); consumer_wait waits for all but the newest head -
// tail - 1 of them (cp.async.wait_group), landing the oldest not yet waited for, and moves the
// tail on; consumer_release does nothing (libcu++'s does nothing either: a program that never
// calls it, as cuda-samples' MatrixMulAsyncCopySingleStage, waits for each stage all the same);
// pipeline_consumer_wait_prior<N> waits for all but the newest N and sets the tail to head - N.
void PipelineStart() {
  if (::ws::emu::t_thread == nullptr) return;
  Copies& c = Mine();
  c.tail = c.open;
}

void PipelineConsumerWait() {
  if (::ws::emu::t_thread == nullptr) return;
  Copies& c = Mine();
  if (c.tail >= c.open) return;  // nothing committed since the last wait
  Note(AsyncEventKind::kWaitBegin, c.tail);
  // cp.async.wait_group waits for all but the newest head - tail - 1 groups, at most 8 of them
  // left in flight (libcu++'s cap): more land where more are pending.
  const std::uint64_t pending = std::min<std::uint64_t>(c.open - c.tail - 1, 8);
  LandBefore(c, c.open - pending);
  Note(AsyncEventKind::kWaitEnd, c.tail);
  c.waited = c.tail++;
}

void PipelineConsumerRelease() {
  if (::ws::emu::t_thread == nullptr) return;
  Copies& c = Mine();
  if (c.tail > 0) Note(AsyncEventKind::kRelease, c.waited);
}

void PipelineWaitPrior(std::size_t prior) {
  if (::ws::emu::t_thread == nullptr) return;
  AsyncWaitPrior(prior);
  Copies& c = Mine();
  c.tail = c.open >= prior ? c.open - prior : 0;  // libcu++'s: head - N, even backwards
}

// A block's cuda::barrier that every thread of the block arrives at: this thread's copies bound
// to it land, then the block's barrier (recorded at the call's line, as __syncthreads()).
void BarrierArriveAndWait(std::ptrdiff_t expected, unsigned int place) {
  if (::ws::emu::t_thread == nullptr) return;
  const uint3* b = Builtins();  // threadIdx, blockIdx, blockDim, gridDim
  const std::ptrdiff_t threads = static_cast<std::ptrdiff_t>(b[2].x) * b[2].y * b[2].z;
  if (expected != threads)
    emu::FailThread(place, "a cuda::barrier of " + std::to_string(expected) +
                               " threads in a block of " + std::to_string(threads) +
                               " is not supported (yet) on the emulator: only one that every "
                               "thread of the block arrives at");
  Note(AsyncEventKind::kWaitBegin, 0);
  LandBefore(Mine(), 0, true);
  emu::SyncThreads(place);
  Note(AsyncEventKind::kWaitEnd, 0);
}

// A group's pipeline (shim/cuda/pipeline: pipeline<thread_scope_block>), as libcu++ runs it over
// its pipeline_shared_state: stage use k (each thread counts its acquires and commits, or its
// waits and releases) is stage k % S. A producer's k-th producer_acquire() waits until every
// consumer released use k - S; its copies into use k land as it commits it (recorded there, by
// its lanes); a consumer's k-th consumer_wait() waits until every producer committed use k. The
// pipeline's state is the block's, found by the shared state's address, and goes with the block.
namespace {

struct StageUse {
  std::uint32_t committed = 0, released = 0;  // producers that committed it, consumers released
  std::uint32_t commit_clock = 0, release_clock = 0;  // the latest of them, on the logical clock
  std::uint32_t handed = 0, freed = 0;  // when the last came (the race check's order: OrderBlockAt)
};

struct GroupPipeline {
  std::uint32_t stages = 0, size = 0, made = 0, producers = 0, consumers = 0;
  std::uint32_t role_producers = 0;  // make_pipeline by role: the producers counted so far
  bool by_role = false;
  std::vector<StageUse> uses;  // by stage use
  StageUse& Use(std::uint64_t k) {
    if (uses.size() <= k) uses.resize(k + 1);
    return uses[k];
  }
};

// The running block's group pipelines by their shared state's address (an entry stays where it
// is while the block runs: a waiting thread's check holds it, and runs where no thread does).
std::unordered_map<const void*, GroupPipeline>& GroupPipelines() {
  thread_local std::unordered_map<const void*, GroupPipeline> pipes;
  thread_local std::uint64_t launch = 0, block = ~std::uint64_t{0};
  const uint3* b = Builtins();  // threadIdx, blockIdx, blockDim, gridDim
  const std::uint64_t here =
      b[1].x + std::uint64_t{b[3].x} * (b[1].y + std::uint64_t{b[3].y} * b[1].z);
  const std::uint64_t now = g_launch.load(std::memory_order_relaxed);
  if (launch != now || block != here) {
    pipes.clear();
    launch = now;
    block = here;
  }
  return pipes;
}

GroupPipeline& Made(const void* state, unsigned int place, const char* call) {
  auto& pipes = GroupPipelines();
  const auto it = pipes.find(state);
  if (it == pipes.end() || it->second.made < it->second.size)
    emu::FailThread(place, std::string(call) +
                               " on a pipeline its group's make_pipeline has not made (every "
                               "thread of the group calls make_pipeline first)");
  return it->second;
}

std::uint32_t Clock() {
  return static_cast<std::uint32_t>(emu::ThreadClock());
}

}  // namespace

void BlockPipelineMake(const void* state, unsigned int stages, unsigned int size,
                       unsigned int producers, unsigned int consumers, bool producer,
                       unsigned int place) {
  if (::ws::emu::t_thread == nullptr) return;
  GroupPipeline& p = GroupPipelines()[state];
  if (p.size != 0 && p.made == p.size) p = GroupPipeline{};  // made again over the same state
  p.stages = stages;
  p.by_role = producers == ~0u;
  p.size = size;
  if (p.by_role) {
    p.role_producers += producer ? 1u : 0u;
    p.producers = p.role_producers;
    p.consumers = p.size - p.producers;
  } else {
    p.producers = producers;
    p.consumers = consumers;
  }
  ++p.made;
  if (stages == 0)
    emu::FailThread(place, "a cuda::pipeline_shared_state of 0 stages: a pipeline needs one");
}

void BlockPipelineAcquire(const void* state, std::uint64_t use, unsigned int place) {
  if (::ws::emu::t_thread == nullptr) return;
  GroupPipeline& p = Made(state, place, "producer_acquire()");
  Note(AsyncEventKind::kAcquireBegin, use, p.stages);
  if (use < p.stages) {  // the stage's first use: free
    Note(AsyncEventKind::kAcquireEnd, use, p.stages);
    return;
  }
  const std::uint64_t last = use - p.stages;
  emu::WaitFor(place,
               "producer_acquire() (stage " + std::to_string(use % p.stages) + ", use " +
                   std::to_string(use) + ": its use " + std::to_string(last) +
                   " not yet released by every consumer)",
               [g = &p, last](std::uint32_t* floor) {
                 const StageUse& u = g->Use(last);
                 if (u.released < g->consumers) return false;
                 *floor = u.freed + 1;
                 return true;
               });
  Note(AsyncEventKind::kAcquireEnd, use, p.stages);
}

void BlockPipelineCommit(const void* state, std::uint64_t use, unsigned int place) {
  if (::ws::emu::t_thread == nullptr) return;
  GroupPipeline& p = Made(state, place, "producer_commit()");
  Land(Mine(), [&](const Pending& c) { return c.stage == state && c.use == use; });
  Note(AsyncEventKind::kCommit, use, p.stages);
  StageUse& u = p.Use(use);
  u.commit_clock = std::max(u.commit_clock, Clock());
  if (++u.committed == p.producers) {
    u.handed = u.commit_clock + 1;
    emu::OrderBlockAt(u.handed);
  }
}

void BlockPipelineWait(const void* state, std::uint64_t use, unsigned int place) {
  if (::ws::emu::t_thread == nullptr) return;
  GroupPipeline& p = Made(state, place, "consumer_wait()");
  Note(AsyncEventKind::kWaitBegin, use, p.stages);
  emu::WaitFor(place,
               "consumer_wait() (stage " + std::to_string(use % p.stages) + ", use " +
                   std::to_string(use) + ": not yet committed by every producer)",
               [g = &p, use](std::uint32_t* floor) {
                 const StageUse& u = g->Use(use);
                 if (u.committed < g->producers) return false;
                 *floor = u.handed + 1;
                 return true;
               });
  Note(AsyncEventKind::kWaitEnd, use, p.stages);
}

void BlockPipelineRelease(const void* state, std::uint64_t use, unsigned int place) {
  if (::ws::emu::t_thread == nullptr) return;
  GroupPipeline& p = Made(state, place, "consumer_release()");
  Note(AsyncEventKind::kRelease, use, p.stages);
  StageUse& u = p.Use(use);
  u.release_clock = std::max(u.release_clock, Clock());
  if (++u.released == p.consumers) {
    u.freed = u.release_clock + 1;
    emu::OrderBlockAt(u.freed);
  }
}

void AsyncCopyForStage(void* dst, const void* src, std::size_t bytes, unsigned int place,
                       const void* state, std::uint64_t use) {
  Issue(dst, src, bytes, 0, place, kStageBound, state, use);
}

void EarlyRead(const void* ptr, unsigned int bytes, std::uint64_t key, std::uint32_t offset) {
  if (t_copies_launch != g_launch.load(std::memory_order_relaxed)) {  // an earlier launch's
    t_copies_in_flight = 0;
    return;
  }
  const auto* at = static_cast<const unsigned char*>(ptr);
  for (const Pending& p : Mine().pending) {
    if (at + bytes <= p.dst || p.dst + p.size <= at) continue;
    const detail::Classified copy = detail::Classify(p.dst, p.size, p.place, kOpStore);
    emu::ReportEarlyRead(p.bulk ? BulkCopyKey(copy.key) : copy.key | kKeyAsyncCopy, key, offset);
    return;  // one pair a read: its first copy in flight there
  }
}

// Where a cooperative_groups::memcpy_async copies (shim/cooperative_groups/memcpy_async.h): from
// global into shared memory, told by its first piece (each piece is checked again as issued).
bool AsyncGlobalToShared(const void* dst, const void* src, std::size_t bytes, unsigned int place) {
  if (::ws::emu::t_thread == nullptr) return true;  // host code: the copy does nothing there
  const auto first = static_cast<unsigned int>(bytes < 16 ? bytes : 16);
  return SpaceOf(dst, first, place, kOpStore) == kKeyShared &&
         SpaceOf(src, first, place, kOpLoad) == kKeyGlobal;
}

[[noreturn]] void AsyncNotYet(const char* what, unsigned int place) {
  emu::FailThread(place, std::string(what) + " is not supported (yet) on the emulator");
}

}  // namespace ws::prog
