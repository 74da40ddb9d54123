// Warpscope's stand-in for CUDA's <cooperative_groups.h> (docs/PROGRAMS.md, "Cooperative groups"),
// on both roads: on the emulator over ws_program.h's warp meetings, and on a GPU (gpu/, before the
// toolkit's on nvcc's include path) over ws_program_cuda.h's recorded intrinsics, so that a
// group's barriers and meetings are recorded there too (the toolkit's header calls the hardware's
// own, which the recorder does not see). Each group operation is the warp meeting or barrier it
// is on a GPU, and is recorded as one, at the line of the program that calls it:
//
// - thread_block: sync() is __syncthreads(); thread_rank(), size(), group_index(),
//   thread_index(), group_dim(), dim_threads(), num_threads().
// - thread_block_tile<N> (tiled_partition<N>(block), N a power of two up to 32): the N lanes of a
//   warp segment; sync() is __syncwarp(their mask); shfl, shfl_up, shfl_down, shfl_xor, any, all,
//   ballot are the warp intrinsics with width N; meta_group_rank(), meta_group_size().
// - thread_block_tile<N> for N of 64 to 1024 (a multi-warp tile; block_tile_memory and
//   this_thread_block(scratch) are accepted, as CUDA needs them only before compute capability
//   8.0): the N/32 warps of threads [k*N, (k+1)*N); sync() is a barrier of those threads
//   (ws::prog::TileSync), recorded as a barrier whose site says its tile; shfl (every thread
//   naming the same rank), any and all go through one 8-byte slot per warp and two of its
//   barriers, as CUDA's go through its scratch memory; shfl_up/down/xor and ballot are CUDA's
//   for tiles up to 32 only, and refused past it as CUDA's header refuses them.
// - thread_group (tiled_partition(block, n), n a power of two up to 32; or a thread_block or tile
//   held as one): sync(), thread_rank(), size(), meta_group_rank().
// - coalesced_group (coalesced_threads()): the lanes that arrived together (__activemask()),
//   ranked among themselves; sync, shfl (by rank), any, all, ballot.
// - reduce(group, value, op) with plus, less, greater, bit_and, bit_or, bit_xor: a butterfly of
//   shuffles (five meetings for 32 lanes); over a multi-warp tile, each warp's butterfly, then
//   its partial in its warp's slot, a tile barrier, every thread folding the tile's partials in
//   warp order, and a second barrier before the slots are used again.
// - this_grid(): thread_rank() and size(); its sync(), a barrier of the whole grid in a
//   cooperative launch (ws::prog::GridSync; every block resident at once).
#pragma once

#if !defined(WS_PROGRAM_GPU)
#include "ws_program.h"
#endif

namespace cooperative_groups {
namespace ws_detail {

WS_PD inline unsigned int LinearThread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
WS_PD inline unsigned int BlockThreads() {
  return blockDim.x * blockDim.y * blockDim.z;
}
WS_PD inline unsigned int Lane() {
  return LinearThread() % 32u;
}
// The mask of the `n` lanes (n a power of two up to 32) of the calling lane's warp segment, less
// lanes past the block's last thread (a block of 120 threads: its last warp has 24).
WS_PD inline unsigned int SegmentMask(unsigned int n) {
  const unsigned int base = Lane() / n * n;
  const unsigned int segment = (n >= 32 ? 0xffffffffu : ((1u << n) - 1u)) << base;
  const unsigned int left = BlockThreads() - (LinearThread() & ~31u);  // this warp's threads
  return left >= 32 ? segment : segment & ((1u << left) - 1u);
}
WS_PD inline unsigned int Place(const char* file, unsigned int line) {
  return ::ws::prog::PlaceOf(file, line);
}
template <typename T>
WS_PD inline T Shuffle(unsigned int kind, unsigned int mask, T v, int arg, int width,
                       unsigned int place) {
  return ::ws::prog::Shuffle(kind, mask, v, arg, width, place);
}
WS_PD inline unsigned int Vote(unsigned int kind, unsigned int mask, int pred, unsigned int place) {
  return static_cast<unsigned int>(::ws::prog::WarpOp(kind, mask, pred != 0, 0, 32, place));
}
// A multi-warp tile's barrier: the `threads` threads of the caller's tile wait for each other.
WS_PD inline void TileSync(unsigned int threads, unsigned int place) {
  ::ws::prog::TileSync(threads, place);
}
// A value through the tile's warp slots: the caller's warp's slot set to `v` by its lane 0...
template <typename T>
WS_PD inline void PutSlot(unsigned int slot, T v) {
  static_assert(sizeof(T) <= 8, "a multi-warp tile exchanges values of at most 8 bytes (as CUDA)");
  unsigned long long bits = 0;
  __builtin_memcpy(&bits, &v, sizeof(T));
  ::ws::prog::TileSlots()[slot] = bits;
}
// ...and read back.
template <typename T>
WS_PD inline T GetSlot(unsigned int slot) {
  const unsigned long long bits = ::ws::prog::TileSlots()[slot];
  T v;
  __builtin_memcpy(&v, &bits, sizeof(T));
  return v;
}
// The rank of `lane` among the lanes of `mask` below it.
WS_PD inline unsigned int Popc(unsigned int bits) {
#if defined(WS_PROGRAM_GPU)
  return static_cast<unsigned int>(__popc(bits));
#else
  return static_cast<unsigned int>(__builtin_popcount(bits));
#endif
}
WS_PD inline unsigned int RankIn(unsigned int mask, unsigned int lane) {
  return Popc(mask & ((1u << lane) - 1u));
}
// The lane of rank `rank` in `mask` (32 when there is none).
WS_PD inline unsigned int LaneOfRank(unsigned int mask, unsigned int rank) {
  for (unsigned int lane = 0; lane < 32; ++lane) {
    if ((mask >> lane & 1u) != 0 && rank-- == 0) return lane;
  }
  return 32;
}
// A ballot of the lanes of `mask`, as bits of their ranks among them.
WS_PD inline unsigned int Compress(unsigned int bits, unsigned int mask) {
  unsigned int out = 0, k = 0;
  for (unsigned int lane = 0; lane < 32; ++lane) {
    if ((mask >> lane & 1u) == 0) continue;
    out |= ((bits >> lane) & 1u) << k++;
  }
  return out;
}

}  // namespace ws_detail

class thread_group;
class coalesced_group;
template <unsigned int N>
class thread_block_tile;
namespace ws_detail {
// The lanes of the caller's warp a group holds.
template <unsigned int N>
WS_PD inline unsigned int MaskOf(const thread_block_tile<N>&) {
  return SegmentMask(N);
}
WS_PD inline unsigned int MaskOf(const coalesced_group& g);
}  // namespace ws_detail

class thread_block {
 public:
  WS_PD void sync(unsigned int line = __builtin_LINE(), const char* file = __builtin_FILE()) const {
    ::ws::prog::SyncThreads(ws_detail::Place(file, line));
  }
  WS_PD unsigned int thread_rank() const { return ws_detail::LinearThread(); }
  WS_PD unsigned int size() const { return ws_detail::BlockThreads(); }
  WS_PD unsigned int num_threads() const { return ws_detail::BlockThreads(); }
  WS_PD dim3 group_index() const { return dim3(blockIdx); }
  WS_PD dim3 thread_index() const { return dim3(threadIdx); }
  WS_PD dim3 group_dim() const { return blockDim; }
  WS_PD dim3 dim_threads() const { return blockDim; }
  WS_PD bool is_valid() const { return true; }
};

WS_PD inline thread_block this_thread_block() {
  return thread_block();
}
template <unsigned int MaxBlockSize>
struct block_tile_memory;
// The overload that takes the block's scratch for multi-warp tiles (a collective call in CUDA).
template <unsigned int MaxBlockSize>
WS_PD inline thread_block this_thread_block(block_tile_memory<MaxBlockSize>&) {
  return thread_block();
}

// A group known at run time: a block, or a warp segment of `size_` lanes.
class thread_group {
 public:
  WS_PD thread_group(const thread_block&) : block_(true), size_(0) {}  // NOLINT: as CUDA's
  WS_PD explicit thread_group(unsigned int segment) : block_(false), size_(segment) {}
  WS_PD void sync(unsigned int line = __builtin_LINE(), const char* file = __builtin_FILE()) const {
    if (block_)
      ::ws::prog::SyncThreads(ws_detail::Place(file, line));
    else if (size_ > 32)
      ws_detail::TileSync(size_, ws_detail::Place(file, line));
    else
      ::ws::prog::WarpOp(8, ws_detail::SegmentMask(size_), 0, 0, 32, ws_detail::Place(file, line));
  }
  WS_PD unsigned int thread_rank() const {
    return block_ ? ws_detail::LinearThread() : ws_detail::LinearThread() % size_;
  }
  WS_PD unsigned int size() const { return block_ ? ws_detail::BlockThreads() : size_; }
  WS_PD unsigned int num_threads() const { return size(); }
  WS_PD unsigned int meta_group_rank() const {
    return block_ ? 0 : ws_detail::LinearThread() / size_;
  }
  WS_PD unsigned int meta_group_size() const {
    return block_ ? 1 : (ws_detail::BlockThreads() + size_ - 1) / size_;
  }
  WS_PD bool is_valid() const { return true; }

 private:
  bool block_;
  unsigned int size_;
};

template <unsigned int N>
class thread_block_tile {
  static_assert(N >= 1 && N <= 1024 && (N & (N - 1)) == 0,
                "thread_block_tile<N>: N is a power of two from 1 to 1024");
  static constexpr bool kWide = N > 32;  // a multi-warp tile

 public:
  WS_PD operator thread_group() const { return thread_group(N); }  // NOLINT: as CUDA's
  WS_PD void sync(unsigned int line = __builtin_LINE(), const char* file = __builtin_FILE()) const {
    if constexpr (kWide)
      ws_detail::TileSync(N, ws_detail::Place(file, line));
    else
      ::ws::prog::WarpOp(8, Mask(), 0, 0, 32, ws_detail::Place(file, line));
  }
  WS_PD unsigned int thread_rank() const { return ws_detail::LinearThread() % N; }
  WS_PD static constexpr unsigned int size() { return N; }
  WS_PD static constexpr unsigned int num_threads() { return N; }
  // Among the tiles its parent was split into: the block's, or a larger tile's (`parent`).
  WS_PD unsigned int meta_group_rank() const {
    return (parent != 0 ? ws_detail::LinearThread() % parent : ws_detail::LinearThread()) / N;
  }
  WS_PD unsigned int meta_group_size() const {
    return parent != 0 ? parent / N : (ws_detail::BlockThreads() + N - 1) / N;
  }
  unsigned int parent = 0;  // the parent tile's threads (tiled_partition of a tile); 0: the block
  WS_PD bool is_valid() const { return true; }
  // On a multi-warp tile every thread names the same rank (CUDA's rule): its warp puts the value
  // in its slot, and after a barrier every thread reads it.
  template <typename T>
  WS_PD T shfl(T v, int src, unsigned int line = __builtin_LINE(),
               const char* file = __builtin_FILE()) const {
    if constexpr (kWide) {
      const unsigned int place = ws_detail::Place(file, line);
      const unsigned int at = static_cast<unsigned int>(src) % N;
      if (thread_rank() == at) ws_detail::PutSlot(FirstWarp() + at / 32, v);
      ws_detail::TileSync(N, place);
      const T out = ws_detail::GetSlot<T>(FirstWarp() + at / 32);
      ws_detail::TileSync(N, place);
      return out;
    } else {
      return ws_detail::Shuffle(0, Mask(), v, src, N, ws_detail::Place(file, line));
    }
  }
  template <typename T>
  WS_PD T shfl_up(T v, unsigned int delta, unsigned int line = __builtin_LINE(),
                  const char* file = __builtin_FILE()) const {
    static_assert(!kWide, "shfl_up: CUDA offers it on tiles of up to 32 threads only");
    return ws_detail::Shuffle(1, Mask(), v, static_cast<int>(delta), N,
                              ws_detail::Place(file, line));
  }
  template <typename T>
  WS_PD T shfl_down(T v, unsigned int delta, unsigned int line = __builtin_LINE(),
                    const char* file = __builtin_FILE()) const {
    static_assert(!kWide, "shfl_down: CUDA offers it on tiles of up to 32 threads only");
    return ws_detail::Shuffle(2, Mask(), v, static_cast<int>(delta), N,
                              ws_detail::Place(file, line));
  }
  template <typename T>
  WS_PD T shfl_xor(T v, unsigned int lane_mask, unsigned int line = __builtin_LINE(),
                   const char* file = __builtin_FILE()) const {
    static_assert(!kWide, "shfl_xor: CUDA offers it on tiles of up to 32 threads only");
    return ws_detail::Shuffle(3, Mask(), v, static_cast<int>(lane_mask), N,
                              ws_detail::Place(file, line));
  }
  WS_PD int any(int pred, unsigned int line = __builtin_LINE(),
                const char* file = __builtin_FILE()) const {
    if constexpr (kWide)
      return WideVote(5, pred, ws_detail::Place(file, line)) != 0 ? 1 : 0;
    else
      return static_cast<int>(ws_detail::Vote(5, Mask(), pred, ws_detail::Place(file, line)));
  }
  WS_PD int all(int pred, unsigned int line = __builtin_LINE(),
                const char* file = __builtin_FILE()) const {
    if constexpr (kWide)
      return WideVote(6, pred, ws_detail::Place(file, line)) == N / 32 ? 1 : 0;
    else
      return static_cast<int>(ws_detail::Vote(6, Mask(), pred, ws_detail::Place(file, line)));
  }
  // Bit k: the tile's thread of rank k.
  WS_PD unsigned int ballot(int pred, unsigned int line = __builtin_LINE(),
                            const char* file = __builtin_FILE()) const {
    static_assert(!kWide, "ballot: CUDA offers it on tiles of up to 32 threads only");
    const unsigned int bits = ws_detail::Vote(4, Mask(), pred, ws_detail::Place(file, line));
    return ws_detail::Compress(bits, Mask());
  }
  // A multi-warp tile's first warp in the block, whose slot is the tile's first.
  WS_PD unsigned int FirstWarp() const { return ws_detail::LinearThread() / N * (N / 32); }

 private:
  WS_PD static unsigned int Mask() { return ws_detail::SegmentMask(N); }
  // A multi-warp tile's vote: each warp's own (any or all, one meeting), its result in its slot,
  // and how many of the tile's warps said yes.
  WS_PD unsigned int WideVote(unsigned int kind, int pred, unsigned int place) const {
    const unsigned int warp = ws_detail::Vote(kind, 0xffffffffu, pred, place);
    if (ws_detail::Lane() == 0) ws_detail::PutSlot(ws_detail::LinearThread() / 32, warp);
    ws_detail::TileSync(N, place);
    unsigned int yes = 0;
    for (unsigned int w = 0; w < N / 32; ++w)
      yes += ws_detail::GetSlot<unsigned int>(FirstWarp() + w) != 0 ? 1u : 0u;
    ws_detail::TileSync(N, place);
    return yes;
  }
};

// The block's scratch for tiles of more than 32 threads (CUDA needs it before compute
// capability 8.0; here, as on later GPUs, it holds nothing the tiles use).
template <unsigned int MaxBlockSize = 1024>
struct block_tile_memory {
  static_assert(MaxBlockSize >= 32 && MaxBlockSize <= 1024 && MaxBlockSize % 32 == 0,
                "block_tile_memory<MaxBlockSize>: a multiple of 32 up to 1024");
  unsigned char unused[4];
};

template <unsigned int N, typename Parent>
WS_PD inline thread_block_tile<N> tiled_partition(const Parent&) {
  return thread_block_tile<N>();
}
// A tile of a tile: its meta-group is among the parent's tiles, as CUDA's.
template <unsigned int N, unsigned int P>
WS_PD inline thread_block_tile<N> tiled_partition(const thread_block_tile<P>&) {
  static_assert(N <= P, "tiled_partition<N>(tile): N is at most the parent tile's size");
  thread_block_tile<N> t;
  t.parent = P;
  return t;
}
WS_PD inline thread_group tiled_partition(const thread_group&, unsigned int n) {
  return thread_group(n);
}
WS_PD inline thread_group tiled_partition(const thread_block&, unsigned int n) {
  return thread_group(n);
}

// The lanes of the warp that reached this call together.
class coalesced_group {
 public:
  WS_PD explicit coalesced_group(unsigned int mask) : mask_(mask) {}
  WS_PD void sync(unsigned int line = __builtin_LINE(), const char* file = __builtin_FILE()) const {
    ::ws::prog::WarpOp(8, mask_, 0, 0, 32, ws_detail::Place(file, line));
  }
  WS_PD unsigned int thread_rank() const { return ws_detail::RankIn(mask_, ws_detail::Lane()); }
  WS_PD unsigned int size() const { return ws_detail::Popc(mask_); }
  WS_PD unsigned int num_threads() const { return size(); }
  WS_PD unsigned int meta_group_rank() const { return 0; }
  WS_PD unsigned int meta_group_size() const { return 1; }
  WS_PD bool is_valid() const { return mask_ != 0; }
  template <typename T>
  WS_PD T shfl(T v, unsigned int rank, unsigned int line = __builtin_LINE(),
               const char* file = __builtin_FILE()) const {
    const unsigned int lane = ws_detail::LaneOfRank(mask_, rank);
    return ws_detail::Shuffle(0, mask_, v, static_cast<int>(lane < 32 ? lane : ws_detail::Lane()),
                              32, ws_detail::Place(file, line));
  }
  WS_PD int any(int pred, unsigned int line = __builtin_LINE(),
                const char* file = __builtin_FILE()) const {
    return static_cast<int>(ws_detail::Vote(5, mask_, pred, ws_detail::Place(file, line)));
  }
  WS_PD int all(int pred, unsigned int line = __builtin_LINE(),
                const char* file = __builtin_FILE()) const {
    return static_cast<int>(ws_detail::Vote(6, mask_, pred, ws_detail::Place(file, line)));
  }
  WS_PD unsigned int ballot(int pred, unsigned int line = __builtin_LINE(),
                            const char* file = __builtin_FILE()) const {
    return ws_detail::Compress(ws_detail::Vote(4, mask_, pred, ws_detail::Place(file, line)),
                               mask_);
  }
  WS_PD operator thread_group() const { return thread_group(32); }  // NOLINT: as CUDA's
  WS_PD unsigned int mask() const { return mask_; }

 private:
  unsigned int mask_;
};

WS_PD inline unsigned int ws_detail::MaskOf(const coalesced_group& g) {
  return g.mask();
}

WS_PD inline coalesced_group coalesced_threads(unsigned int line = __builtin_LINE(),
                                               const char* file = __builtin_FILE()) {
  return coalesced_group(static_cast<unsigned int>(
      ::ws::prog::WarpOp(7, 0xffffffffu, 0, 0, 32, ws_detail::Place(file, line))));
}

// The lanes of `g` that bring the same label (__match_any_sync), and a binary partition by a
// predicate: coalesced groups.
template <typename Group>
WS_PD inline coalesced_group labeled_partition(const Group& g, int label,
                                               unsigned int line = __builtin_LINE(),
                                               const char* file = __builtin_FILE()) {
  const unsigned int mask = ws_detail::MaskOf(g);
  return coalesced_group(static_cast<unsigned int>(::ws::prog::WarpOp(
      9, mask, static_cast<unsigned int>(label), 0, 32, ws_detail::Place(file, line))));
}
template <typename Group>
WS_PD inline coalesced_group binary_partition(const Group& g, bool pred,
                                              unsigned int line = __builtin_LINE(),
                                              const char* file = __builtin_FILE()) {
  return labeled_partition(g, pred ? 1 : 0, line, file);
}

// The whole grid: ranks and size only.
class grid_group {
 public:
  WS_PD unsigned long long thread_rank() const {
    const unsigned long long block =
        blockIdx.x +
        gridDim.x * (blockIdx.y + static_cast<unsigned long long>(gridDim.y) * blockIdx.z);
    return block * ws_detail::BlockThreads() + ws_detail::LinearThread();
  }
  WS_PD unsigned long long size() const {
    return static_cast<unsigned long long>(gridDim.x) * gridDim.y * gridDim.z *
           ws_detail::BlockThreads();
  }
  WS_PD unsigned long long num_threads() const { return size(); }
  WS_PD dim3 group_dim() const { return gridDim; }
  WS_PD bool is_valid() const { return true; }
  // A barrier of every thread of the grid: in a cooperative launch (cudaLaunchCooperativeKernel)
  // the emulator keeps every block resident and each waits for all; elsewhere it stops the launch
  // with its line (a GPU's behaviour is undefined).
  WS_PD void sync(unsigned int line = __builtin_LINE(), const char* file = __builtin_FILE()) const {
    ::ws::prog::GridSync(ws_detail::Place(file, line));
  }
};
WS_PD inline grid_group this_grid() {
  return grid_group();
}

// A thread-block cluster (compute capability 9.0): the blocks a cluster launch keeps resident
// together (__cluster_dims__, or cudaLaunchKernelEx's cudaLaunchAttributeClusterDimension; a
// launch without one is a cluster of one block). sync() is the cluster's barrier, recorded as a
// barrier at its line; map_shared_rank(p, rank) is where `p` lies in block `rank`'s shared
// memory, whose accesses are recorded as that block's (distributed shared memory). barrier_arrive()
// and barrier_wait() are the two halves of sync(): the emulator waits at barrier_wait() only, so
// that what a thread does between the two is ordered as if after the barrier.
class cluster_group {
 public:
  WS_PD void sync(unsigned int line = __builtin_LINE(), const char* file = __builtin_FILE()) const {
    ::ws::prog::ClusterSync(ws_detail::Place(file, line));
  }
  WS_PD void barrier_arrive() const {}
  WS_PD void barrier_wait(unsigned int line = __builtin_LINE(),
                          const char* file = __builtin_FILE()) const {
    sync(line, file);
  }
  WS_PD unsigned int block_rank() const { return ::ws::prog::ClusterRank(); }
  WS_PD dim3 dim_blocks() const { return ::ws::prog::ClusterDims(); }
  WS_PD unsigned int num_blocks() const {
    const dim3 d = dim_blocks();
    return d.x * d.y * d.z;
  }
  WS_PD dim3 block_index() const {
    const dim3 d = dim_blocks();
    return dim3(blockIdx.x % d.x, blockIdx.y % d.y, blockIdx.z % d.z);
  }
  WS_PD dim3 dim_threads() const {
    const dim3 d = dim_blocks();
    return dim3(d.x * blockDim.x, d.y * blockDim.y, d.z * blockDim.z);
  }
  WS_PD unsigned int num_threads() const { return num_blocks() * ws_detail::BlockThreads(); }
  WS_PD unsigned int size() const { return num_threads(); }
  WS_PD unsigned int thread_rank() const {
    return block_rank() * ws_detail::BlockThreads() + ws_detail::LinearThread();
  }
  WS_PD bool is_valid() const { return true; }
  template <typename T>
  WS_PD T* map_shared_rank(T* addr, unsigned int rank, unsigned int line = __builtin_LINE(),
                           const char* file = __builtin_FILE()) const {
    return static_cast<T*>(::ws::prog::ClusterMapShared(addr, rank, ws_detail::Place(file, line)));
  }
  template <typename T>
  WS_PD T& map_shared_rank(T& addr, unsigned int rank, unsigned int line = __builtin_LINE(),
                           const char* file = __builtin_FILE()) const {
    return *map_shared_rank(&addr, rank, line, file);
  }
  WS_PD unsigned int query_shared_rank(const void* addr) const {
    return ::ws::prog::ClusterQueryRank(addr);
  }
};
WS_PD inline cluster_group this_cluster() {
  return cluster_group();
}

// The operators reduce() takes.
template <typename T>
struct plus {
  WS_PD T operator()(T a, T b) const { return a + b; }
};
template <typename T>
struct less {
  WS_PD T operator()(T a, T b) const { return b < a ? b : a; }
};
template <typename T>
struct greater {
  WS_PD T operator()(T a, T b) const { return a < b ? b : a; }
};
template <typename T>
struct bit_and {
  WS_PD T operator()(T a, T b) const { return a & b; }
};
template <typename T>
struct bit_or {
  WS_PD T operator()(T a, T b) const { return a | b; }
};
template <typename T>
struct bit_xor {
  WS_PD T operator()(T a, T b) const { return a ^ b; }
};

// Every thread of the tile gets op over the tile's values: a butterfly of log2(N) shuffles.
template <unsigned int N, typename T, typename Op>
WS_PD T reduce(const thread_block_tile<N>& tile, T value, Op op,
               unsigned int line = __builtin_LINE(), const char* file = __builtin_FILE()) {
  const unsigned int place = ws_detail::Place(file, line);
  constexpr unsigned int kLanes = N > 32 ? 32 : N;
  const unsigned int mask = ws_detail::SegmentMask(kLanes);
  for (unsigned int k = kLanes / 2; k > 0; k /= 2)
    value = op(value, ws_detail::Shuffle(3, mask, value, static_cast<int>(k),
                                         static_cast<int>(kLanes), place));
  if constexpr (N > 32) {  // each warp's partial through its slot, folded in warp order
    if (ws_detail::Lane() == 0) ws_detail::PutSlot(ws_detail::LinearThread() / 32, value);
    ws_detail::TileSync(N, place);
    value = ws_detail::GetSlot<T>(tile.FirstWarp());
    for (unsigned int w = 1; w < N / 32; ++w)
      value = op(value, ws_detail::GetSlot<T>(tile.FirstWarp() + w));
    ws_detail::TileSync(N, place);
  } else {
    (void)tile;
  }
  return value;
}
// A coalesced group: each lane folds in the others' values, rank by rank.
template <typename T, typename Op>
WS_PD T reduce(const coalesced_group& g, T value, Op op, unsigned int line = __builtin_LINE(),
               const char* file = __builtin_FILE()) {
  T out = g.shfl(value, 0, line, file);
  for (unsigned int r = 1; r < g.size(); ++r) out = op(out, g.shfl(value, r, line, file));
  return out;
}

template <typename Group>
WS_PD inline void sync(const Group& g, unsigned int line = __builtin_LINE(),
                       const char* file = __builtin_FILE()) {
  g.sync(line, file);
}

}  // namespace cooperative_groups
