// What the GPU program tests share: a launch's figures site by site, to compare a program's run on
// the GPU with its run on the emulator, and the skip where there is no GPU (ctest label "gpu").
#pragma once

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <vector>

#include "warpscope/kernels/devices.h"
#include "warpscope/trace/launch.h"

namespace ws::test {

// (line, column, space, op, size, an asynchronous copy's write, requests, sectors, 128-byte
// lines, wavefronts, ideal wavefronts, worst bank conflict, accesses) of every site, sorted.
using SiteFigures =
    std::tuple<std::uint32_t, std::uint32_t, int, int, int, bool, std::uint64_t, std::uint64_t,
               std::uint64_t, std::uint64_t, std::uint64_t, std::uint32_t, std::uint64_t>;
inline std::vector<SiteFigures> FiguresOf(const LaunchTrace& t) {
  std::vector<SiteFigures> out;
  for (std::size_t i = 0; i < t.sites.size() && i < t.stats.sites.size(); ++i) {
    const SiteInfo& s = t.sites[i];
    const SiteStats& st = t.stats.sites[i];
    out.emplace_back(s.line, s.column, int(s.space), int(s.op), int(s.size), s.async_copy,
                     st.requests, st.sectors, st.lines128, st.wavefronts, st.ideal_wavefronts,
                     st.bank_conflict_max, st.accesses);
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace ws::test

#define WS_SKIP_WITHOUT_GPU()                                           \
  if (const ::ws::DeviceQuery q = ::ws::QueryDevices(); q.gpus.empty()) \
  GTEST_SKIP() << "no GPU: " << q.why_no_gpu
