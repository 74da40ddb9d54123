// The Cluster view's model (cluster_map.h).
#include "warpscope/viz/cluster_map.h"

#include <algorithm>

#include "warpscope/trace/units.h"

namespace ws {

ClusterMap MakeClusterMap(const LaunchTrace& t, std::uint64_t block) {
  ClusterMap m;
  const std::uint32_t n = t.ClusterBlocks();
  if (n <= 1) {
    m.message =
        "This launch has no thread-block clusters: each block is a cluster of one. A kernel "
        "declared with __cluster_dims__(x, y, z), or launched by cudaLaunchKernelEx with "
        "cudaLaunchAttributeClusterDimension (compute capability 9.0), runs its blocks in "
        "clusters whose blocks can reach each other's shared memory.";
    return m;
  }
  m.dims = t.cluster;
  m.blocks = n;
  m.clusters = t.grid.count() / n;
  const auto& bytes = t.stats.cluster_bytes;
  if (bytes.size() == std::size_t{n} * n) {
    for (std::uint32_t from = 0; from < n; ++from) {
      for (std::uint32_t to = 0; to < n; ++to) {
        const std::size_t k = std::size_t{from} * n + to;
        if (bytes[k] == 0) continue;
        m.links.push_back({from, to, bytes[k], t.stats.cluster_accesses[k]});
        m.bytes += bytes[k];
        m.accesses += t.stats.cluster_accesses[k];
      }
    }
  }
  std::stable_sort(m.links.begin(), m.links.end(),
                   [](const ClusterLink& a, const ClusterLink& b) { return a.bytes > b.bytes; });
  const auto num = [](std::uint64_t v) { return FormatNumber(static_cast<double>(v)); };
  m.coverage = t.cluster_kept_only
                   ? "the " + num(t.cluster_blocks_counted) +
                         " blocks whose records were kept, of " + num(t.grid.count())
                   : "every cluster of " + num(m.clusters);
  // The selected block's cluster: its position in the grid of clusters, then each rank's block.
  const Dim3 g = t.grid, k = t.cluster;
  block = std::min<std::uint64_t>(block, t.grid.count() - 1);
  const std::uint64_t bx = block % g.x, by = block / g.x % g.y,
                      bz = block / (std::uint64_t{g.x} * g.y);
  const std::uint64_t cx = g.x / k.x, cy = g.y / k.y;
  m.cluster = bx / k.x + cx * (by / k.y + cy * (bz / k.z));
  for (std::uint32_t r = 0; r < n; ++r) {
    const std::uint64_t x = bx / k.x * k.x + r % k.x, y = by / k.y * k.y + r / k.x % k.y,
                        z = bz / k.z * k.z + r / (k.x * k.y);
    m.members.push_back(x + g.x * (y + std::uint64_t{g.y} * z));
  }
  if (m.links.empty())
    m.message = t.cluster_kept_only
                    ? "No kept block reached another block's shared memory."
                    : "No block reached another block of its cluster's shared memory.";
  return m;
}

}  // namespace ws
