// A kept block's asynchronous copy calls replayed thread by thread (gpu_async_replay.h), by the
// emulator's rules (emu_async.cpp): a copy joins the thread's open commit group (a cuda::barrier's
// is bound to the barrier, group 0); a commit closes the group; __pipeline_wait_prior(N) lands the
// groups before the newest N; a thread's cuda::pipeline starts at the next group, its
// consumer_wait lands the oldest group not yet waited for (and more where over 8 are in flight:
// cp.async.wait_group's cap, libcu++'s), pipeline_consumer_wait_prior<N> lands all but the newest
// N and moves the tail to head - N; a barrier's arrive_and_wait lands its copies; a group's
// cuda::pipeline counts each thread's stage uses (acquire and commit the head's, wait and release
// the tail's), its copies going into the use acquired last.
#include "gpu_async_replay.h"

#include <algorithm>
#include <bit>
#include <map>

#include "warpscope/kernels/ws_cuda_record_format.h"

namespace ws {

namespace {

constexpr std::uint64_t kBarrierBound = ~std::uint64_t{0};

struct Pending {
  std::uint64_t batch = 0;  // its commit group, or kBarrierBound
};

// One thread's copies and counters, as the emulator's Copies (and a group pipeline's counts, as
// shim/cuda/pipeline's ws_head and ws_tail).
struct ThreadCopies {
  std::uint64_t open = 0;    // the group the next copy joins
  std::uint64_t tail = 0;    // a thread pipeline's oldest group not yet waited for
  std::uint64_t waited = 0;  // the group its last consumer_wait waited for
  std::vector<Pending> pending;
  std::uint64_t head_use = 0, tail_use = 0;  // a group pipeline's: acquired, waited for
  std::vector<std::size_t> uncommitted;      // its copies into the head use (stage_copies_)
};

// A copy into a group pipeline's stage use, issued by `thread`, committed at `committed` (~0u:
// not).
struct StageCopy {
  std::uint32_t thread = 0;
  std::uint64_t use = 0;
  std::uint32_t committed = ~0u;
};

class Replayer {
 public:
  explicit Replayer(std::uint32_t threads) : threads_(threads), copies_(threads) {}

  void Call(const AsyncCall& c, std::uint32_t thread) {
    ThreadCopies& t = copies_[thread];
    thread_ = thread;
    switch (c.call) {
      case dev::kAsyncIssue:
        if (c.arg == dev::kCopyGroupPipeline) {
          t.uncommitted.push_back(stage_copies_.size());
          stage_copies_.push_back({thread, t.head_use});
          Note(AsyncEventKind::kIssue, t.head_use, c.time);
          return;
        }
        t.pending.push_back({c.arg == dev::kCopyBarrier ? kBarrierBound : t.open});
        Note(AsyncEventKind::kIssue, c.arg == dev::kCopyBarrier ? 0 : t.open, c.time);
        return;
      case dev::kAsyncCommit:
        Note(AsyncEventKind::kCommit, t.open, c.time);
        ++t.open;
        return;
      case dev::kAsyncWaitPrior:
        WaitPrior(t, c.arg, c);
        return;
      case dev::kAsyncPipeStart:
        t.tail = t.open;
        return;
      case dev::kAsyncPipeWait: {
        if (t.tail >= t.open) return;  // nothing committed since the last wait
        Note(AsyncEventKind::kWaitBegin, t.tail, c.began);
        const std::uint64_t in_flight = std::min<std::uint64_t>(t.open - t.tail - 1, 8);
        LandBefore(t, t.open - in_flight, false, c.time);
        Note(AsyncEventKind::kWaitEnd, t.tail, c.time);
        t.waited = t.tail++;
        return;
      }
      case dev::kAsyncPipeRelease:
        if (t.tail > 0) Note(AsyncEventKind::kRelease, t.waited, c.time);
        return;
      case dev::kAsyncPipeWaitPrior:
        WaitPrior(t, c.arg, c);
        t.tail = t.open >= c.arg ? t.open - c.arg : 0;
        return;
      case dev::kAsyncBarrierWait:
        // Its start is not timed on the GPU: a wait of no length where it ended.
        Note(AsyncEventKind::kWaitBegin, 0, c.time);
        LandBefore(t, 0, true, c.time);
        Note(AsyncEventKind::kWaitEnd, 0, c.time);
        return;
      case dev::kAsyncGroupAcquire:
        Note(AsyncEventKind::kAcquireBegin, t.head_use, c.began, c.arg);
        Note(AsyncEventKind::kAcquireEnd, t.head_use, c.time, c.arg);
        return;
      case dev::kAsyncGroupCommit:
        for (const std::size_t i : t.uncommitted) stage_copies_[i].committed = c.time;
        t.uncommitted.clear();
        Note(AsyncEventKind::kCommit, t.head_use++, c.time, c.arg);
        return;
      case dev::kAsyncGroupWait: {
        Note(AsyncEventKind::kWaitBegin, t.tail_use, c.began, c.arg);
        Note(AsyncEventKind::kWaitEnd, t.tail_use, c.time, c.arg);
        auto [it, fresh] = first_wait_end_.emplace(t.tail_use, c.time);
        if (!fresh) it->second = std::min(it->second, c.time);
        return;
      }
      case dev::kAsyncGroupRelease:
        Note(AsyncEventKind::kRelease, t.tail_use++, c.time, c.arg);
        return;
      default:
        return;
    }
  }

  std::vector<AsyncEvent> Take() {
    // A group pipeline's copies land where the block's first consumer of their use has them (at
    // their commit where no consumer waited for it; never where they were not committed).
    for (const StageCopy& s : stage_copies_) {
      if (s.committed == ~0u) continue;
      const auto w = first_wait_end_.find(s.use);
      thread_ = s.thread;
      Note(AsyncEventKind::kLand, s.use,
           w != first_wait_end_.end() ? std::max(w->second, s.committed) : s.committed);
    }
    std::stable_sort(events_.begin(), events_.end(),
                     [](const AsyncEvent& a, const AsyncEvent& b) { return a.time < b.time; });
    return std::move(events_);
  }

  std::uint32_t threads() const { return threads_; }

 private:
  void Note(AsyncEventKind kind, std::uint64_t group, std::uint32_t time,
            std::uint32_t stages = 0) {
    events_.push_back({time, static_cast<std::uint32_t>(group), static_cast<std::uint16_t>(thread_),
                       kind, static_cast<std::uint8_t>(std::min<std::uint32_t>(stages, 255))});
  }

  void WaitPrior(ThreadCopies& t, std::uint64_t prior, const AsyncCall& c) {
    const std::uint64_t upto = t.open > prior ? t.open - prior : 0;
    if (upto > 0) Note(AsyncEventKind::kWaitBegin, upto - 1, c.began);
    LandBefore(t, upto, false, c.time);
    if (upto > 0) Note(AsyncEventKind::kWaitEnd, upto - 1, c.time);
  }

  // Lands the thread's copies of the groups before `upto` (with `barrier`, those bound to a
  // cuda::barrier), in the order they were issued, at `time`.
  void LandBefore(ThreadCopies& t, std::uint64_t upto, bool barrier, std::uint32_t time) {
    std::size_t kept = 0;
    for (const Pending& p : t.pending) {
      const bool lands = barrier ? p.batch == kBarrierBound : p.batch < upto;
      if (lands)
        Note(AsyncEventKind::kLand, p.batch == kBarrierBound ? 0 : p.batch, time);
      else
        t.pending[kept++] = p;
    }
    t.pending.resize(kept);
  }

  std::uint32_t threads_;
  std::vector<ThreadCopies> copies_;
  std::uint32_t thread_ = 0;
  std::vector<AsyncEvent> events_;
  std::vector<StageCopy> stage_copies_;
  std::map<std::uint64_t, std::uint32_t> first_wait_end_;  // a group pipeline's use -> time
};

}  // namespace

std::vector<AsyncEvent> ReplayAsyncCalls(const std::vector<AsyncCall>& calls,
                                         std::uint32_t threads) {
  Replayer r(threads);
  for (const AsyncCall& c : calls) {
    for (std::uint32_t m = c.mask; m != 0; m &= m - 1) {
      const std::uint32_t thread = c.warp * 32 + static_cast<std::uint32_t>(std::countr_zero(m));
      if (thread < r.threads()) r.Call(c, thread);
    }
  }
  return r.Take();
}

}  // namespace ws
