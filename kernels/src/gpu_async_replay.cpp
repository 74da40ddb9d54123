// A kept block's asynchronous copy calls replayed thread by thread (gpu_async_replay.h), by the
// emulator's rules (emu_async.cpp): a copy joins the thread's open commit group (a cuda::barrier's
// is bound to the barrier, group 0); a commit closes the group; __pipeline_wait_prior(N) lands the
// groups before the newest N; a thread's cuda::pipeline starts at the next group, its
// consumer_wait lands the oldest group not yet waited for (and more where over 8 are in flight:
// cp.async.wait_group's cap, libcu++'s), pipeline_consumer_wait_prior<N> lands all but the newest
// N and moves the tail to head - N; a barrier's arrive_and_wait lands its copies.
#include "gpu_async_replay.h"

#include <algorithm>
#include <bit>

#include "warpscope/kernels/ws_cuda_record_format.h"

namespace ws {

namespace {

constexpr std::uint64_t kBarrierBound = ~std::uint64_t{0};

struct Pending {
  std::uint64_t batch = 0;  // its commit group, or kBarrierBound
};

// One thread's copies and counters, as the emulator's Copies.
struct ThreadCopies {
  std::uint64_t open = 0;    // the group the next copy joins
  std::uint64_t tail = 0;    // a thread pipeline's oldest group not yet waited for
  std::uint64_t waited = 0;  // the group its last consumer_wait waited for
  std::vector<Pending> pending;
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
          ++out_.unreplayed_copies;
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
      default:
        return;
    }
  }

  AsyncReplay Take() {
    std::stable_sort(out_.events.begin(), out_.events.end(),
                     [](const AsyncEvent& a, const AsyncEvent& b) { return a.time < b.time; });
    return std::move(out_);
  }

  std::uint32_t threads() const { return threads_; }

 private:
  void Note(AsyncEventKind kind, std::uint64_t group, std::uint32_t time) {
    out_.events.push_back(
        {time, static_cast<std::uint32_t>(group), static_cast<std::uint16_t>(thread_), kind, 0});
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
  AsyncReplay out_;
};

}  // namespace

AsyncReplay ReplayAsyncCalls(const std::vector<AsyncCall>& calls, std::uint32_t threads) {
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
