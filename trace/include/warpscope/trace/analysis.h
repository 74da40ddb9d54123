// Whole-launch statistics, built block by block so that a big launch never needs all of its
// records at once: the emulator analyses each block as soon as it finishes and keeps full
// records only for the blocks the user looks at. Stats of different blocks merge by addition,
// so the result does not depend on which worker ran which block.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "warpscope/trace/records.h"
#include "warpscope/trace/request.h"  // LaneAccess

namespace ws {

struct SiteStats {
  std::uint64_t requests = 0;  // warp-level requests
  std::uint64_t accesses = 0;  // thread-level accesses (active lanes summed)
  std::uint64_t bytes = 0;
  // global (and constant/texture): the coalescing models
  std::uint64_t sectors = 0, ideal_sectors = 0, lines128 = 0;
  std::uint64_t cc10_transactions = 0, cc12_transactions = 0, cc12_bytes = 0;
  std::vector<std::uint64_t> sectors_histogram;  // [n] = requests that needed n sectors
  // shared
  // wavefronts as the hardware serves them (SharedRequestCost); ideal_wavefronts the least the
  // access width allows; their difference the conflicts Nsight Compute counts.
  std::uint64_t wavefronts = 0, ideal_wavefronts = 0, bank_conflict_sum = 0;
  std::uint32_t bank_conflict_max = 0, halfwarp16_conflict_max = 0;
  std::uint64_t halfwarp16_conflict_sum = 0;
  // atomics: the most lanes of a warp on one address, and how often each degree occurred
  std::uint32_t atomic_conflict_max = 0;
  std::vector<std::uint64_t> atomic_conflict_histogram;  // [d] = requests of degree d
  // constant memory: distinct addresses per request (each is served one after another)
  std::uint32_t constant_addresses_max = 0;
  std::uint64_t constant_addresses_sum = 0;
  // divergence: requests whose active lanes are fewer than the warp's threads
  std::uint64_t divergent_requests = 0;
  // A site the compiled code serves wider than the source (SiteInfo::compiled_width): the
  // source's requests that were later places of a compiled run (in the run's first request's
  // figures, not counted again), and those whose lanes lay at different places of a run (costed
  // as the source's). Whole runs: compiled_parts = (width / size - 1) x requests, mixed 0.
  std::uint64_t compiled_parts = 0, compiled_mixed = 0;

  double SectorsPerRequest() const { return requests ? double(sectors) / requests : 0.0; }
  double BankConflictAvg() const { return requests ? double(bank_conflict_sum) / requests : 0.0; }
  void Merge(const SiteStats& o);
};

struct BarrierStats {
  std::uint64_t instances = 0;  // (block, iteration) pairs that met at this barrier
  std::uint64_t max_skew = 0;   // latest arrival - earliest arrival, over instances
  std::uint64_t wait_sum = 0;   // departure - arrival, summed over threads
  std::uint64_t thread_arrivals = 0;
  std::uint64_t max_wait = 0;  // the longest any thread waited
  double MeanWait() const { return thread_arrivals ? double(wait_sum) / thread_arrivals : 0.0; }
  void Merge(const BarrierStats& o);
};

struct LaunchStats {
  std::vector<SiteStats> sites;        // indexed like the launch's site table
  std::vector<BarrierStats> barriers;  // indexed like its barrier table
  std::uint64_t access_records = 0, barrier_records = 0;
  std::uint64_t divergent_warps = 0;  // (block, warp) pairs with a request of fewer active lanes
  // Floating-point operations the launch ran (+ - * / of floating type, 2 an fma), where they
  // were counted: a program's launches (the rewriter's Flops), not the lessons'.
  std::uint64_t flops = 0;
  bool flops_counted = false;
  // The latest logical clock a thread read (the emulator's, from the launch's start: clock(),
  // clock64() or %globaltimer; the clock ticks once an access, a read or a unit of work()): the
  // model's floor on the launch's time (ModelLaunchTime), so that a kernel spinning on clock64()
  // takes the time it waited for. 0 where no thread read a clock (a kernel's memories time it
  // alone, as before), on a GPU, and in a file from before it.
  std::uint64_t thread_clock = 0;
  // A thread-block cluster launch's distributed shared memory (LaunchTrace::cluster, clusters of
  // n blocks): at [from * n + to], the bytes and the accesses the blocks of rank `from` made in
  // the shared memory of their cluster's block of rank `to` (never their own), every cluster of
  // the grid added up. Empty where no block reached another's.
  std::vector<std::uint64_t> cluster_bytes, cluster_accesses;
  void AddClusterAccess(std::uint32_t n, std::uint32_t from, std::uint32_t to, std::uint32_t bytes);
  void Resize(std::size_t sites, std::size_t barriers);
  void Merge(const LaunchStats& o);
};

// What a launch asked of global memory: the bytes its loads, stores and atomics named, the
// sectors they touched and the warp-level requests. Effective bandwidth counts the bytes asked
// for, not the sectors moved, so wasted sectors lower it.
struct GlobalTraffic {
  std::uint64_t bytes = 0, sectors = 0, requests = 0;
  double GigabytesPerSecond(double ms) const {  // B / (ms * 1e-3) / 1e9
    return ms > 0 ? static_cast<double>(bytes) / (ms * 1e6) : 0.0;
  }
  double SectorsPerRequest() const {
    return requests > 0 ? static_cast<double>(sectors) / static_cast<double>(requests) : 0.0;
  }
};
GlobalTraffic GlobalTrafficOf(const std::vector<SiteInfo>& sites, const LaunchStats& stats);

// One block's warp requests, gathered as its lanes arrive, so that nothing is sorted: for each
// (warp, site) a row per iteration holds every lane's offset and the mask of the lanes that came.
// A request is one row, whole once every lane that will reach it has (the emulator knows: a warp
// whose threads all exited can be finished at once, while its rows are still in the cache).
// Iterations from kRowIterations on (long loops) are kept as records and sorted at the end, so a
// warp's rows never hold more than kRowIterations x 132 bytes per site.
class WarpRequests {
 public:
  static constexpr std::uint32_t kRowIterations = 1024;
  // Long loops' accesses past kRowIterations kept for sorting, at most (20 bytes each: 640 MB);
  // past them the block's figures are partial (truncated()).
  static constexpr std::size_t kMaxOverflow = std::size_t{32} << 20;
  // What the analysis keeps per site (analysis.cpp; its tables are reused from one WarpRequests
  // to the next).
  struct Costs;
  WarpRequests();
  ~WarpRequests();
  WarpRequests(const WarpRequests&) = delete;
  WarpRequests& operator=(const WarpRequests&) = delete;

  // Starts a block; site ids from `max_sites` on (and threads past the block's) go to the sorted
  // list.
  void Begin(std::uint32_t threads_per_block, std::size_t max_sites);
  // Thread `thread`'s access number `iteration` at `site`.
  void Add(std::uint16_t site, std::uint32_t iteration, std::uint16_t thread,
           std::uint32_t offset) {
    ++records_;
    if (iteration < kRowIterations && site < max_sites_ && thread < threads_) {
      const std::uint32_t warp = thread >> 5u, lane = thread & 31u;
      Slot& s = slots_[warp * max_sites_ + site];
      if (iteration >= s.used) Grow(s, warp, site, iteration);
      Row& r = s.rows[iteration];
      r.offset[lane] = offset;
      r.mask |= 1u << lane;
    } else if (overflow_.size() < kMaxOverflow) {
      overflow_.push_back({offset, iteration, 0, thread, site, 0});
    } else {
      truncated_ = true;  // an endless loop: memory stays bounded until the time limit
    }
  }
  // One whole request of warp `warp` at `site`, formed elsewhere (the emulator's lane logs):
  // the lanes in `mask` and their offsets, costed and added to `stats` now, as a row would be.
  void AddWhole(std::uint16_t site, std::uint32_t warp, std::uint32_t mask,
                const std::uint32_t (&offsets)[32], const std::vector<SiteInfo>& sites,
                const std::vector<BufferInfo>& buffers, LaunchStats* stats);
  // One whole warp's request at `site` (32 lanes; site < max_sites) whose lanes lie in rows of
  // `group` (32, 16, 8, 4 or 2): lane l at offset `first + (l / group) * delta + (l % group) *
  // step`: counted by its shape (step, delta, group and the first lane's place in 256 bytes) and
  // costed once per shape when the block ends (End), as AddWhole would cost each.
  void AddAffine(std::uint16_t site, std::uint32_t first, std::int32_t step, std::int32_t delta,
                 std::uint32_t group, const std::vector<SiteInfo>& sites,
                 const std::vector<BufferInfo>& buffers, LaunchStats* stats);
  // Adds the requests AddAffine counted so far to `stats` (End does).
  void AddCounted(const std::vector<SiteInfo>& sites, const std::vector<BufferInfo>& buffers,
                  LaunchStats* stats);
  // Adds warp `warp`'s requests so far to `stats` and forgets them (none of its lanes may add
  // to a request it already has after this).
  void FinishWarp(std::uint32_t warp, const std::vector<SiteInfo>& sites,
                  const std::vector<BufferInfo>& buffers, LaunchStats* stats);
  // Adds every request left, and the block's divergent warps and record count, to `stats`.
  void End(const std::vector<SiteInfo>& sites, const std::vector<BufferInfo>& buffers,
           LaunchStats* stats);
  // Whether some block's accesses were dropped (past kMaxOverflow) since the last call.
  bool TakeTruncated() {
    const bool t = truncated_;
    truncated_ = false;
    return t;
  }

 private:
  struct Row {
    std::uint32_t offset[32];
    std::uint32_t mask = 0;
  };
  struct Slot {
    std::vector<Row> rows;
    std::uint32_t used = 0;  // rows [0, used) may hold lanes
  };
  void Grow(Slot& s, std::uint32_t warp, std::uint16_t site, std::uint32_t iteration);
  // An asynchronous copy's shared write (SiteInfo::async_copy) takes a wavefront for each global
  // 128-byte line of its request's sources where that is more than a store's (an H200: kernels/
  // async/ldgsts_lines.txt). Its sources are the warp's request at the copy's global read (the site
  // of the same place) of the same rank: the k-th write the k-th read, which the warp made, and
  // which is costed, first (rows by iteration, a site's before a later site's; requests formed
  // from the lanes' logs as they come). The reads' lines wait here for their writes, by read site
  // and warp, in order.
  void FindCopyReads(const std::vector<SiteInfo>& sites);
  void NoteCopyRead(std::uint16_t site, std::uint32_t warp, std::span<const LaneAccess> lanes);
  std::uint32_t TakeCopyLines(std::uint16_t write_site, std::uint32_t warp);
  void AddCopyWrite(const SiteInfo& site, std::uint32_t mask, const std::uint32_t* offsets,
                    std::uint64_t base, std::uint32_t warp_threads, std::uint32_t lines,
                    SiteStats* out);
  std::vector<std::int32_t> copy_read_of_;  // [site]: an async copy's write: its read, else -1
  std::vector<std::uint8_t> copy_read_;     // [site]: 1 where it is an async copy's read
  std::map<std::pair<std::uint16_t, std::uint32_t>, std::deque<std::uint32_t>> copy_lines_;

  std::uint32_t threads_ = 0, max_sites_ = 0;
  std::uint64_t records_ = 0;
  std::vector<Slot> slots_;                             // [warp * max_sites + site]
  std::vector<std::vector<std::uint16_t>> warp_sites_;  // per warp: the sites it has rows for
  std::vector<std::uint8_t> divergent_;                 // per warp
  std::vector<AccessRecord> overflow_;
  bool truncated_ = false;
  std::unique_ptr<Costs> costs_;
};

// Whether `read` is the global read of the asynchronous copy whose shared write is `write`
// (SiteInfo::async_copy): the copy's other site, of the same place and size.
inline bool IsCopyReadOf(const SiteInfo& read, const SiteInfo& write) {
  // A bulk copy's write is the TMA's, not the LSU's: no lines rule (SiteInfo::bulk_copy).
  return write.async_copy && !write.bulk_copy && !read.bulk_copy &&
         read.space == MemorySpace::kGlobal && read.op == AccessOp::kLoad &&
         read.file_tag == write.file_tag && read.line == write.line &&
         read.column == write.column && read.size == write.size;
}

// Adds `n` requests of one shape, counted elsewhere (a GPU's tally, ws_cuda_record_format.h), to
// `stats`: every lane of its warp (`mask`), lane l at `offsets[l]`, costed once; their accesses
// count as records. `copy_lines`: at an asynchronous copy's write, the global 128-byte lines its
// sources lay in (the lines rule, WarpRequests::AddCopyWrite: at least a wavefront a line).
void AddRequests(std::uint16_t site, std::uint32_t mask, const std::uint32_t (&offsets)[32],
                 std::uint64_t n, const std::vector<SiteInfo>& sites,
                 const std::vector<BufferInfo>& buffers, LaunchStats* stats,
                 std::uint32_t copy_lines = 0);

// Adds one block's records to `stats`. `threads_per_block` tells which warps are partial.
// Records may come in any order.
void AnalyzeBlock(std::span<AccessRecord> records, std::span<const BarrierRecord> barriers,
                  const std::vector<SiteInfo>& sites, const std::vector<BufferInfo>& buffers,
                  std::uint32_t threads_per_block, LaunchStats* stats);

// Adds one block's barrier records to `stats`: waits, and the arrival skew of each (site,
// iteration) instance.
void AnalyzeBarriers(std::span<const BarrierRecord> barriers, LaunchStats* stats);

// A block's barrier passes counted into its launch's figures as they come, a warp's lanes at a
// time, with no record per thread: what AnalyzeBarriers makes of the threads' records, for a
// block whose records are not kept (a GPU capture's: cuda-samples' matrixMul passes 1.2 G
// thread-barriers in its 301 launches). A thread's k-th pass of a site is its instance k (a
// multi-warp tile's: k x tiles + its tile), as the records number them.
class BarrierPasses {
 public:
  // Starts a block of `threads_per_block` threads at a launch of `sites` barrier sites.
  void Begin(std::uint32_t threads_per_block, std::size_t sites);
  // The lanes `mask` of warp `warp` passed barrier site `site` together (`tile`: a multi-warp
  // tile's threads, 0 for the block's barrier), arriving at `arrival` and leaving at
  // `departure`. Lanes past the block's last thread do not exist.
  // `arrived`: the threads of the pass's instance (the barrier's count), where the recorder
  // says it; its instances are then counted by their threads (Finish), not by passes.
  void Pass(std::uint16_t site, std::uint32_t warp, std::uint32_t mask, std::uint32_t tile,
            std::uint64_t arrival, std::uint64_t departure, LaunchStats* stats,
            std::uint32_t arrived = 0);
  // Adds the block's instances (their count and arrival skew) to `stats`.
  void End(LaunchStats* stats);
  // `passes` passes of `lanes` lanes each, counted on the device (a GPU's tally), each of an
  // instance of `arrived` threads, their lanes' waits `wait_sum` in all and `wait_max` at most.
  void AddCounted(std::uint16_t site, std::uint32_t lanes, std::uint32_t arrived,
                  std::uint64_t passes, std::uint64_t wait_sum, std::uint64_t wait_max,
                  LaunchStats* stats);
  // After every block: the instances counted by their threads, every instance's lanes adding up
  // to its count (a pass counted or written alike).
  void Finish(LaunchStats* stats);
  // From now on no arrival skew (the launch's blocks not kept passed some of their barriers on
  // a GPU's count: a written pass's instance number is not its instance's).
  void NoSkew() { skew_ = false; }

 private:
  struct WarpSite {
    std::uint32_t passes = 0;  // the warp's passes while its lanes passed together
    bool split = false;        // its lanes passed apart once: counted per lane since
  };
  using Span = std::pair<std::uint64_t, std::uint64_t>;  // earliest, latest arrival
  std::uint32_t threads_ = 0;
  std::size_t sites_ = 0;
  std::vector<WarpSite> warp_sites_;        // [warp * sites + site]
  std::vector<std::uint32_t> lane_passes_;  // [thread * sites + site], once split
  std::vector<std::vector<Span>> rows_;     // [site][instance]
  bool by_threads_ = false;                 // this block's passes said their counts
  bool skew_ = true;
  std::map<std::pair<std::uint16_t, std::uint32_t>, std::uint64_t> lanes_;  // (site, count)
};

// Collects the lanes of each request of one block, in (site, iteration, warp) order; `f` gets
// (site, iteration, warp, lanes). `records` must be sorted by (site, iteration, thread).
template <typename F>
void ForEachRequest(std::span<const AccessRecord> records, const std::vector<SiteInfo>& sites,
                    const std::vector<BufferInfo>& buffers, F&& f);

}  // namespace ws

#include "warpscope/trace/analysis_inl.h"
