// Template definitions for analysis.h.
#pragma once

#include <array>

#include "warpscope/trace/request.h"

namespace ws {

inline std::uint64_t AccessAddress(const SiteInfo& site, const std::vector<BufferInfo>& buffers,
                                   std::uint32_t offset) {
  if (site.space == MemorySpace::kShared || site.buffer >= buffers.size()) return offset;
  return buffers[site.buffer].base + offset;
}

template <typename F>
void ForEachRequest(std::span<const AccessRecord> records, const std::vector<SiteInfo>& sites,
                    const std::vector<BufferInfo>& buffers, F&& f) {
  std::array<LaneAccess, 32> lanes;
  std::size_t i = 0;
  while (i < records.size()) {
    const AccessRecord& head = records[i];
    const std::uint32_t warp = head.thread / 32u;
    const SiteInfo& site = sites[head.site];
    std::size_t n = 0;
    while (i < records.size() && records[i].site == head.site &&
           records[i].iteration == head.iteration && records[i].thread / 32u == warp) {
      if (n < lanes.size()) {
        lanes[n++] = {static_cast<std::uint8_t>(records[i].thread % 32u), site.size,
                      AccessAddress(site, buffers, records[i].offset)};
      }
      ++i;
    }
    f(head.site, head.iteration, warp, std::span<const LaneAccess>(lanes.data(), n));
  }
}

}  // namespace ws
