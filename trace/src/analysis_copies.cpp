// WarpRequests' pairing of an asynchronous copy's shared write with its global read (analysis.h):
// the write takes a wavefront for each global 128-byte line of its sources where that is more
// than a store's (an H200: kernels/async/ldgsts_lines.txt). Apart from analysis.cpp, whose costing
// runs per request of every launch.
#include <cstdint>
#include <span>
#include <vector>

#include "warpscope/trace/analysis.h"
#include "warpscope/trace/request.h"

namespace ws {

void WarpRequests::FindCopyReads(const std::vector<SiteInfo>& sites) {
  if (copy_read_of_.size() == sites.size()) return;
  copy_read_of_.assign(sites.size(), -1);
  copy_read_.assign(sites.size(), 0);
  for (std::size_t w = 0; w < sites.size(); ++w) {
    const SiteInfo& c = sites[w];
    if (!c.async_copy) continue;
    for (std::size_t r = 0; r < sites.size(); ++r) {
      if (r != w && IsCopyReadOf(sites[r], c)) {
        copy_read_of_[w] = static_cast<std::int32_t>(r);
        copy_read_[r] = 1;
        break;
      }
    }
  }
}

void WarpRequests::NoteCopyRead(std::uint16_t site, std::uint32_t warp,
                                std::span<const LaneAccess> lanes) {
  copy_lines_[{site, warp}].push_back(Lines128(lanes));
}

std::uint32_t WarpRequests::TakeCopyLines(std::uint16_t write_site, std::uint32_t warp) {
  const auto it = copy_lines_.find({static_cast<std::uint16_t>(copy_read_of_[write_site]), warp});
  if (it == copy_lines_.end() || it->second.empty()) return 0;
  const std::uint32_t lines = it->second.front();
  it->second.pop_front();
  return lines;
}

}  // namespace ws
