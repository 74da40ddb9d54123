// Thread-block clusters on the emulator (worker_cluster.h): a team's run, cluster.sync(), and the
// calls the program runtime makes (emu_runtime.h: ClusterRank, ClusterMapShared and kin).
#include "emu/worker_cluster.h"

#include <sstream>

#include "emu/worker.h"

namespace ws::emu {

namespace detail {

// The clusters the team takes, this worker's block of each.
void Worker::RunClusters() {
  ClusterTeam& t = *team_;
  const LaunchConfig& cfg = *launch_->config;
  std::uint32_t bytes = 0, offset = 0;
  t.dynamic[team_rank_] = DynamicShared(&bytes, &offset);  // there before another block maps it
  t.anchors[team_rank_] = reinterpret_cast<std::uintptr_t>(&t_worker);
  std::uint64_t b = 0;
  while (t.Next(team_rank_, &b)) {
    const bool ok = simt_ ? RunBlockSimt(b) : RunBlock(b);
    if (!ok) {
      // The failed block's requests so far count, as each did when it was made.
      requests_.AddCounted(local_sites_, cfg.buffers, &stats_);
      t.Failed();  // the team takes no other cluster (its other blocks end this one)
    }
    t.sync.Leave(b, !ok);
    if (ok && cfg.blocks_done != nullptr) cfg.blocks_done->fetch_add(1, std::memory_order_relaxed);
  }
}

// cluster.sync(): the block's barrier, then the cluster's. Outside a cluster launch a block is a
// cluster of one (as on a GPU of compute capability 9.0), and its sync is the block's barrier.
void Worker::ClusterBarrier(std::uint32_t place) {
  Barrier(place, team_ == nullptr ? 0u : kClusterSync);
}

void Worker::NoteClusterAccess(std::uint32_t rank, std::uint32_t bytes) {
  if (team_ != nullptr) stats_.AddClusterAccess(team_->size(), team_rank_, rank, bytes);
}

GridRendezvous& Worker::ClusterSyncOf() {
  return team_->sync;
}

}  // namespace detail

using detail::t_worker;

Status CheckCluster(const LaunchConfig& config) {
  const Dim3 g = config.grid, k = config.cluster;
  if (k.count() == 1) return Status();
  std::ostringstream m;  // (GCC 12 warns of a string's + chain here: -Wrestrict)
  auto dims = [&m](Dim3 d) -> std::ostringstream& {
    m << "(" << d.x << "," << d.y << "," << d.z << ")";
    return m;
  };
  if (config.preset.compute_capability < 90) {
    m << "thread-block clusters of ";
    dims(k) << " blocks need compute capability 9.0 (Hopper); the device preset \""
            << config.preset.name << "\" is " << config.preset.compute_capability / 10 << "."
            << config.preset.compute_capability % 10 << ": run with --preset hopper";
  } else if (k.x == 0 || k.y == 0 || k.z == 0) {
    m << "a cluster of ";
    dims(k) << " blocks: each of its dimensions is at least 1";
  } else if (k.count() > kMaxClusterBlocks) {
    m << "a cluster of ";
    dims(k) << " blocks: at most " << kMaxClusterBlocks
            << " blocks a cluster (CUDA's portable size; the emulator takes no more)";
  } else if (g.x % k.x != 0 || g.y % k.y != 0 || g.z % k.z != 0) {
    m << "a grid of ";
    dims(g) << " blocks in clusters of ";
    dims(k) << ": each of the grid's dimensions must be a multiple of the cluster's, as CUDA "
               "requires (cudaErrorInvalidClusterSize)";
  } else {
    return Status();
  }
  return Status::Error(m.str());
}

std::uint32_t ClusterRank() {
  return t_worker->TeamRank();
}

std::uint32_t ClusterBlocks() {
  const detail::ClusterTeam* t = t_worker->Team();
  return t == nullptr ? 1u : t->size();
}

void ClusterSync(std::uint32_t place) {
  t_worker->ClusterBarrier(place);
}

void* ClusterMapShared(const void* p, std::uint32_t rank, std::uint32_t place) {
  detail::Worker* w = t_worker;
  const std::uint32_t blocks = ClusterBlocks();
  if (rank >= blocks)
    w->Fail(place, "map_shared_rank(..., " + std::to_string(rank) + "): the cluster has " +
                       std::to_string(blocks) + " block(s), ranks 0 to " +
                       std::to_string(blocks - 1));
  if (rank == w->TeamRank()) return const_cast<void*>(p);
  const detail::ClusterTeam& t = *w->Team();
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  const auto own = reinterpret_cast<std::uintptr_t>(t.dynamic[w->TeamRank()]);
  const std::uintptr_t bytes = w->Config().dynamic_shared_bytes;
  if (at - own < bytes) return t.dynamic[rank] + (at - own);
  // A static __shared__ array: the same thread-local variable of rank `rank`'s worker.
  return reinterpret_cast<void*>(at - t.anchors[w->TeamRank()] + t.anchors[rank]);
}

void NoteClusterAccess(std::uint32_t rank, std::uint32_t bytes) {
  t_worker->NoteClusterAccess(rank, bytes);
}

bool ClusterRemoteShared(std::uintptr_t addr, bool (*mine)(std::uintptr_t, void*), void* ctx,
                         std::uint32_t* rank, std::uintptr_t* own) {
  detail::Worker* w = t_worker;
  const detail::ClusterTeam* t = w == nullptr ? nullptr : w->Team();
  if (t == nullptr) return false;
  const std::uint32_t me = w->TeamRank();
  const std::uintptr_t bytes = w->Config().dynamic_shared_bytes;
  for (std::uint32_t r = 0; r < t->size(); ++r) {
    if (r == me) continue;
    const auto dyn = reinterpret_cast<std::uintptr_t>(t->dynamic[r]);
    std::uintptr_t there = addr - t->anchors[r] + t->anchors[me];
    if (addr - dyn < bytes) there = reinterpret_cast<std::uintptr_t>(t->dynamic[me]) + (addr - dyn);
    if (mine(there, ctx)) {
      *rank = r;
      *own = there;
      return true;
    }
  }
  return false;
}

}  // namespace ws::emu
