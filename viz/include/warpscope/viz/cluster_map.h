// The Cluster view as numbers, with no ImGui (issue 53): a thread-block cluster launch's grid
// cut into its clusters, and the distributed shared memory between a cluster's blocks, every
// cluster added up (LaunchStats::cluster_bytes): for each pair of ranks that moved any, the bytes
// and the accesses, and for the selected block its cluster's blocks by rank. The panel draws
// this model; tests check its numbers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "warpscope/trace/launch.h"

namespace ws {

struct ClusterLink {
  std::uint32_t from = 0, to = 0;  // ranks: the blocks of rank `from` in rank `to`'s memory
  std::uint64_t bytes = 0, accesses = 0;
};

struct ClusterMap {
  std::string message;                    // why there is nothing to draw ("" where there is)
  Dim3 dims;                              // a cluster's blocks along x, y and z
  std::uint32_t blocks = 0;               // a cluster's
  std::uint64_t clusters = 0;             // the grid's
  std::vector<ClusterLink> links;         // the pairs that moved any, largest first
  std::uint64_t bytes = 0, accesses = 0;  // all of them
  // What the figures cover: "every cluster of 8" or "the 4 blocks whose records were kept, of 32".
  std::string coverage;
  // The selected block's cluster (its index in the grid) and its blocks' linear indices by rank.
  std::uint64_t cluster = 0;
  std::vector<std::uint64_t> members;
};

// `block`: the selected block (linear), whose cluster's members are listed.
ClusterMap MakeClusterMap(const LaunchTrace& t, std::uint64_t block);

}  // namespace ws
