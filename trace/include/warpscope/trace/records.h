// The records: raw facts written by either backend (the CPU emulator or the CUDA runner), from
// which every figure is derived on the host, once. See ARCHITECTURE.md, "Records and analyses".
//
//   access  = (block, thread, site, iteration, epoch, offset, time)   20 bytes
//   barrier = (block, thread, site, iteration, arrival, departure)
//
// A thread's epoch is how many barriers (__syncthreads) it has passed: two accesses of a block
// in the same epoch are not ordered by a barrier (what the race analysis looks for).
//
// A warp-level request is the group (block, warp, site, iteration): the lanes of one warp that
// executed the same access site for the same time.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ws {

struct Dim3 {
  std::uint32_t x = 1, y = 1, z = 1;
  std::uint64_t count() const { return std::uint64_t{x} * y * z; }
  friend bool operator==(const Dim3&, const Dim3&) = default;
};

// kLocal: a thread's own array indexed at run time, which the compiler places in local memory
// (device memory, interleaved between a warp's lanes; see LocalOffset in ws_cuda_keys.h).
enum class MemorySpace : std::uint8_t {
  kGlobal = 0,
  kShared = 1,
  kConstant = 2,
  kTexture = 3,
  kLocal = 4
};
inline constexpr int kMemorySpaces = 5;
enum class AccessOp : std::uint8_t { kLoad = 0, kStore = 1, kAtomic = 2 };

const char* ToString(MemorySpace s);  // "global", "shared", "constant", "texture", "local"
const char* ToString(AccessOp op);    // "load", "store", "atomic"

// The tag a recorder gives sites in the file called `name` (FileTag in ws_cuda_keys.h: a hash
// of the base name); 0 for "".
std::uint16_t FileTagOf(const std::string& name);

// One access site: a place in the kernel's source where one array is read or written.
// SiteInfo::buffer of a site that reaches into several buffers (a program's int** rows): its
// offsets are virtual addresses.
inline constexpr std::uint16_t kSeveralBuffers = 0xffff;
// SiteInfo::buffer of a local site (MemorySpace::kLocal): no buffer; its offsets are the
// thread's local array laid out as local memory lays it out (LocalOffset in ws_cuda_keys.h).
inline constexpr std::uint16_t kLocalArray = 0xfffe;

struct SiteInfo {
  std::uint32_t line = 0;
  std::uint16_t column = 0;  // a program's sites: the access's column (0: lesson sites, by line)
  std::uint16_t end_column = 0;  // and the column just past it, when on the same line (else 0)
  std::uint16_t file_tag = 0;    // FileTag() of the file's base name (ws_cuda.h); 0 when unknown
  std::string file;              // that file's name, found among the lesson's sources ("": unknown)
  MemorySpace space = MemorySpace::kGlobal;
  AccessOp op = AccessOp::kLoad;
  std::uint8_t size = 4;     // bytes per access
  std::uint16_t buffer = 0;  // global/constant/texture: the buffer; shared: the shared array;
                             // local: kLocalArray
  std::string code;          // the source line, trimmed (filled in by the lesson)
  // The shared write of an asynchronous copy (cp.async, LDGSTS) where it lands. Costed as a store
  // (so an H200 serves one warp's LDGSTS of 4, 8 or 16 bytes in the patterns of
  // kernels/async/ldgsts_probe.cu: Nsight Compute, ldgsts_wavefronts.txt), or one wavefront a
  // global 128-byte line of its sources where that is more (ldgsts_lines.txt; WarpRequests pairs
  // the write with its read, analysis.h).
  bool async_copy = false;
  // Either side of a bulk copy through the TMA (cp.async.bulk, compute 9.0: libcu++ makes one of a
  // cuda::memcpy_async of 16-byte alignment bound to a block's cuda::barrier in shared memory;
  // docs/ncu-agreement.md). The LSU makes no request for it: its read takes the sectors of each
  // lane's bytes on their own (an H200: 8,192 sectors for 8,192 copies of 16 bytes, which 4,096
  // sectors hold), its write (async_copy too) no shared wavefront. Its figures are the kernel's
  // TMA traffic, apart from the LSU's (KernelRow::tma_*).
  bool bulk_copy = false;
  // A program's shared load or store whose line the compiled kernel serves wider than the source
  // accesses (nvcc's LDS.128 for four floats a thread reads in a row of an unrolled loop; the
  // kernel's SASS by line, trace/compiled_code.h): the bytes a lane's instruction moves there, else
  // 0. A request whose lanes all lie at one place of such a run is costed as the compiled
  // instruction: the run's first place as one request of this many bytes a lane, the later places
  // as parts of it (SiteStats::compiled_parts); lanes at different places as the source's.
  std::uint8_t compiled_width = 0;
  // A wmma fragment's load or store (load_matrix_sync, store_matrix_sync) on the emulator: the
  // fragment as kernels/tensor/fragments.tsv names it, then the leading dimension, e.g.
  // "m16n16k16 a half row 16" (the Fragments view's sites). Empty elsewhere.
  std::string fragment;
};

struct AccessRecord {
  std::uint32_t offset = 0;  // bytes from the start of the buffer (shared: of the block's window)
  std::uint32_t iteration = 0;  // how many times this thread ran this site before
  std::uint32_t time = 0;       // logical (emulator) or ns since the launch's first record (GPU)
  std::uint16_t thread = 0;     // linear thread index within the block
  std::uint16_t site = 0;       // index into the launch's site table
  std::uint32_t epoch = 0;      // barriers this thread passed before this access
};
static_assert(sizeof(AccessRecord) == 20, "no padding in access records");

// A whole warp's lanes in rows of `group`: lane l at `first + (l / group) * delta + (l % group)
// * step` (a 2D block's rows of blockDim.x lanes; WarpRequests::AddAffine), added up (no
// multiply).
inline void RowOffsets(std::uint32_t first, std::uint32_t step, std::uint32_t delta,
                       std::uint32_t group, std::uint32_t* offsets) {
  for (std::uint32_t row = 0; row < 32; row += group) {
    std::uint32_t o = first + (row / group) * delta;
    for (std::uint32_t l = row; l < row + group; ++l, o += step) offsets[l] = o;
  }
}

struct BarrierRecord {
  std::uint64_t arrival = 0;    // time the thread reached __syncthreads()
  std::uint64_t departure = 0;  // time it left
  std::uint32_t iteration = 0;  // how many times this thread passed this barrier before
  std::uint16_t thread = 0;
  std::uint16_t site = 0;         // index into the launch's barrier table
  std::uint32_t sm = 0;           // multiprocessor (GPU); 0 on the emulator
  std::uint32_t wait_cycles = 0;  // GPU: departure - arrival in SM clock cycles (clock64)
};
static_assert(sizeof(BarrierRecord) == 32, "no padding in barrier records");

// Warp-level intrinsics: the lanes of a warp meet, exchange values and go on together.
enum class WarpOpKind : std::uint8_t {
  kShfl = 0,    // __shfl_sync: each lane reads the lane it names
  kShflUp,      // __shfl_up_sync: lane - delta
  kShflDown,    // __shfl_down_sync: lane + delta
  kShflXor,     // __shfl_xor_sync: lane ^ mask
  kBallot,      // __ballot_sync
  kAny,         // __any_sync
  kAll,         // __all_sync
  kActiveMask,  // __activemask
  kSyncWarp,    // __syncwarp
  kMatchAny,    // __match_any_sync: each lane gets the lanes of the mask whose value equals its own
  kMatchAll,    // __match_all_sync: the mask when every lane's value is the same, else 0
  kReduce,      // __reduce_{add,min,max,and,or,xor}_sync: every lane gets the lanes' reduction
  kMma,         // nvcuda::wmma::mma_sync: the warp's fragments multiplied, each lane gets its part
};
inline constexpr int kWarpOpKinds = 13;
const char* ToString(WarpOpKind k);  // "__shfl_down_sync", ...
bool IsShuffle(WarpOpKind k);

struct WarpOpSite {
  std::uint32_t line = 0;
  WarpOpKind kind = WarpOpKind::kShfl;
  std::string code;
  std::uint16_t file_tag = 0;
  std::string file;
};

// One meeting of a warp's lanes at a warp-level intrinsic (48 bytes).
struct WarpOpRecord {
  std::uint32_t time = 0;        // logical time the lanes met (the latest arrival)
  std::uint32_t iteration = 0;   // how many times this warp met at this site before
  std::uint32_t mask = 0;        // the lanes that took part
  std::uint16_t warp = 0;        // within the block
  std::uint16_t site = 0;        // index into the launch's warp-op table
  std::uint8_t source[32] = {};  // shuffles: the lane each lane read (itself: its own value)
};
static_assert(sizeof(WarpOpRecord) == 48, "no padding in warp-op records");

struct BarrierSite {
  std::uint32_t line = 0;
  std::string code;
  std::uint16_t file_tag = 0;  // as in SiteInfo
  std::string file;
  // A multi-warp tile's sync (cooperative groups' thread_block_tile<64..1024>): its tile's
  // threads, each tile passing on its own; 0 for the block's __syncthreads().
  std::uint32_t tile = 0;
};

// An asynchronous copy's life in a block (the pipeline view, issue 53): a thread's event on its
// logical clock. `group`: the copy's commit group (the thread's own count of commits before it:
// __pipeline_commit, a thread's cuda::pipeline) or, in a group's cuda::pipeline, the stage use
// (the thread's count of acquires, or of waits); for a cuda::barrier's copies 0.
enum class AsyncEventKind : std::uint8_t {
  kIssue = 0,     // a copy issued: its global read
  kLand,          // a copy landed: its shared write
  kCommit,        // the thread committed its group (producer_commit, __pipeline_commit)
  kWaitBegin,     // a wait for `group` begun (consumer_wait, a wait_prior, arrive_and_wait)
  kWaitEnd,       // and ended (its copies landed, the thread goes on)
  kRelease,       // consumer_release of `group`
  kAcquireBegin,  // producer_acquire of `group` begun (a group pipeline's stage reuse)
  kAcquireEnd,    // and ended
};
inline constexpr int kAsyncEventKinds = 8;
struct AsyncEvent {
  std::uint32_t time = 0;
  std::uint32_t group = 0;
  std::uint16_t thread = 0;
  AsyncEventKind kind = AsyncEventKind::kIssue;
  std::uint8_t stages = 0;  // a group pipeline's stage count (the view colours by stage), else 0
};
static_assert(sizeof(AsyncEvent) == 12, "no padding in async events");

// Everything one block recorded.
struct BlockRecords {
  std::uint32_t block = 0;  // linear block index: x + y * grid.x + z * grid.x * grid.y
  std::vector<AccessRecord> accesses;
  std::vector<BarrierRecord> barriers;
  std::vector<WarpOpRecord> warp_ops;    // in time order
  std::vector<AsyncEvent> async_events;  // the emulator's, in the order they happened
  // Per access, in the same order (the emulator; empty when unknown, as in a GPU capture): what
  // the access read or wrote, its first 8 bytes (an atomic: the value it left). The hazard
  // analysis tells benign races (two writes of one value) by them and shows them in its example.
  std::vector<std::uint64_t> values;
};

// A global buffer as the kernel saw it. Base addresses are placed as cudaMalloc places them
// (256-byte aligned, one after another), so the emulator's and a GPU's addresses fall on the same
// 32-byte sectors and 128-byte lines whatever the real pointers were.
struct BufferInfo {
  std::string name;
  std::uint64_t bytes = 0;
  std::uint64_t base = 0;  // virtual address, 256-byte aligned
};

inline constexpr std::uint64_t kCudaMallocAlignment = 256;
// Lays buffers out one after another from `first_base`, each 256-byte aligned.
void PlaceBuffers(std::vector<BufferInfo>& buffers, std::uint64_t first_base = 1u << 20);

}  // namespace ws
