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

// One warp request's costs under every model that applies to its memory space.
struct RequestCost {
  std::uint32_t degree = 0, d16 = 0;                   // shared
  std::uint32_t sectors = 0, ideal = 0, lines128 = 0;  // global, constant, texture
  std::uint32_t cc10 = 0, cc12 = 0;
  std::uint64_t cc12_bytes = 0;
  std::uint32_t atomic_degree = 0, constant_addresses = 0;
};

RequestCost CostOf(const SiteInfo& site, std::span<const LaneAccess> lanes) {
  RequestCost c;
  if (site.space == MemorySpace::kShared) {
    c.degree = BankConflictDegree(lanes);
    c.d16 = HalfWarp16Degree(lanes);
  } else {
    c.sectors = Sectors(lanes);
    c.ideal = IdealSectors(lanes);
    c.lines128 = Lines128(lanes);
    c.cc10 = Cc10Transactions(lanes);
    const Cc12Cost c12 = Cc12Transactions(lanes);
    c.cc12 = c12.transactions;
    c.cc12_bytes = c12.bytes;
  }
  if (site.op == AccessOp::kAtomic) c.atomic_degree = AtomicConflictDegree(lanes);
  if (site.space == MemorySpace::kConstant) {
    // A warp's different constant addresses are served one after another (the slides: "the 16
    // different reads get serialized"); one address is broadcast.
    std::array<std::uint64_t, 32> addr{};
    std::size_t n = 0;
    for (const LaneAccess& a : lanes) {
      if (n < addr.size()) addr[n++] = a.address;
    }
    std::sort(addr.begin(), addr.begin() + n);
    c.constant_addresses =
        static_cast<std::uint32_t>(std::unique(addr.begin(), addr.begin() + n) - addr.begin());
  }
  return c;
}

// The last request's shape at one site, and its cost. Every model counts in granules of at most
// 256 bytes (sectors, lines, segments, 32 banks of 4 bytes), so two requests whose lanes, sizes
// and addresses agree but for one shift by a multiple of 256 bytes cost the same (the one place
// an absolute address enters, compute 1.0's "address below the segment's start" test, concerns
// addresses under 240 bytes, which global buffers never have and shared requests never ask).
// A loop's requests mostly repeat the shape of the one before: matmul's k loop, a copy's rows.
struct RequestMemo {
  std::array<LaneAccess, 32> lanes{};  // addresses relative to `base`
  std::size_t n = 0;                   // 0: nothing kept
  RequestCost cost;
};

const RequestCost& MemoCost(const SiteInfo& site, std::span<const LaneAccess> lanes,
                            RequestMemo& m) {
  std::uint64_t lo = ~0ull;
  for (const LaneAccess& a : lanes) lo = std::min(lo, a.address);
  const std::uint64_t base = lo & ~std::uint64_t{255};
  bool same = m.n == lanes.size() && lanes.size() <= m.lanes.size();
  for (std::size_t i = 0; same && i < lanes.size(); ++i) {
    same = lanes[i].lane == m.lanes[i].lane && lanes[i].size == m.lanes[i].size &&
           lanes[i].address - base == m.lanes[i].address;
  }
  if (same) return m.cost;
  m.cost = CostOf(site, lanes);
  m.n = lanes.size() <= m.lanes.size() ? lanes.size() : 0;
  for (std::size_t i = 0; i < m.n; ++i)
    m.lanes[i] = {lanes[i].lane, lanes[i].size, lanes[i].address - base};
  return m.cost;
}

// Adds one warp request to its site's figures.
void AddRequest(const SiteInfo& site, std::span<const LaneAccess> lanes, std::uint32_t warp_threads,
                RequestMemo& memo, SiteStats* out) {
  SiteStats& s = *out;
  ++s.requests;
  s.accesses += lanes.size();
  s.bytes += lanes.size() * site.size;
  if (lanes.size() < warp_threads) ++s.divergent_requests;
  const RequestCost& c = MemoCost(site, lanes, memo);
  if (site.space == MemorySpace::kShared) {
    s.wavefronts += c.degree;
    s.bank_conflict_sum += c.degree;
    s.bank_conflict_max = std::max(s.bank_conflict_max, c.degree);
    s.halfwarp16_conflict_sum += c.d16;
    s.halfwarp16_conflict_max = std::max(s.halfwarp16_conflict_max, c.d16);
  } else {
    s.sectors += c.sectors;
    s.ideal_sectors += c.ideal;
    s.lines128 += c.lines128;
    s.cc10_transactions += c.cc10;
    s.cc12_transactions += c.cc12;
    s.cc12_bytes += c.cc12_bytes;
    if (s.sectors_histogram.size() <= c.sectors) s.sectors_histogram.resize(c.sectors + 1, 0);
    ++s.sectors_histogram[c.sectors];
  }
  if (site.op == AccessOp::kAtomic) {
    s.atomic_conflict_max = std::max(s.atomic_conflict_max, c.atomic_degree);
    if (s.atomic_conflict_histogram.size() <= c.atomic_degree)
      s.atomic_conflict_histogram.resize(c.atomic_degree + 1, 0);
    ++s.atomic_conflict_histogram[c.atomic_degree];
  }
  if (site.space == MemorySpace::kConstant) {
    s.constant_addresses_max = std::max(s.constant_addresses_max, c.constant_addresses);
    s.constant_addresses_sum += c.constant_addresses;
  }
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

void AnalyzeBlock(std::span<AccessRecord> records, std::span<const BarrierRecord> barriers,
                  const std::vector<SiteInfo>& sites, const std::vector<BufferInfo>& buffers,
                  std::uint32_t threads_per_block, LaunchStats* stats) {
  stats->Resize(sites.size(), 0);
  stats->access_records += records.size();
  stats->barrier_records += barriers.size();
  SortBySiteIterationThread(records);
  std::vector<bool> divergent_warp((threads_per_block + 31) / 32, false);
  thread_local std::vector<RequestMemo> memo;  // per site; a worker analyses one block at a time
  memo.assign(sites.size(), RequestMemo{});
  ForEachRequest(std::span<const AccessRecord>(records), sites, buffers,
                 [&](std::uint16_t site_id, std::uint32_t, std::uint32_t warp,
                     std::span<const LaneAccess> lanes) {
                   const std::uint32_t warp_threads =
                       std::min<std::uint32_t>(32, threads_per_block - warp * 32);
                   if (lanes.size() < warp_threads && warp < divergent_warp.size()) {
                     divergent_warp[warp] = true;
                   }
                   AddRequest(sites[site_id], lanes, warp_threads, memo[site_id],
                              &stats->sites[site_id]);
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
