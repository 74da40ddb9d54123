// One kernel launch as recorded by either backend: its shape, buffers, access sites and barrier
// sites, whole-grid statistics, and full records for the blocks the user looks at.
#pragma once

#include <string>
#include <vector>

#include "warpscope/trace/analysis.h"
#include "warpscope/trace/cache_model.h"
#include "warpscope/trace/hazards.h"
#include "warpscope/trace/kernel_resources.h"
#include "warpscope/trace/records.h"

namespace ws {

struct LaunchTrace {
  std::string kernel;
  Dim3 grid, block;
  Dim3 cluster;  // a thread-block cluster launch's blocks a cluster ({1, 1, 1}: none)
  std::uint32_t ClusterBlocks() const { return static_cast<std::uint32_t>(cluster.count()); }
  // Block `b`'s (linear) rank in its cluster, as %cluster_ctarank counts it (x fastest).
  std::uint32_t ClusterRank(std::uint64_t b) const {
    const std::uint64_t x = b % grid.x, y = b / grid.x % grid.y,
                        z = b / (std::uint64_t{grid.x} * grid.y);
    return static_cast<std::uint32_t>(x % cluster.x + cluster.x * (y % cluster.y) +
                                      std::uint64_t{cluster.x} * cluster.y * (z % cluster.z));
  }
  // Where LaunchStats::cluster_bytes holds only the kept blocks' accesses (a GPU run counts them
  // from the blocks whose records it kept, and says so): how many those were.
  bool cluster_kept_only = false;
  std::uint64_t cluster_blocks_counted = 0;
  // Where the barriers' skew covers only the kept blocks (a GPU run whose blocks not kept passed
  // barriers on the device's count, the tally: their instances, arrivals and waits are every
  // block's all the same): how many those were.
  bool barrier_skew_kept_only = false;
  std::uint64_t barrier_skew_blocks = 0;
  std::uint32_t shared_bytes = 0;  // static shared memory per block
  // Registers, local and shared memory as the compiler gave the kernel (not known: registers -1).
  KernelResources resources;
  std::vector<BufferInfo> buffers;
  std::vector<SiteInfo> sites;             // sorted by (line, space, op, buffer, size)
  std::vector<BarrierSite> barrier_sites;  // sorted by line
  std::vector<WarpOpSite> warp_op_sites;   // sorted by (file, line, kind)
  // Per warp-op site: how many times a warp met there, over the whole grid.
  std::vector<std::uint64_t> warp_op_counts;
  LaunchStats stats;
  std::vector<BlockRecords> blocks;   // full records of the kept blocks, by block index
  std::string time_unit = "logical";  // access/barrier times: "logical" (emulator) or "ns"
  bool truncated = false;             // a record buffer filled up (GPU); stats may be partial
  // The blocks whose figures are missing, wholly or in part: on a GPU, blocks with a warp the
  // record budget left no room for (0: the figures cover every block). Said in the text, the
  // JSON ("coverage") and the kernels table (Coverage()).
  std::uint64_t uncovered_blocks = 0;
  // Those blocks' whole-warp requests were counted on the GPU all the same (the tally,
  // ws_cuda_record_format.h): what they miss is what is written, their barriers, partial-warp
  // requests and warp-level meetings. Kept in trace files.
  bool uncovered_requests_counted = false;
  // "the figures cover 426 of 1,024 blocks: ..." or "" when they cover the whole grid.
  std::string Coverage() const;
  // How the emulator ran it (docs/ENGINE.md): "simt" (a warp's lanes together) or "fiber" (each
  // thread on its own), and why not SIMT; empty on a GPU.
  std::string engine, engine_reason;
  // Where a program's launch came from when not from a launch as written: "graph 1, node 3 of 7
  // (kernel)" for a CUDA graph's node (empty otherwise).
  std::string origin;
  // Per thread of the grid (index block * threads per block + thread): 1 if it made an access or
  // reached a barrier, 0 if it did nothing (it failed the bounds test). Left empty for launches
  // over kMaxActivityThreads threads.
  std::vector<std::uint8_t> thread_active;
  // The races among the kept blocks (trace/hazards.h): found when the launch ends, kept in the
  // trace file (a file from before hazards: found again from its records, values unknown).
  HazardReport hazards;
  // The loads of every block replayed through the cache probes the launch was given
  // (cache_model.h), one count per probe; empty when it was given none. Not in trace files: what
  // a lesson makes of them is in its figures.
  std::vector<CacheCounts> cache_replays;
  static constexpr std::uint64_t kMaxActivityThreads = 1ull << 24;

  std::uint64_t threads() const { return grid.count() * block.count(); }
  std::uint64_t warps() const { return grid.count() * ((block.count() + 31) / 32); }
};

}  // namespace ws
