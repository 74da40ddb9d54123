// A cluster launch's line of text (run_report.h's ClusterText).
#include <algorithm>
#include <sstream>

#include "warpscope/trace/run_report.h"
#include "warpscope/trace/units.h"

namespace ws {

// "clusters of (4,1,1) blocks; distributed shared memory: rank 0 -> 1 16,384 B in 4,096
// accesses, ..." (every pair that moved any), or that no block reached another's.
std::string ClusterText(const LaunchTrace& t) {
  const std::uint32_t n = t.ClusterBlocks();
  std::ostringstream o;
  o << "clusters of (" << t.cluster.x << "," << t.cluster.y << "," << t.cluster.z << ") blocks; ";
  const auto& bytes = t.stats.cluster_bytes;
  if (bytes.size() != std::size_t{n} * n ||
      std::all_of(bytes.begin(), bytes.end(), [](std::uint64_t b) { return b == 0; })) {
    o << (t.cluster_kept_only ? "no kept block reached another's shared memory"
                              : "no block reached another's shared memory");
    return o.str();
  }
  if (t.cluster_kept_only)
    o << "distributed shared memory (the " << FormatNumber(double(t.cluster_blocks_counted))
      << " blocks whose records were kept, of " << FormatNumber(double(t.grid.count())) << "):";
  else
    o << "distributed shared memory (every cluster):";
  const char* sep = " ";
  for (std::uint32_t from = 0; from < n; ++from) {
    for (std::uint32_t to = 0; to < n; ++to) {
      const std::size_t k = std::size_t{from} * n + to;
      if (bytes[k] == 0) continue;
      o << sep << "rank " << from << " -> " << to << " "
        << FormatNumber(static_cast<double>(bytes[k])) << " B in "
        << FormatNumber(static_cast<double>(t.stats.cluster_accesses[k])) << " accesses";
      sep = ", ";
    }
  }
  return o.str();
}

}  // namespace ws
