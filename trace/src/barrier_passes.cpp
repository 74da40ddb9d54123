// BarrierPasses (analysis.h): a GPU capture's barrier passes of blocks whose records are not
// kept, counted into the launch's figures as they come, and the passes the device counted.
#include <algorithm>

#include "warpscope/trace/analysis.h"

namespace ws {

void BarrierPasses::Begin(std::uint32_t threads_per_block, std::size_t sites) {
  threads_ = threads_per_block;
  sites_ = sites;
  warp_sites_.assign(std::size_t{(threads_per_block + 31) / 32} * sites, {});
  lane_passes_.resize(std::size_t{threads_per_block} * sites);
  rows_.resize(sites);
  for (auto& row : rows_) row.clear();
  by_threads_ = false;
}

void BarrierPasses::Pass(std::uint16_t site, std::uint32_t warp, std::uint32_t mask,
                         std::uint32_t tile, std::uint64_t arrival, std::uint64_t departure,
                         LaunchStats* stats, std::uint32_t arrived) {
  const std::uint32_t first = warp * 32;
  if (site >= sites_ || first >= threads_) return;
  const std::uint32_t lanes = threads_ - first >= 32 ? ~0u : (1u << (threads_ - first)) - 1u;
  mask &= lanes;
  if (mask == 0) return;
  if (stats->barriers.size() <= site) stats->Resize(0, site + 1u);
  BarrierStats& bs = stats->barriers[site];
  const auto n = static_cast<std::uint64_t>(__builtin_popcount(mask));
  const std::uint64_t wait = departure >= arrival ? departure - arrival : 0;
  bs.wait_sum += n * wait;
  bs.max_wait = std::max(bs.max_wait, wait);
  bs.thread_arrivals += n;
  stats->barrier_records += n;
  if (arrived > 0) {  // its instance counted by its threads; its rows give the skew only
    by_threads_ = true;
    lanes_[{site, arrived}] += n;
    if (!skew_) return;
  }
  auto widen = [&](std::uint32_t pass, std::uint32_t thread) {
    const std::uint32_t instance = tile == 0 ? pass : pass * (threads_ / tile) + thread / tile;
    std::vector<Span>& row = rows_[site];
    if (row.size() <= instance) row.resize(instance + 1u, {~0ull, 0});
    Span& span = row[instance];
    span = span.first == ~0ull
               ? Span{arrival, arrival}
               : Span{std::min(span.first, arrival), std::max(span.second, arrival)};
  };
  WarpSite& ws = warp_sites_[std::size_t{warp} * sites_ + site];
  if (!ws.split && mask == lanes) {  // the usual pass: the warp's lanes together
    widen(ws.passes++, first);       // a tile holds whole warps: the first lane's tile is all's
    return;
  }
  if (!ws.split) {
    ws.split = true;
    for (std::uint32_t l = 0; l < 32 && first + l < threads_; ++l)
      lane_passes_[std::size_t{first + l} * sites_ + site] = ws.passes;
  }
  for (std::uint32_t m = mask; m != 0; m &= m - 1) {
    const std::uint32_t thread = first + static_cast<std::uint32_t>(__builtin_ctz(m));
    widen(lane_passes_[std::size_t{thread} * sites_ + site]++, thread);
  }
}

void BarrierPasses::End(LaunchStats* stats) {
  for (std::size_t site = 0; site < rows_.size(); ++site) {
    for (const Span& span : rows_[site]) {
      if (span.first == ~0ull) continue;
      BarrierStats& bs = stats->barriers[site];
      if (!by_threads_) ++bs.instances;
      bs.max_skew = std::max(bs.max_skew, span.second - span.first);
    }
    rows_[site].clear();
  }
}

void BarrierPasses::AddCounted(std::uint16_t site, std::uint32_t lanes, std::uint32_t arrived,
                               std::uint64_t passes, std::uint64_t wait_sum, std::uint64_t wait_max,
                               LaunchStats* stats) {
  if (arrived == 0 || lanes == 0) return;
  if (stats->barriers.size() <= site) stats->Resize(0, site + 1u);
  BarrierStats& bs = stats->barriers[site];
  bs.wait_sum += wait_sum;
  bs.max_wait = std::max(bs.max_wait, wait_max);
  bs.thread_arrivals += passes * lanes;
  stats->barrier_records += passes * lanes;
  lanes_[{site, arrived}] += passes * lanes;
}

void BarrierPasses::Finish(LaunchStats* stats) {
  for (const auto& [at, lanes] : lanes_) {
    if (stats->barriers.size() <= at.first) stats->Resize(0, at.first + 1u);
    stats->barriers[at.first].instances += lanes / at.second;
  }
  lanes_.clear();
}

}  // namespace ws
