// A program's thread-block clusters on the emulator (ws_program_device.h's Cluster* calls, which
// cooperative_groups.h's cluster_group makes): the emulator's teams do the work
// (kernels/emu/worker_cluster.h); a cluster's dims are its launch's.
#include "emu_program_state.h"
#include "warpscope/kernels/emu_runtime.h"

namespace ws::prog {

void ClusterSync(unsigned int place) {
  emu::ClusterSync(place);
}

unsigned int ClusterRank() {
  return emu::ClusterRank();
}

dim3 ClusterDims() {
  const Dim3 k = emu::CurrentLaunchConfig().cluster;
  return dim3(k.x, k.y, k.z);
}

void* ClusterMapShared(const void* p, unsigned int rank, unsigned int place) {
  return emu::ClusterMapShared(p, rank, place);
}

unsigned int ClusterQueryRank(const void* p) {
  std::uint32_t rank = emu::ClusterRank();
  std::uintptr_t own = 0;
  (void)emu::ClusterRemoteShared(reinterpret_cast<std::uintptr_t>(p), &detail::OwnShared, nullptr,
                                 &rank, &own);
  return rank;
}

}  // namespace ws::prog
