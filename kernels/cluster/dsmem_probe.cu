// What an H100/H200 says of the addresses map_shared_rank gives, rank by rank (issue 53): the GPU
// backend recorded the ring of examples/cluster_exchange.cu (clusters of 4, each block reading
// rank + 1's tile) with rank 0's reads as another block's shared memory and ranks 1-3's as the
// block's own, at offsets of no array (2026-12-01, docs/GPU.md). Each block's thread 0 prints,
// for its own tile and for rank + 1's: the generic address, isspacep.shared (__isShared),
// isspacep.shared::cluster (__isClusterShared), getctarank (__cluster_query_shared_rank), the
// shared window's 32-bit address of it (__cvta_generic_to_shared) and of the same element mapped
// back to the block's own rank. Plain nvcc: nvcc -arch=sm_90 -o dsmem_probe dsmem_probe.cu.
// What an H200 printed (dsmem_probe_h200.txt): a block's shared memory lies at its rank << 24 in
// the shared window, its own as well (rank 1's tile[5] is 0x1000414 from every block), and
// another block's address is not isspacep.shared but is isspacep.shared::cluster. So the offset in
// a block's window is the low 24 bits of the window's address (SharedWindowOffset in
// shim/ws_program_cuda_record.h), and the ring's split came from taking the whole address.
#include <cooperative_groups.h>

#include <cstdio>

namespace cg = cooperative_groups;

__global__ void __cluster_dims__(4, 1, 1) probe(unsigned long long* out) {
  __shared__ int tile[128];
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned rank = cluster.block_rank();
  tile[threadIdx.x] = static_cast<int>(blockIdx.x);
  cluster.sync();
  if (threadIdx.x == 0) {
    const int* mine = &tile[5];
    const int* right = cluster.map_shared_rank(&tile[5], (rank + 1) % cluster.num_blocks());
    const void* back = __cluster_map_shared_rank(right, rank);
    unsigned long long* o = out + blockIdx.x * 12;
    o[0] = rank;
    o[1] = reinterpret_cast<unsigned long long>(mine);
    o[2] = __isShared(mine);
    o[3] = __isClusterShared(mine);
    o[4] = __cluster_query_shared_rank(mine);
    o[5] = static_cast<unsigned>(__cvta_generic_to_shared(mine));
    o[6] = reinterpret_cast<unsigned long long>(right);
    o[7] = __isShared(right);
    o[8] = __isClusterShared(right);
    o[9] = __cluster_query_shared_rank(right);
    o[10] = static_cast<unsigned>(__cvta_generic_to_shared(right));
    o[11] = static_cast<unsigned>(__cvta_generic_to_shared(back));
    (void)*right;
  }
  cluster.sync();
}

int main() {
  unsigned long long* d = nullptr;
  cudaMalloc(&d, 8 * 12 * sizeof(unsigned long long));
  probe<<<8, 128>>>(d);
  unsigned long long h[8 * 12];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::printf(
      "block rank  own: address isShared isClusterShared rank cvta  "
      "right: address isShared isClusterShared rank cvta  back: cvta\n");
  for (int b = 0; b < 8; ++b) {
    const unsigned long long* o = h + b * 12;
    std::printf("%5d %4llu  %#llx %llu %llu %llu %#llx  %#llx %llu %llu %llu %#llx  %#llx\n", b,
                o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9], o[10], o[11]);
  }
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
