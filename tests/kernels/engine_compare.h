// What the SIMT engine and the per-thread path must agree on (docs/ENGINE.md, "Identical
// figures"), launch by launch: the per-site figures, hazards, warp meetings, barrier instances and
// the kept blocks' records. Shared by the program and lesson A/B tests.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "warpscope/trace/launch.h"

namespace ws::testing_engines {

using Figures =
    std::tuple<std::uint32_t, int, int, int, std::uint64_t, std::uint64_t, std::uint64_t,
               std::uint64_t, std::uint32_t, std::uint64_t, std::uint64_t>;
inline std::vector<Figures> FiguresOf(const LaunchTrace& t) {
  std::vector<Figures> out;
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    const SiteInfo& s = t.sites[i];
    const SiteStats& st = t.stats.sites[i];
    out.emplace_back(s.line, int(s.space), int(s.op), int(s.size), st.requests, st.accesses,
                     st.sectors, st.wavefronts, st.bank_conflict_max, st.divergent_requests,
                     st.lines128);
  }
  std::sort(out.begin(), out.end());
  return out;
}

inline void ExpectSameLaunches(const std::vector<LaunchTrace>& as,
                               const std::vector<LaunchTrace>& bs, const std::string& name) {
  EXPECT_EQ(as.size(), bs.size()) << name;
  for (std::size_t i = 0; i < as.size() && i < bs.size(); ++i) {
    const LaunchTrace& a = as[i];
    const LaunchTrace& b = bs[i];
    EXPECT_EQ(FiguresOf(a), FiguresOf(b)) << name << " launch " << i << " " << a.kernel;
    EXPECT_EQ(a.hazards.Total(), b.hazards.Total()) << name << " launch " << i;
    EXPECT_EQ(a.warp_op_counts, b.warp_op_counts) << name << " launch " << i;
    EXPECT_EQ(a.stats.barriers.size(), b.stats.barriers.size()) << name;
    for (std::size_t k = 0; k < a.stats.barriers.size() && k < b.stats.barriers.size(); ++k) {
      EXPECT_EQ(a.stats.barriers[k].instances, b.stats.barriers[k].instances) << name;
      EXPECT_EQ(a.stats.barriers[k].max_skew, b.stats.barriers[k].max_skew) << name;
      EXPECT_EQ(a.stats.barriers[k].wait_sum, b.stats.barriers[k].wait_sum) << name;
    }
    EXPECT_EQ(a.stats.divergent_warps, b.stats.divergent_warps) << name;
    EXPECT_EQ(a.blocks.size(), b.blocks.size()) << name;
    for (std::size_t k = 0; k < a.blocks.size() && k < b.blocks.size(); ++k)
      EXPECT_EQ(a.blocks[k].accesses.size(), b.blocks[k].accesses.size()) << name;
  }
}

}  // namespace ws::testing_engines
