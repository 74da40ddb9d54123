#include "warpscope/trace/analysis.h"

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <mutex>

#include "request_costs.h"

namespace ws {

void SiteStats::Merge(const SiteStats& o) {
  requests += o.requests;
  accesses += o.accesses;
  bytes += o.bytes;
  sectors += o.sectors;
  ideal_sectors += o.ideal_sectors;
  lines128 += o.lines128;
  cc10_transactions += o.cc10_transactions;
  cc12_transactions += o.cc12_transactions;
  cc12_bytes += o.cc12_bytes;
  if (sectors_histogram.size() < o.sectors_histogram.size()) {
    sectors_histogram.resize(o.sectors_histogram.size(), 0);
  }
  for (std::size_t i = 0; i < o.sectors_histogram.size(); ++i)
    sectors_histogram[i] += o.sectors_histogram[i];
  wavefronts += o.wavefronts;
  ideal_wavefronts += o.ideal_wavefronts;
  bank_conflict_sum += o.bank_conflict_sum;
  bank_conflict_max = std::max(bank_conflict_max, o.bank_conflict_max);
  halfwarp16_conflict_max = std::max(halfwarp16_conflict_max, o.halfwarp16_conflict_max);
  halfwarp16_conflict_sum += o.halfwarp16_conflict_sum;
  atomic_conflict_max = std::max(atomic_conflict_max, o.atomic_conflict_max);
  if (atomic_conflict_histogram.size() < o.atomic_conflict_histogram.size()) {
    atomic_conflict_histogram.resize(o.atomic_conflict_histogram.size(), 0);
  }
  for (std::size_t i = 0; i < o.atomic_conflict_histogram.size(); ++i) {
    atomic_conflict_histogram[i] += o.atomic_conflict_histogram[i];
  }
  constant_addresses_max = std::max(constant_addresses_max, o.constant_addresses_max);
  constant_addresses_sum += o.constant_addresses_sum;
  divergent_requests += o.divergent_requests;
  compiled_parts += o.compiled_parts;
  compiled_mixed += o.compiled_mixed;
}

void BarrierStats::Merge(const BarrierStats& o) {
  instances += o.instances;
  max_skew = std::max(max_skew, o.max_skew);
  wait_sum += o.wait_sum;
  thread_arrivals += o.thread_arrivals;
  max_wait = std::max(max_wait, o.max_wait);
}

void LaunchStats::Resize(std::size_t n_sites, std::size_t n_barriers) {
  if (sites.size() < n_sites) sites.resize(n_sites);
  if (barriers.size() < n_barriers) barriers.resize(n_barriers);
}

void LaunchStats::Merge(const LaunchStats& o) {
  Resize(o.sites.size(), o.barriers.size());
  for (std::size_t i = 0; i < o.sites.size(); ++i) sites[i].Merge(o.sites[i]);
  for (std::size_t i = 0; i < o.barriers.size(); ++i) barriers[i].Merge(o.barriers[i]);
  access_records += o.access_records;
  barrier_records += o.barrier_records;
  divergent_warps += o.divergent_warps;
  thread_clock = std::max(thread_clock, o.thread_clock);
  if (cluster_bytes.size() < o.cluster_bytes.size()) {
    cluster_bytes.resize(o.cluster_bytes.size());
    cluster_accesses.resize(o.cluster_bytes.size());
  }
  for (std::size_t i = 0; i < o.cluster_bytes.size(); ++i) {
    cluster_bytes[i] += o.cluster_bytes[i];
    cluster_accesses[i] += o.cluster_accesses[i];
  }
}

void LaunchStats::AddClusterAccess(std::uint32_t n, std::uint32_t from, std::uint32_t to,
                                   std::uint32_t bytes) {
  if (from >= n || to >= n) return;
  if (cluster_bytes.size() < std::size_t{n} * n) {
    cluster_bytes.resize(std::size_t{n} * n);
    cluster_accesses.resize(std::size_t{n} * n);
  }
  cluster_bytes[std::size_t{from} * n + to] += bytes;
  ++cluster_accesses[std::size_t{from} * n + to];
}

namespace {

using request_costs::AffineCounts;
using request_costs::RequestCost;
using request_costs::ShapeCache;

// Where a site's offsets start: the buffer's base address (shared memory: 0), as AccessAddress().
std::uint64_t SiteBase(const SiteInfo& site, const std::vector<BufferInfo>& buffers) {
  return AccessAddress(site, buffers, 0);
}

// Adds `n` warp requests of `lanes` lanes each, every one costing `c`, to their site's figures.
void AddCost(const SiteInfo& site, std::uint32_t lanes, std::uint32_t warp_threads,
             const RequestCost& c, std::uint64_t n, SiteStats* out) {
  SiteStats& s = *out;
  // A later place of a compiled run: in its first request's figures (SiteInfo::compiled_width).
  if (c.compiled == request_costs::kCompiledPart) {
    s.compiled_parts += n;
    return;
  }
  if (c.compiled == request_costs::kCompiledMixed) s.compiled_mixed += n;
  s.requests += n;
  s.accesses += n * lanes;
  s.bytes +=
      n * lanes * (c.compiled == request_costs::kCompiledRun ? site.compiled_width : site.size);
  if (lanes < warp_threads) s.divergent_requests += n;
  if (site.space == MemorySpace::kShared) {
    s.wavefronts += n * c.wavefronts;
    s.ideal_wavefronts += n * c.ideal_wavefronts;
    s.bank_conflict_sum += n * c.degree;
    s.bank_conflict_max = std::max(s.bank_conflict_max, c.degree);
    s.halfwarp16_conflict_sum += n * c.d16;
    s.halfwarp16_conflict_max = std::max(s.halfwarp16_conflict_max, c.d16);
  } else {
    s.sectors += n * c.sectors;
    s.ideal_sectors += n * c.ideal;
    s.lines128 += n * c.lines128;
    s.cc10_transactions += n * c.cc10;
    s.cc12_transactions += n * c.cc12;
    s.cc12_bytes += n * c.cc12_bytes;
    if (s.sectors_histogram.size() <= c.sectors) s.sectors_histogram.resize(c.sectors + 1, 0);
    s.sectors_histogram[c.sectors] += n;
  }
  if (site.op == AccessOp::kAtomic) {
    s.atomic_conflict_max = std::max(s.atomic_conflict_max, c.atomic_degree);
    if (s.atomic_conflict_histogram.size() <= c.atomic_degree)
      s.atomic_conflict_histogram.resize(c.atomic_degree + 1, 0);
    s.atomic_conflict_histogram[c.atomic_degree] += n;
  }
  if (site.space == MemorySpace::kConstant) {
    s.constant_addresses_max = std::max(s.constant_addresses_max, c.constant_addresses);
    s.constant_addresses_sum += n * c.constant_addresses;
  }
}

// Adds one warp request to its site's figures.
void AddRequest(const SiteInfo& site, std::uint32_t mask, const std::uint32_t* offsets,
                std::uint64_t base, std::uint32_t warp_threads, ShapeCache& shapes,
                SiteStats* out) {
  const auto lanes = static_cast<std::uint32_t>(__builtin_popcount(mask));
  AddCost(site, lanes, warp_threads, shapes.Cost(site, mask, offsets, base), 1, out);
}

// Stable counting sort of `from` into `to` (same size) by key(r) < buckets.
template <typename Key>
void CountingSortInto(std::span<const AccessRecord> from, std::span<AccessRecord> to,
                      std::uint32_t buckets, Key key) {
  thread_local std::vector<std::uint32_t> start;
  start.assign(buckets + 1, 0);
  for (const AccessRecord& r : from) ++start[key(r) + 1];
  for (std::uint32_t b = 0; b < buckets; ++b) start[b + 1] += start[b];
  for (const AccessRecord& r : from) to[start[key(r)]++] = r;
}

// The order (site, iteration, thread), by stable counting sorts (least significant key first).
// A comparison sort of a block's records was a third of the emulator's time on loop-heavy kernels
// (matmul), and copying back after each of three passes another sixth: the thread pass is skipped
// when the records are in thread order already (threads that meet no barrier run one after
// another), site and iteration share one pass when their buckets are few, and the passes go
// back and forth between the records and one scratch buffer kept per worker.
void SortBySiteIterationThread(std::span<AccessRecord> records) {
  std::uint32_t max_thread = 0, max_iteration = 0, max_site = 0;
  bool by_thread = true;
  std::uint16_t last_thread = 0;
  for (const AccessRecord& r : records) {
    max_thread = std::max<std::uint32_t>(max_thread, r.thread);
    max_iteration = std::max(max_iteration, r.iteration);
    max_site = std::max<std::uint32_t>(max_site, r.site);
    by_thread = by_thread && r.thread >= last_thread;
    last_thread = r.thread;
  }
  if (max_iteration >= (1u << 20)) {  // too many buckets: a comparison sort
    std::sort(records.begin(), records.end(), [](const AccessRecord& a, const AccessRecord& b) {
      if (a.site != b.site) return a.site < b.site;
      if (a.iteration != b.iteration) return a.iteration < b.iteration;
      return a.thread < b.thread;
    });
    return;
  }
  thread_local std::vector<AccessRecord> scratch_buffer;
  scratch_buffer.resize(records.size());
  std::span<AccessRecord> scratch(scratch_buffer);
  std::span<AccessRecord> in = records, out = scratch;  // each pass reads `in`, writes `out`
  auto pass = [&](std::uint32_t buckets, auto key) {
    CountingSortInto(in, out, buckets, key);
    std::swap(in, out);
  };
  if (!by_thread)
    pass(max_thread + 1, [](const AccessRecord& r) -> std::uint32_t { return r.thread; });
  const std::uint64_t iterations = max_iteration + 1ull;
  if ((max_site + 1ull) * iterations <= (1u << 16)) {
    const auto n = static_cast<std::uint32_t>(iterations);
    pass((max_site + 1) * n,
         [n](const AccessRecord& r) -> std::uint32_t { return r.site * n + r.iteration; });
  } else {
    pass(max_iteration + 1, [](const AccessRecord& r) -> std::uint32_t { return r.iteration; });
    pass(max_site + 1, [](const AccessRecord& r) -> std::uint32_t { return r.site; });
  }
  if (in.data() != records.data()) std::copy(in.begin(), in.end(), records.begin());
}

}  // namespace

struct WarpRequests::Costs {
  ShapeCache shapes;
  AffineCounts affine;
};

namespace {

// The costs' tables (half a megabyte: the shape cache's 2,048 entries and the shape counts'
// 4,096) are kept from one WarpRequests to the next, since the emulator makes new workers, each
// with its WarpRequests, for every launch: zeroing them was 40 % of a one-thread launch's time,
// and under AddressSanitizer (whose allocator maps and unmaps every block this large) it and the
// page faults were a third of a small lesson's run. A shape's cost depends on nothing but the
// shape (ShapeCache), so a cache that comes back holding other launches' shapes gives the same
// figures. At most kKeptCosts are kept (a launch has one worker a core; a cooperative launch, one
// a block).
constexpr std::size_t kKeptCosts = 16;
std::mutex g_kept_costs_mutex;
std::vector<std::unique_ptr<WarpRequests::Costs>>& KeptCosts() {
  static auto* kept = new std::vector<std::unique_ptr<WarpRequests::Costs>>;  // never destroyed
  return *kept;
}

}  // namespace

WarpRequests::WarpRequests() {
  {
    std::lock_guard lock(g_kept_costs_mutex);
    auto& kept = KeptCosts();
    if (!kept.empty()) {
      costs_ = std::move(kept.back());
      kept.pop_back();
    }
  }
  if (costs_ == nullptr) costs_ = std::make_unique<Costs>();
}

WarpRequests::~WarpRequests() {
  // Shapes counted in a block that never ended (its launch failed) are forgotten, not kept.
  costs_->affine.Drain([](std::uint16_t, std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t,
                          std::uint64_t) {});
  costs_->affine.TakeOverflow();
  std::lock_guard lock(g_kept_costs_mutex);
  auto& kept = KeptCosts();
  if (kept.size() < kKeptCosts) kept.push_back(std::move(costs_));
}

void WarpRequests::Begin(std::uint32_t threads_per_block, std::size_t max_sites) {
  copy_read_of_.clear();  // another launch's sites, maybe: found again (FindCopyReads)
  copy_lines_.clear();
  // A block that failed part way left rows behind: clear them.
  for (std::uint32_t w = 0; w < warp_sites_.size(); ++w) {
    for (const std::uint16_t site : warp_sites_[w]) {
      Slot& s = slots_[w * max_sites_ + site];
      for (std::uint32_t it = 0; it < s.used; ++it) s.rows[it].mask = 0;
      s.used = 0;
    }
    warp_sites_[w].clear();
  }
  threads_ = threads_per_block;
  max_sites_ = static_cast<std::uint32_t>(max_sites);
  records_ = 0;
  const std::uint32_t warps = (threads_per_block + 31) / 32;
  // Rows a worker allocated stay with it from block to block (and launch to launch).
  if (slots_.size() < std::size_t{warps} * max_sites_)
    slots_.resize(std::size_t{warps} * max_sites_);
  warp_sites_.resize(warps);
  divergent_.assign(warps, 0);
  overflow_.clear();
}

void WarpRequests::Grow(Slot& s, std::uint32_t warp, std::uint16_t site, std::uint32_t iteration) {
  if (s.used == 0) warp_sites_[warp].push_back(site);
  if (iteration >= s.rows.size()) {
    s.rows.resize(std::min<std::size_t>(kRowIterations,
                                        std::max<std::size_t>(iteration + 1, 2 * s.rows.size())));
  }
  s.used = iteration + 1;
}

void WarpRequests::AddCopyWrite(const SiteInfo& site, std::uint32_t mask,
                                const std::uint32_t* offsets, std::uint64_t base,
                                std::uint32_t warp_threads, std::uint32_t lines, SiteStats* out) {
  RequestCost c = costs_->shapes.Cost(site, mask, offsets, base);
  c.wavefronts = std::max(c.wavefronts, lines);
  AddCost(site, static_cast<std::uint32_t>(__builtin_popcount(mask)), warp_threads, c, 1, out);
}

namespace {
// The lanes of a row, at their addresses.
std::span<const LaneAccess> LanesOf(const SiteInfo& site, std::uint32_t mask,
                                    const std::uint32_t* offsets, std::uint64_t base,
                                    std::array<LaneAccess, 32>* lanes) {
  std::size_t k = 0;
  for (std::uint32_t m = mask; m != 0; m &= m - 1) {
    const auto l = static_cast<std::uint32_t>(__builtin_ctz(m));
    (*lanes)[k++] = {static_cast<std::uint8_t>(l), site.size, base + offsets[l]};
  }
  return std::span<const LaneAccess>(lanes->data(), k);
}
}  // namespace

void WarpRequests::FinishWarp(std::uint32_t warp, const std::vector<SiteInfo>& sites,
                              const std::vector<BufferInfo>& buffers, LaunchStats* stats) {
  stats->Resize(sites.size(), 0);
  FindCopyReads(sites);
  const std::uint32_t warp_threads = std::min<std::uint32_t>(32, threads_ - warp * 32);
  std::array<LaneAccess, 32> lanes;
  for (const std::uint16_t site_id : warp_sites_[warp]) {
    Slot& s = slots_[warp * max_sites_ + site_id];
    const SiteInfo& site = sites[site_id];
    const std::uint64_t base = SiteBase(site, buffers);
    SiteStats& out = stats->sites[site_id];
    for (std::uint32_t it = 0; it < s.used; ++it) {
      Row& r = s.rows[it];
      const std::uint32_t mask = r.mask;
      if (mask == 0) continue;
      r.mask = 0;
      if (static_cast<std::uint32_t>(__builtin_popcount(mask)) < warp_threads) divergent_[warp] = 1;
      if (copy_read_[site_id] != 0)
        NoteCopyRead(site_id, warp, LanesOf(site, mask, r.offset, base, &lanes));
      if (copy_read_of_[site_id] >= 0) {
        AddCopyWrite(site, mask, r.offset, base, warp_threads, TakeCopyLines(site_id, warp), &out);
        continue;
      }
      AddRequest(site, mask, r.offset, base, warp_threads, costs_->shapes, &out);
    }
    s.used = 0;
  }
  warp_sites_[warp].clear();
}

void AddRequests(std::uint16_t site_id, std::uint32_t mask, const std::uint32_t (&offsets)[32],
                 std::uint64_t n, const std::vector<SiteInfo>& sites,
                 const std::vector<BufferInfo>& buffers, LaunchStats* stats,
                 std::uint32_t copy_lines) {
  if (site_id >= sites.size() || mask == 0 || n == 0) return;
  if (stats->sites.size() < sites.size()) stats->Resize(sites.size(), 0);
  const SiteInfo& site = sites[site_id];
  const std::uint64_t base = SiteBase(site, buffers);
  std::array<LaneAccess, 32> at;
  const std::span<const LaneAccess> lanes = LanesOf(site, mask, offsets, base, &at);
  const auto count = static_cast<std::uint32_t>(lanes.size());
  RequestCost c = request_costs::CostOf(site, lanes);
  if (site.async_copy && !site.bulk_copy)  // the lines rule (not the TMA's)
    c.wavefronts = std::max(c.wavefronts, copy_lines);
  AddCost(site, count, count, c, n, &stats->sites[site_id]);
  stats->access_records += n * count;
}

void WarpRequests::AddWhole(std::uint16_t site_id, std::uint32_t warp, std::uint32_t mask,
                            const std::uint32_t (&offsets)[32], const std::vector<SiteInfo>& sites,
                            const std::vector<BufferInfo>& buffers, LaunchStats* stats) {
  if (stats->sites.size() < sites.size()) stats->Resize(sites.size(), 0);
  const std::uint32_t lanes = static_cast<std::uint32_t>(__builtin_popcount(mask));
  records_ += lanes;
  const std::uint32_t warp_threads = std::min<std::uint32_t>(32, threads_ - warp * 32);
  if (lanes < warp_threads) divergent_[warp] = 1;
  const SiteInfo& site = sites[site_id];
  const std::uint64_t base = SiteBase(site, buffers);
  FindCopyReads(sites);
  if (copy_read_[site_id] != 0) {
    std::array<LaneAccess, 32> lanes_at;
    NoteCopyRead(site_id, warp, LanesOf(site, mask, offsets, base, &lanes_at));
  }
  if (copy_read_of_[site_id] >= 0) {
    AddCopyWrite(site, mask, offsets, base, warp_threads, TakeCopyLines(site_id, warp),
                 &stats->sites[site_id]);
    return;
  }
  AddRequest(site, mask, offsets, base, warp_threads, costs_->shapes, &stats->sites[site_id]);
}

void WarpRequests::AddAffine(std::uint16_t site_id, std::uint32_t first, std::int32_t step,
                             std::int32_t delta, std::uint32_t group,
                             const std::vector<SiteInfo>& sites,
                             const std::vector<BufferInfo>& buffers, LaunchStats* stats) {
  const SiteInfo& site = sites[site_id];
  const std::uint64_t base = SiteBase(site, buffers);
  records_ += 32;
  costs_->affine.Add(site_id, static_cast<std::uint32_t>(step),
                     group == 32 ? 0u : static_cast<std::uint32_t>(delta), group,
                     static_cast<std::uint32_t>((base + first) & 255u));
  if (costs_->affine.TakeOverflow()) {  // more shapes than the table holds: this one now
    std::uint32_t offsets[32];
    RowOffsets(first, static_cast<std::uint32_t>(step), static_cast<std::uint32_t>(delta), group,
               offsets);
    if (stats->sites.size() < sites.size()) stats->Resize(sites.size(), 0);
    AddRequest(site, ~0u, offsets, base, 32, costs_->shapes, &stats->sites[site_id]);
  }
}

void WarpRequests::End(const std::vector<SiteInfo>& sites, const std::vector<BufferInfo>& buffers,
                       LaunchStats* stats) {
  stats->Resize(sites.size(), 0);
  stats->access_records += records_;
  AddCounted(sites, buffers, stats);
  for (std::uint32_t w = 0; w < warp_sites_.size(); ++w) {
    if (!warp_sites_[w].empty()) FinishWarp(w, sites, buffers, stats);
  }
  // Long loops' later iterations: sorted into requests as the rows would have made them (an
  // async copy's read, whose site the warp met first, before its write).
  SortBySiteIterationThread(overflow_);
  FindCopyReads(sites);
  ForEachRequest(
      std::span<const AccessRecord>(overflow_), sites, buffers,
      [&](std::uint16_t site_id, std::uint32_t, std::uint32_t warp,
          std::span<const LaneAccess> lanes) {
        const std::uint32_t warp_threads = std::min<std::uint32_t>(32, threads_ - warp * 32);
        if (lanes.size() < warp_threads && warp < divergent_.size()) {
          divergent_[warp] = 1;
        }
        const SiteInfo& site = sites[site_id];
        const std::uint64_t base = SiteBase(site, buffers);
        std::uint32_t mask = 0, offsets[32] = {};
        for (const LaneAccess& a : lanes) {
          mask |= 1u << a.lane;
          offsets[a.lane] = static_cast<std::uint32_t>(a.address - base);
        }
        if (copy_read_[site_id] != 0) NoteCopyRead(site_id, warp, lanes);
        if (copy_read_of_[site_id] >= 0) {
          AddCopyWrite(site, mask, offsets, base, warp_threads, TakeCopyLines(site_id, warp),
                       &stats->sites[site_id]);
          return;
        }
        AddRequest(site, mask, offsets, base, warp_threads, costs_->shapes, &stats->sites[site_id]);
      });
  overflow_.clear();
  copy_lines_.clear();  // a read whose write never came (its block ended before the wait)
  for (std::uint8_t d : divergent_) stats->divergent_warps += d;
  divergent_.assign(divergent_.size(), 0);
}

void WarpRequests::AddCounted(const std::vector<SiteInfo>& sites, const std::vector<BufferInfo>&,
                              LaunchStats* stats) {
  stats->Resize(sites.size(), 0);
  // Each shape costed once, at the addresses 2^40 + its lanes' offsets from `first` (a shift
  // by a multiple of 256 bytes costs the same: ShapeCache); a shape whose lanes step down starts
  // high enough (a multiple of 256 bytes up) that no lane's offset is below 0.
  costs_->affine.Drain([&](std::uint16_t site_id, std::uint32_t step, std::uint32_t delta,
                           std::uint32_t group, std::uint32_t shift, std::uint64_t n) {
    std::uint32_t offsets[32];
    RowOffsets(0, step, delta, group, offsets);
    std::int64_t lowest = 0;
    for (const std::uint32_t o : offsets)
      lowest = std::min<std::int64_t>(lowest, static_cast<std::int32_t>(o));
    const auto first = static_cast<std::uint32_t>(shift + (-lowest + 255) / 256 * 256);
    for (std::uint32_t& o : offsets) o += first;
    const SiteInfo& site = sites[site_id];
    AddCost(site, 32, 32, costs_->shapes.Cost(site, ~0u, offsets, std::uint64_t{1} << 40), n,
            &stats->sites[site_id]);
  });
}

void AnalyzeBlock(std::span<AccessRecord> records, std::span<const BarrierRecord> barriers,
                  const std::vector<SiteInfo>& sites, const std::vector<BufferInfo>& buffers,
                  std::uint32_t threads_per_block, LaunchStats* stats) {
  stats->Resize(sites.size(), 0);
  thread_local WarpRequests requests;  // a worker analyses one block at a time
  requests.Begin(threads_per_block, sites.size());
  for (const AccessRecord& r : records) requests.Add(r.site, r.iteration, r.thread, r.offset);
  requests.End(sites, buffers, stats);
  AnalyzeBarriers(barriers, stats);
}

// Barriers: one instance per (site, iteration) in this block, its span the earliest and latest
// arrival. Instances are held per site in a row indexed by iteration (a map lookup per thread's
// record was most of a GPU capture's decoding: 67 M records for a 1024² tiled matmul); an
// iteration past kMaxRow (a loop with millions of barriers) goes to a map instead.
void AnalyzeBarriers(std::span<const BarrierRecord> barriers, LaunchStats* stats) {
  stats->barrier_records += barriers.size();
  constexpr std::uint32_t kMaxRow = 1u << 20;
  constexpr std::uint64_t kUnset = ~0ull;
  using Span = std::pair<std::uint64_t, std::uint64_t>;  // earliest, latest arrival
  thread_local std::vector<std::vector<Span>> rows;      // [site][iteration]
  std::map<std::pair<std::uint16_t, std::uint32_t>, Span> far;
  auto widen = [](Span& s, std::uint64_t arrival) {
    if (s.first == kUnset) {
      s = {arrival, arrival};
    } else {
      s.first = std::min(s.first, arrival);
      s.second = std::max(s.second, arrival);
    }
  };
  for (const BarrierRecord& b : barriers) {
    if (stats->barriers.size() <= b.site) stats->Resize(0, b.site + 1u);
    BarrierStats& bs = stats->barriers[b.site];
    const std::uint64_t wait = b.departure >= b.arrival ? b.departure - b.arrival : 0;
    bs.wait_sum += wait;
    bs.max_wait = std::max(bs.max_wait, wait);
    ++bs.thread_arrivals;
    if (b.iteration >= kMaxRow) {
      widen(far.try_emplace({b.site, b.iteration}, kUnset, 0).first->second, b.arrival);
      continue;
    }
    if (rows.size() <= b.site) rows.resize(b.site + 1u);
    std::vector<Span>& row = rows[b.site];
    if (row.size() <= b.iteration) row.resize(b.iteration + 1u, {kUnset, 0});
    widen(row[b.iteration], b.arrival);
  }
  auto add = [&](std::size_t site, const Span& s) {
    if (s.first == kUnset) return;
    BarrierStats& bs = stats->barriers[site];
    ++bs.instances;
    bs.max_skew = std::max(bs.max_skew, s.second - s.first);
  };
  for (std::size_t site = 0; site < rows.size(); ++site) {
    for (const Span& s : rows[site]) add(site, s);
    rows[site].clear();  // the capacity stays for the next block
  }
  for (const auto& [key, s] : far) add(key.first, s);
}

GlobalTraffic GlobalTrafficOf(const std::vector<SiteInfo>& sites, const LaunchStats& stats) {
  GlobalTraffic g;
  const std::size_t n = std::min(sites.size(), stats.sites.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (sites[i].space != MemorySpace::kGlobal) continue;
    g.bytes += stats.sites[i].bytes;
    g.sectors += stats.sites[i].sectors;
    if (!sites[i].bulk_copy) g.requests += stats.sites[i].requests;  // the TMA makes none
  }
  return g;
}

}  // namespace ws
