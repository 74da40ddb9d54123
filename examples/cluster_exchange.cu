// Thread-block clusters (compute capability 9.0, Hopper): the blocks of a cluster run at once on
// one GPC and each can read and write the others' shared memory (distributed shared memory).
// Open it in Warpscope with the hopper preset and look at the Cluster view: which block's shared
// memory each block's accesses reached, and how many bytes went between them.
//
// Two kernels, each checked on the host:
// - ring: clusters of kCluster blocks (__cluster_dims__); each block fills its own tile, the
//   cluster syncs, and each block copies its right-hand neighbour's tile (rank + 1, wrapping) out
//   through map_shared_rank, then syncs again so that no block leaves while another still reads
//   its shared memory.
// - histogram: the CUDA Programming Guide's distributed histogram, launched with
//   cudaLaunchKernelEx and a cluster attribute of 2 blocks: each cluster's bins are split over its
//   blocks' shared memory, and each thread adds one to the bin its value falls in, in whichever
//   block holds that bin.
#include <cooperative_groups.h>

#include <cstdio>

namespace cg = cooperative_groups;

constexpr int kCluster = 4;   // warpscope: param kCluster 2..8 step 2 (blocks a ring's cluster)
constexpr int kThreads = 128;  // a block's threads, and the values of its tile

__global__ void __cluster_dims__(kCluster, 1, 1) ring(int* out) {
  __shared__ int tile[kThreads];
  cg::cluster_group cluster = cg::this_cluster();
  const unsigned int rank = cluster.block_rank();
  tile[threadIdx.x] = static_cast<int>(blockIdx.x) * 1000 + threadIdx.x;
  cluster.sync();  // every block's tile is written before any is read
  const int* right = cluster.map_shared_rank(tile, (rank + 1) % cluster.num_blocks());
  out[blockIdx.x * kThreads + threadIdx.x] = right[threadIdx.x];
  cluster.sync();  // no block leaves while another reads its tile
}

__global__ void histogram(int* bins, int nbins, int bins_per_block, const int* input,
                          std::size_t n) {
  extern __shared__ int smem[];
  cg::cluster_group cluster = cg::this_cluster();
  const int tid = static_cast<int>(cg::this_grid().thread_rank());
  for (int i = threadIdx.x; i < bins_per_block; i += blockDim.x) smem[i] = 0;
  cluster.sync();  // every block's bins are zero before any block adds to them
  for (std::size_t i = tid; i < n; i += blockDim.x * gridDim.x) {
    const int value = input[i];
    const int bin = value < 0 ? 0 : (value >= nbins ? nbins - 1 : value);
    const int dst_block_rank = bin / bins_per_block;
    const int dst_offset = bin % bins_per_block;
    int* dst_smem = cluster.map_shared_rank(smem, dst_block_rank);
    atomicAdd(dst_smem + dst_offset, 1);
  }
  cluster.sync();  // every block's adds are in before the bins are read
  int* lbins = bins + cluster.block_rank() * bins_per_block;
  for (int i = threadIdx.x; i < bins_per_block; i += blockDim.x) atomicAdd(&lbins[i], smem[i]);
}

int main() {
  // The ring: 8 clusters.
  const int blocks = 8 * kCluster;
  int* out = nullptr;
  cudaMalloc(&out, blocks * kThreads * sizeof(int));
  ring<<<blocks, kThreads>>>(out);
  int* got = new int[blocks * kThreads];
  cudaMemcpy(got, out, blocks * kThreads * sizeof(int), cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int b = 0; b < blocks; ++b) {
    const int right = b / kCluster * kCluster + (b % kCluster + 1) % kCluster;
    for (int t = 0; t < kThreads; ++t) wrong += got[b * kThreads + t] != right * 1000 + t;
  }
  std::printf("ring of %d-block clusters: %s (%d wrong)\n", kCluster, wrong ? "FAIL" : "PASS",
              wrong);

  // The histogram: 64 bins over clusters of 2 blocks, 4 clusters, 4,096 values.
  const int nbins = 64, cluster_size = 2, bins_per_block = nbins / cluster_size;
  const std::size_t n = 4096;
  int* input = new int[n];
  int expect[nbins] = {};
  for (std::size_t i = 0; i < n; ++i) {
    input[i] = static_cast<int>((i * 7 + i / 64) % nbins);
    ++expect[input[i]];
  }
  int *d_input = nullptr, *d_bins = nullptr;
  cudaMalloc(&d_input, n * sizeof(int));
  cudaMalloc(&d_bins, nbins * sizeof(int));
  cudaMemcpy(d_input, input, n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(d_bins, 0, nbins * sizeof(int));
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(4 * cluster_size);
  config.blockDim = dim3(kThreads);
  config.dynamicSmemBytes = bins_per_block * sizeof(int);
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeClusterDimension;
  attribute[0].val.clusterDim.x = cluster_size;
  attribute[0].val.clusterDim.y = 1;
  attribute[0].val.clusterDim.z = 1;
  config.attrs = attribute;
  config.numAttrs = 1;
  // Each cluster counts its share of the values, then adds its bins into the grid's.
  cudaError_t e = cudaLaunchKernelEx(&config, histogram, d_bins, nbins, bins_per_block,
                                     static_cast<const int*>(d_input), n);
  int bins[nbins];
  cudaMemcpy(bins, d_bins, sizeof bins, cudaMemcpyDeviceToHost);
  int bad = e != cudaSuccess;
  for (int b = 0; b < nbins; ++b) bad += bins[b] != expect[b];
  std::printf("distributed histogram: %s (%d bins wrong, %s)\n", bad ? "FAIL" : "PASS", bad,
              cudaGetErrorString(e));
  cudaFree(out);
  cudaFree(d_input);
  cudaFree(d_bins);
  delete[] got;
  delete[] input;
  return wrong + bad == 0 ? 0 : 1;
}
