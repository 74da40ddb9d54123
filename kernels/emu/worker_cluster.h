// Thread-block clusters (compute capability 9.0: __cluster_dims__, cudaLaunchKernelEx's cluster
// attribute) on the emulator. A cluster launch's workers come in teams of the cluster's size
// (RunLaunch makes them): each team runs one cluster at a time, a worker a block, all resident
// together as a GPU keeps a cluster's blocks on one GPC, so that cluster.sync() can wait for all
// of them (GridRendezvous, as this_grid().sync() in a cooperative launch) and a block can reach
// another's shared memory (map_shared_rank: distributed shared memory).
//
// Where a block's shared memory lies: its static __shared__ arrays are the worker thread's own
// thread_local variables, so the same array of another block of the team is at the same distance
// from that worker's thread-local anchor (static TLS: one layout for every thread); its dynamic
// shared memory is the worker's own buffer.
#pragma once

#include <atomic>
#include <barrier>
#include <cstdint>
#include <vector>

#include "emu/worker_state.h"

namespace ws::emu::detail {

class ClusterTeam {
 public:
  ClusterTeam(Launch* launch, std::uint32_t size)
      : sync(size, "cluster.sync()", "a cluster", "the cluster"),
        anchors(size),
        dynamic(size),
        launch_(launch),
        size_(size),
        start_(size, Advance{this}) {}

  // Waits for the team's other workers at the start of a cluster. True: the team runs the
  // launch's next cluster, of which rank `rank`'s block is `*block`; false: the team is done (no
  // cluster left, one of its blocks failed, or the launch stops).
  bool Next(std::uint32_t rank, std::uint64_t* block) {
    start_.arrive_and_wait();
    if (!go_) return false;
    *block = BlockOf(cluster_, rank);
    return true;
  }
  void Failed() { failed_ = true; }
  std::uint32_t size() const { return size_; }

  // The grid's linear block that has rank `rank` in cluster `cluster` (clusters and the ranks
  // within one count x fastest, as %clusterid and %cluster_ctarank do).
  std::uint64_t BlockOf(std::uint64_t cluster, std::uint32_t rank) const {
    const Dim3 g = launch_->config->grid, k = launch_->config->cluster;
    const std::uint64_t cx = g.x / k.x, cy = g.y / k.y;
    const std::uint64_t x = cluster % cx * k.x + rank % k.x;
    const std::uint64_t y = cluster / cx % cy * k.y + rank / k.x % k.y;
    const std::uint64_t z = cluster / (cx * cy) * k.z + rank / (k.x * k.y);
    return x + g.x * (y + std::uint64_t{g.y} * z);
  }

  GridRendezvous sync;                  // cluster.sync(), reset for each cluster
  std::vector<std::uintptr_t> anchors;  // each rank's worker's thread-local anchor (t_worker)
  std::vector<unsigned char*> dynamic;  // each rank's dynamic shared memory

 private:
  struct Advance {  // the last worker to reach the start takes the next cluster
    ClusterTeam* team;
    void operator()() noexcept {
      ClusterTeam& t = *team;
      const std::uint64_t clusters = t.launch_->config->grid.count() / t.size_;
      t.cluster_ = t.launch_->next_cluster.fetch_add(1);
      t.go_ = !t.failed_ && t.cluster_ < clusters &&
              t.BlockOf(t.cluster_, 0) <= t.launch_->stop_after.load();
      t.sync.Reset();
    }
  };
  Launch* launch_;
  std::uint32_t size_;
  std::barrier<Advance> start_;
  std::uint64_t cluster_ = 0;
  bool go_ = false;
  std::atomic<bool> failed_{false};
};

}  // namespace ws::emu::detail
