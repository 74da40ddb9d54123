#include "warpscope/trace/analysis.h"

#include <algorithm>
#include <array>
#include <map>

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
}

namespace {

// Adds one warp request's costs under every model that applies to its memory space.
void AddRequest(const SiteInfo& site, std::span<const LaneAccess> lanes, std::uint32_t warp_threads,
                SiteStats* out) {
  SiteStats& s = *out;
  ++s.requests;
  s.accesses += lanes.size();
  s.bytes += lanes.size() * site.size;
  if (lanes.size() < warp_threads) ++s.divergent_requests;
  if (site.space == MemorySpace::kShared) {
    const std::uint32_t degree = BankConflictDegree(lanes);
    s.wavefronts += degree;
    s.bank_conflict_sum += degree;
    s.bank_conflict_max = std::max(s.bank_conflict_max, degree);
    const std::uint32_t d16 = HalfWarp16Degree(lanes);
    s.halfwarp16_conflict_sum += d16;
    s.halfwarp16_conflict_max = std::max(s.halfwarp16_conflict_max, d16);
  } else {
    const std::uint32_t sec = Sectors(lanes);
    s.sectors += sec;
    s.ideal_sectors += IdealSectors(lanes);
    s.lines128 += Lines128(lanes);
    s.cc10_transactions += Cc10Transactions(lanes);
    const Cc12Cost c12 = Cc12Transactions(lanes);
    s.cc12_transactions += c12.transactions;
    s.cc12_bytes += c12.bytes;
    if (s.sectors_histogram.size() <= sec) s.sectors_histogram.resize(sec + 1, 0);
    ++s.sectors_histogram[sec];
  }
  if (site.op == AccessOp::kAtomic) {
    const std::uint32_t degree = AtomicConflictDegree(lanes);
    s.atomic_conflict_max = std::max(s.atomic_conflict_max, degree);
    if (s.atomic_conflict_histogram.size() <= degree)
      s.atomic_conflict_histogram.resize(degree + 1, 0);
    ++s.atomic_conflict_histogram[degree];
  }
  if (site.space == MemorySpace::kConstant) {
    // A warp's different constant addresses are served one after another (the slides: "the 16
    // different reads get serialized"); one address is broadcast.
    std::array<std::uint64_t, 32> addr{};
    std::size_t n = 0;
    for (const LaneAccess& a : lanes) {
      if (n < addr.size()) addr[n++] = a.address;
    }
    std::sort(addr.begin(), addr.begin() + n);
    const auto unique =
        static_cast<std::uint32_t>(std::unique(addr.begin(), addr.begin() + n) - addr.begin());
    s.constant_addresses_max = std::max(s.constant_addresses_max, unique);
    s.constant_addresses_sum += unique;
  }
}

// Stable counting sorts by thread, then iteration, then site (least significant first): the
// order (site, iteration, thread) in three linear passes. A comparison sort of a block's records
// was a third of the emulator's time on loop-heavy kernels (matmul).
void CountingSortBy(std::span<AccessRecord> records, std::vector<AccessRecord>& scratch,
                    std::uint32_t buckets, std::uint32_t (*key)(const AccessRecord&)) {
  std::vector<std::uint32_t> start(buckets + 1, 0);
  for (const AccessRecord& r : records) ++start[key(r) + 1];
  for (std::uint32_t b = 0; b < buckets; ++b) start[b + 1] += start[b];
  scratch.resize(records.size());
  for (const AccessRecord& r : records) scratch[start[key(r)]++] = r;
  std::copy(scratch.begin(), scratch.end(), records.begin());
}

void SortBySiteIterationThread(std::span<AccessRecord> records) {
  std::uint32_t max_thread = 0, max_iteration = 0, max_site = 0;
  for (const AccessRecord& r : records) {
    max_thread = std::max<std::uint32_t>(max_thread, r.thread);
    max_iteration = std::max(max_iteration, r.iteration);
    max_site = std::max<std::uint32_t>(max_site, r.site);
  }
  if (max_iteration >= (1u << 20)) {  // too many buckets: a comparison sort
    std::sort(records.begin(), records.end(), [](const AccessRecord& a, const AccessRecord& b) {
      if (a.site != b.site) return a.site < b.site;
      if (a.iteration != b.iteration) return a.iteration < b.iteration;
      return a.thread < b.thread;
    });
    return;
  }
  std::vector<AccessRecord> scratch;
  CountingSortBy(records, scratch, max_thread + 1,
                 [](const AccessRecord& r) -> std::uint32_t { return r.thread; });
  CountingSortBy(records, scratch, max_iteration + 1,
                 [](const AccessRecord& r) -> std::uint32_t { return r.iteration; });
  CountingSortBy(records, scratch, max_site + 1,
                 [](const AccessRecord& r) -> std::uint32_t { return r.site; });
}

}  // namespace

void AnalyzeBlock(std::span<AccessRecord> records, std::span<const BarrierRecord> barriers,
                  const std::vector<SiteInfo>& sites, const std::vector<BufferInfo>& buffers,
                  std::uint32_t threads_per_block, LaunchStats* stats) {
  stats->Resize(sites.size(), 0);
  stats->access_records += records.size();
  stats->barrier_records += barriers.size();
  SortBySiteIterationThread(records);
  std::vector<bool> divergent_warp((threads_per_block + 31) / 32, false);
  ForEachRequest(std::span<const AccessRecord>(records), sites, buffers,
                 [&](std::uint16_t site_id, std::uint32_t, std::uint32_t warp,
                     std::span<const LaneAccess> lanes) {
                   const std::uint32_t warp_threads =
                       std::min<std::uint32_t>(32, threads_per_block - warp * 32);
                   if (lanes.size() < warp_threads && warp < divergent_warp.size()) {
                     divergent_warp[warp] = true;
                   }
                   AddRequest(sites[site_id], lanes, warp_threads, &stats->sites[site_id]);
                 });

  for (bool d : divergent_warp) stats->divergent_warps += d ? 1 : 0;

  // Barriers: one instance per (site, iteration) in this block.
  std::map<std::pair<std::uint16_t, std::uint32_t>, std::pair<std::uint64_t, std::uint64_t>> span;
  for (const BarrierRecord& b : barriers) {
    stats->Resize(0, b.site + 1u);
    BarrierStats& bs = stats->barriers[b.site];
    const std::uint64_t wait = b.departure >= b.arrival ? b.departure - b.arrival : 0;
    bs.wait_sum += wait;
    bs.max_wait = std::max(bs.max_wait, wait);
    ++bs.thread_arrivals;
    auto [it, fresh] = span.try_emplace({b.site, b.iteration}, b.arrival, b.arrival);
    if (!fresh) {
      it->second.first = std::min(it->second.first, b.arrival);
      it->second.second = std::max(it->second.second, b.arrival);
    }
  }
  for (const auto& [key, range] : span) {
    BarrierStats& bs = stats->barriers[key.first];
    ++bs.instances;
    bs.max_skew = std::max(bs.max_skew, range.second - range.first);
  }
}

GlobalTraffic GlobalTrafficOf(const std::vector<SiteInfo>& sites, const LaunchStats& stats) {
  GlobalTraffic g;
  const std::size_t n = std::min(sites.size(), stats.sites.size());
  for (std::size_t i = 0; i < n; ++i) {
    if (sites[i].space != MemorySpace::kGlobal) continue;
    g.bytes += stats.sites[i].bytes;
    g.sectors += stats.sites[i].sectors;
    g.requests += stats.sites[i].requests;
  }
  return g;
}

}  // namespace ws
