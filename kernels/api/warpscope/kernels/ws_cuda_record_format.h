// The bytes the GPU recorder writes and the host decodes (shared by ws_cuda_device.h and
// gpu_records.h; self-contained, C++17).
//
// Everything is recorded per warp, not per thread: at each access the lanes that execute it
// together (and use the same site) write one event into their warp's stream of 32-bit words:
//
//   word 0   site key bits 0..31, with kEventAffine set in bit 8 (keys leave bits 8..11 zero)
//   word 1   site key bits 32..63 (the place: file tag and line)
//   word 2   lane mask: the lanes the event covers (never 0)
//   word 3   %globaltimer's low 32 bits (ns), read once for the warp; the host unwraps it
//   affine:  word 4 the first lane's offset, word 5 the step between consecutive lanes of the
//            mask (offset of the k-th lane = word 4 + k * word 5, modulo 2^32)
//   else:    one offset per lane of the mask, lowest lane first
//   With kEventInstance set in word 0 (a user's program: its lanes' dynamic instance, the loop
//   step and call they are in), word 4 is the instance key and the offsets follow one word
//   later; the host joins a warp's events of one site and instance into one request.
//
// At a warp-level intrinsic (__shfl_*_sync, votes) the lanes that met write a warp-op event:
// word 0 = kEventWarpOp | kind (WarpOpKind), word 1 the place, word 2 the lanes, word 3 the time,
// then 8 words holding one byte per lane: the lane it read (itself when it kept its own value).
//
// A program's asynchronous copy calls in a kept block (the GPU road's, shim/gpu/ws_gpu_async.h:
// the Pipeline view's events) write an event of the warp-op event's size, one for each lane that
// made the call (word 2 has one bit: lanes may reach a call apart): word 0 = kEventWarpOp |
// (kAsyncCallBase + AsyncCall), word 1 0, word 2 the lane, word 3 the time the call returned, word
// 4 its argument (a copy's kind, a wait_prior's N), word 5 the time a wait began (low 32 bits; 0
// where not timed), the rest 0. The host replays each thread's calls as the emulator runs them
// (gpu_async_replay.cpp).
//
// The lanes that arrive at a __syncthreads() together write one barrier event, with their
// leader's (lowest lane's) times: word 0 = kEventBarrier, word 1 the barrier's place, word 2 the
// lanes, word 3 the departure time's low 32 bits, words 4 and 5 the arrival time (64 bits, ns),
// word 6 the SM, word 7 the SM clock cycles between arrival and departure; word 0's bits 16..26 the
// threads that passed the instance (the barrier's count; 0 from an older recorder). A multi-warp
// tile's sync (cooperative groups) writes one too, its tile's warps in word 0's low 8 bits; it
// orders its tile's threads only and counts in no thread's epoch. A converged warp writes one event
// where it used to write 32 records of 32 bytes; lanes that arrived apart write one each, so every
// thread keeps its own times. The host counts the events per lane to give every access its epoch,
// the number of barriers its thread had passed.
//
// A warp whose lanes read consecutive floats writes 24 bytes instead of 32 x 16: that is what
// keeps a recorded stride-copy within a few times its uninstrumented time.
//
// Where the words go. One pass records (kRecord): a warp's stream lives in chunks taken from a
// pool. The pool is handed out in super-chunks of `super_words`, one per SM at a time (one
// atomic on the pool's counter per super-chunk); a warp takes its chunks from its SM's
// super-chunk (one atomic on the SM's state word per chunk). A counter shared by every warp
// was tried first: with one chunk per warp, 2^19 warps queued on one address and the pass took
// 8x the uninstrumented copy instead of 3x. A warp's state word packs its current chunk and the
// words used in it; the lane that reserves an event adds the event's size to it (one atomic on
// the warp's own word, no contention between warps). The reservation that crosses the chunk's
// end closes the chunk (writes its used count into its header) and takes the next, twice as
// large (kFirstChunkWords up to kFirstChunkWords << kMaxChunkClass), so a warp that writes two
// events wastes little and a warp that writes thousands takes few chunks. Reservations made
// while the chunk changes hands wait for the new chunk and try again, so events never straddle
// chunks and no reserved word is left unwritten. When the pool (the record budget) runs dry the
// warp's state becomes kDeadChunk and the launch is marked overflowed; the runner then records
// again the way it did before this pool existed: a counting pass (kCount) sizes each warp's
// range, and a planned pass (kRecord with `plan`) fills them, the kept blocks' warps first, so
// the kept blocks stay whole whatever the budget.
//
// Chunk header (kChunkHeaderWords): word 0 and 1 the warp (64 bits), word 2 the words used
// (header included) once the chunk is closed, 0 while open, word 3 the chunk's size in words.
// Where the pool has room for it, every warp's first chunk is its own, at warp *
// kFirstChunkWords (state word 0 then means "in the first chunk"), so that a warp which writes a
// few events (a copy's load and store) costs no allocation at all: taking the first chunk from
// the SM's super-chunk put two more atomic round trips on every warp's path, and a 2^24-float
// copy took 8x its uninstrumented time instead of 3x.
// A super-chunk starts with kChunkHeaderWords words too: word 0 its used words once closed (0
// while open, when its SM's state word says), then its chunks one after the other. An SM's state
// word is packed as a warp's (class 0).
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define WS_RECORD_HD __host__ __device__
#else
#define WS_RECORD_HD
#endif

namespace ws::dev {

inline constexpr std::uint32_t kEventAffine = 1u << 8;
inline constexpr std::uint32_t kEventBarrier = 1u << 9;
inline constexpr std::uint32_t kEventWarpOp = 1u << 10;
inline constexpr std::uint32_t kEventInstance = 1u << 11;
inline constexpr std::uint32_t kEventHeaderWords = 4;
// The lane log (ws_cuda_lane_log.h): a lane's own row of a whole warp's access whose key is not
// lane 0's, which takes its warp row's number too, says so here (LaneLogUnpackWarpRows clears
// it). No row of the log has this bit otherwise: a key's bits 8..11 are zero, a meeting's word 0
// is kEventWarpOp and its kind, a barrier's first row is read as one before this bit.
inline constexpr std::uint32_t kLaneWarpRow = kEventAffine;
static_assert((kLaneWarpRow & (kEventBarrier | kEventWarpOp)) == 0,
              "a lane's row that took its warp row is told from a barrier's by word 0");
// The lane log's loop patterns (ws_cuda_lane_log.h, LanePatternHead): a pattern's head row is
// word 0 kLanePattern alone, each of its sites' rows kLanePattern with the site key's bits 0..31
// (whose low byte, the access's size, is never 0). LaneLogToCapture (gpu_lane_log.cpp) turns
// them into access rows warp by warp; the warp rows' unpacking leaves them be, LaneLogPatterns
// checks them first and LaneLogUnnamedFile skips their heads.
inline constexpr std::uint32_t kLanePattern = kEventInstance;
static_assert((kLanePattern & (kEventBarrier | kEventWarpOp | kLaneWarpRow)) == 0,
              "a loop pattern's row is told from a barrier's, a meeting's and a warp row's");
inline constexpr std::uint32_t kAffineEventWords = kEventHeaderWords + 2;
// A warp-level intrinsic's meeting: the header, then 32 bytes, the lane each lane read.
inline constexpr std::uint32_t kWarpOpEventWords = kEventHeaderWords + 8;
inline constexpr std::uint32_t kBarrierEventWords = kEventHeaderWords + 4;
// An asynchronous copy call's kind (word 0's low byte less kAsyncCallBase, past every WarpOpKind).
enum AsyncCall : std::uint32_t {
  kAsyncIssue = 0,      // a copy issued (one piece): word 4 its AsyncCopyKind
  kAsyncCommit,         // __pipeline_commit(), a thread's pipeline's producer_commit()
  kAsyncWaitPrior,      // __pipeline_wait_prior(N): word 4 N
  kAsyncPipeStart,      // cuda::make_pipeline(): a thread's pipeline begins at the next group
  kAsyncPipeWait,       // a thread's pipeline's consumer_wait()
  kAsyncPipeRelease,    // its consumer_release()
  kAsyncPipeWaitPrior,  // cuda::pipeline_consumer_wait_prior<N>(pipe): word 4 N
  kAsyncBarrierWait,    // a block's cuda::barrier's arrive_and_wait() (its copies land there)
  // A group's cuda::pipeline (thread_scope_block), word 4 its stages: producer_acquire() (timed),
  kAsyncGroupAcquire,
  kAsyncGroupCommit,   // producer_commit()
  kAsyncGroupWait,     // consumer_wait() (timed)
  kAsyncGroupRelease,  // consumer_release()
};
inline constexpr std::uint32_t kAsyncCallBase = 32, kAsyncCalls = 12;
// What a copy was issued into: the thread's commit groups (the primitives, a thread's pipeline),
// a cuda::barrier, or a group's cuda::pipeline (the stage use its thread acquired last).
enum AsyncCopyKind : std::uint32_t { kCopyGrouped = 0, kCopyBarrier = 1, kCopyGroupPipeline = 2 };

inline constexpr std::uint32_t kChunkHeaderWords = 4;
inline constexpr std::uint32_t kFirstChunkWords = 32;  // 128 bytes: a header and 4 affine events
inline constexpr std::uint32_t kMaxChunkClass = 11;    // 32 << 11 words = 256 KB
inline constexpr std::uint32_t kSmSlots = 256;         // SM state words (by %smid modulo)
inline constexpr std::uint32_t kSmSlotStride = 16;     // words of 8 bytes: one per 128 bytes
// A warp's state word: bits 32..63 its chunk's first word / 4, plus 1 (0: no chunk yet;
// kDeadChunk: no room left), bits 28..31 the chunk's size class (size = kFirstChunkWords <<
// class; a planned range's size comes from the plan), bits 0..27 the words used in it.
inline constexpr std::uint32_t kDeadChunk = 0xffffffffu;
inline constexpr std::uint32_t kUsedMask = 0x0fffffffu;
inline constexpr std::uint32_t kClassShift = 28;

WS_RECORD_HD constexpr std::uint64_t ChunkState(std::uint64_t first_word, std::uint32_t size_class,
                                                std::uint32_t used) {
  return ((first_word / 4 + 1) << 32) | (std::uint64_t{size_class} << kClassShift) | used;
}
inline constexpr std::uint64_t kDeadState = std::uint64_t{kDeadChunk} << 32;
WS_RECORD_HD constexpr std::uint32_t StateChunk(std::uint64_t s) {
  return static_cast<std::uint32_t>(s >> 32);
}
WS_RECORD_HD constexpr std::uint64_t StateFirstWord(std::uint64_t s) {
  return (s >> 32) * 4 - 4;
}
WS_RECORD_HD constexpr std::uint32_t StateClass(std::uint64_t s) {
  return static_cast<std::uint32_t>(s >> kClassShift) & 15u;
}
WS_RECORD_HD constexpr std::uint32_t StateUsed(std::uint64_t s) {
  return static_cast<std::uint32_t>(s) & kUsedMask;
}

// kHazards: the hazard check's pass (below), which writes no events.
enum RecorderMode : int { kOff = 0, kCount = 1, kRecord = 2, kHazards = 3 };

// The hazard check (ws_cuda_hazards.h). Its shadows, cleared before its first pass:
//   shared_shadow   [block * shared_shadow_words + word]: a word of each block's window, 32 bits:
//                   bits 16..31 the barrier interval (epoch, modulo 2^16), 0..10 its first
//                   thread + 1, 11 another thread came (kShadowMany), 12 it was written, 13 a
//                   plain access came (not an atomic). 0: never accessed.
//   global_shadow   a word of each buffer, 64 bits: bits 0..29 its block + 1 (kGlobalOwner: more
//                   than one), 30 written, 31 a plain access, 32..63 as a shared word's, within
//                   its one block; buffer b's words from buffer_shadow[2 b] - 1 (0: no shadow),
//                   buffer_shadow[2 b + 1] of them.
//                   Where hazard_shared_bytes is set (a lesson's launch, RecordLaunch), the
//                   shared words' shadow is in the block's own shared memory instead, at
//                   ws_dynamic_shared + hazard_shared_offset (past the launch's dynamic bytes),
//                   64 bits a word: the low 32 as above, the high 32 the block's tag
//                   (HazardBlockTag: its number and the launch's hazard_tag mixed). Nothing
//                   clears it: a word whose tag is not the block's is another block's, left in
//                   the SM's shared memory, and reads as never accessed. A stale word that
//                   carries the block's tag (by chance, or left by the same block of an earlier
//                   process whose launch count and random part matched) can only flag the block
//                   more, never fewer.
//   buffer_shadow   [2 b] where buffer b's shadow begins + 1; 0: no shadow (its accesses are
//                   counted, hazard_counts[1]); kReadOnlyBuffer: no store of the launch can
//                   reach it (a lesson's Global<const T> that no other argument names), so it
//                   needs none. [2 b + 1]: its words.
//   thread_epoch    [block * threads_per_block + thread]: the barriers the thread passed.
//   hazard_block    [block]: 1 where its threads may race (its records are kept).
//   hazard_counts   [0] 1 once a global word was contended (several blocks, written, plain):
//                   the identifying pass follows; [1] global accesses with no shadow.
// An interval's count and a thread's wrap modulo 2^16: an old entry read as current can only
// flag a block more, never fewer.
inline constexpr int kHazardsBuild = 1, kHazardsIdentify = 2;
inline constexpr std::uint32_t kShadowEpochShift = 16;
inline constexpr std::uint32_t kShadowThread = 0x7ffu;
inline constexpr std::uint32_t kShadowMany = 1u << 11;
inline constexpr std::uint32_t kShadowWritten = 1u << 12;
inline constexpr std::uint32_t kShadowPlain = 1u << 13;
inline constexpr std::uint32_t kShadowRacing = kShadowMany | kShadowWritten | kShadowPlain;
inline constexpr std::uint64_t kGlobalOwner = 0x3fffffffull;
inline constexpr std::uint64_t kGlobalWritten = 1ull << 30;
inline constexpr std::uint64_t kGlobalPlain = 1ull << 31;
inline constexpr std::uint64_t kReadOnlyBuffer = ~0ull;

// The tally (Tally in ws_cuda_device.h). A request of a warp's every lane, in a block whose
// records are not kept, is not written: it is counted on the device by its shape, as the host's
// ShapeCache (trace/src/request_costs.h) names shapes: the site, the lanes, each lane's offset
// less the lowest and the lowest's place in 256 bytes. Every cost model counts in granules of at
// most 256 bytes, so requests of one shape cost the same, and the host costs each shape once.
// A table of `tally_capacity` shapes, open addressing by a 64-bit hash of the shape:
//   tally_keys[i]    the hash (0: free), set once by a compare-and-swap
//   tally_shapes[i]  kTallyShapeWords words: the site key's low and high words, the lanes, the
//                    global 128-byte lines an asynchronous copy's write took its bytes from (0
//                    for any other request: the lines rule, WarpRequests::AddCopyWrite), then
//                    the offset of each lane of the shape's first request (the one the host
//                    costs)
//   tally_counts[j * tally_capacity + i]
//                    kTallySpread counters for slot i, one per block number j modulo kTallySpread
//                    (blocks running at once have neighbouring numbers; by %smid before), summed
//                    by the host: the warps of 132 SMs adding to one word queued on it, and with
//                    16 counters a 2^24-float copy (every warp's two requests of two shapes) took
//                    9.4x its uninstrumented time on an H200. Spread-major, a slot's counters
//                    tally_capacity words apart: laid out slot by slot, a slot's 128 counters were
//                    one 1 KB run of memory, which the L2 may serve from one slice, and a
//                    recorded copy's time moved with its shapes' slots from build to build
// A shape that finds no free slot within kTallyProbes is written as an event instead, and the
// table counts as full (tally_full): later requests read only their first slot. The counting
// pass adds shapes (its counts are cleared after it); the planned pass after it only looks them up.
// A whole warp's meeting at a warp-level intrinsic in a block not kept is tallied too (only its
// count matters there: the grid's meetings a site): its shape's key is its place, this flag and
// its kind (place << 32 | kTallyWarpOp | kind), apart from every access's key, whose bits 8..11
// are zero. cudaTensorCoreGemm's compute_gemm meets at mma_sync 16,384 times a warp.
inline constexpr std::uint64_t kTallyWarpOp = 1u << 8;
// And a whole warp's pass of a barrier in a block not kept: its shape's key is the barrier's
// place, this flag and its multi-warp tile's warps (place << 32 | kTallyBarrier | tile_warps, 0
// for the block's barrier), its lines word (3) the threads that passed that instance (the
// barrier's count: an instance is the passes whose lanes add up to it), counted a pass; the
// leader adds its lanes' waits (ns, departure less arrival, times its lanes) to tally_waits and
// the wait to tally_wait_max, both spread as the counts. Its arrival skew is not kept: only the
// kept blocks' (and written passes') arrivals give one.
inline constexpr std::uint64_t kTallyBarrier = 1u << 9;
inline constexpr std::uint32_t kTallyHeaderWords = 4;
inline constexpr std::uint32_t kTallyShapeWords = kTallyHeaderWords + 32;
inline constexpr std::uint32_t kTallySpread = 128;
inline constexpr std::uint32_t kTallyProbes = 32;
// A table's capacity is a power of two up to this, so that a slot is never ~0u, Tally's "not
// taken", and leaves the top bits free; SlotOf mixes 24 bits of a slot, and a counter's place
// (its column, the block's number modulo kTallySpread, times the capacity, plus its slot) is a
// 32-bit number that is never ~0u (TallyColumn, TallyColumnOf).
inline constexpr std::uint32_t kTallyMaxCapacity = 1u << 24;
static_assert(std::uint64_t{kTallyMaxCapacity} * kTallySpread < 0xffffffffull,
              "a counter's place must fit 32 bits and never be ~0u");

// The direct road (issue 51; prototyped in bench/gpu_direct_micro.cu; the lean unit's build): a
// whole warp's affine request at a site the launch's table of sites holds with the warp's step is
// counted with no shape hash and no lookup in device memory, at a counter for its site's entry and
// its first offset's place in 256 bytes (the shape's only other word, AffineShapeHash); a
// barrier's pass at place 0 of its site's entry, its count of threads in the step word. The table
// is the host's (DirectTableFor, gpu_records.h: from an earlier run of the same kernel, its
// tallied shapes), in the launch's RecorderState (constant memory: one broadcast read a request),
// each site at the entry its key's compile-time part names (DirectSiteSlot), where no site more
// counted has it:
//   direct_table[s]        s = DirectSiteSlot(key); a key of 0: no site
//   direct_counts[j * kDirectColumn + s * kDirectPlaces + p]
//                          spread as the tally's counters, j the block's number modulo
//                          kTallySpread (TallyColumn), p the first offset modulo 256;
//                          kDirectColumn is the tally's capacity (null direct_counts: no road)
//   direct_waits, direct_wait_max: the same shape, a barrier's waits (its place 0)
// The host adds them into the tally's shapes (AddDirectShapes, gpu_records.h) before costing.
// A table the pass itself filled (entries claimed by a compare-and-swap in device memory) was
// measured first and left: read through L1 a stale empty entry sent most requests the tally's
// roads, through L2 every request read one hot line (copy 4.9x plain, H200; docs/GPU.md).
struct alignas(16) DirectSite {
  std::uint64_t key;
  // The whole warp's step plus one (a barrier's: its count of threads plus one).
  std::uint32_t step1;
  std::uint32_t unused;
};
// 32 entries of 256 places: a column as long as the tally's (CudaBackend::kTallyCapacity), so
// that the warp's tally state (its column's first counter) indexes both.
inline constexpr std::uint32_t kDirectSiteBits = 5;
inline constexpr std::uint32_t kDirectSites = 1u << kDirectSiteBits;
inline constexpr std::uint32_t kDirectPlaces = 256;
inline constexpr std::uint32_t kDirectColumn = kDirectSites * kDirectPlaces;
// A site key's entry: from the parts of the key a kernel's code fixes when it is compiled, its
// line (bits 32..47) and its low 16 bits (an access's space, operation and size; a barrier's
// flag and tile), so that the compiler works the entry out and a request reads its table entry
// at a constant address. The array (bits 16..31: a buffer's number, a shared array's base) and
// the file's tag (bits 48..63, the file literal's address on a GPU) are known only when the
// kernel runs. The whole key was mixed with a seed the host searched for until 2026-12-05: 9 to
// 13 more instructions a request in the padded transpose's SASS (nvcc 13, the lean unit). Sites
// of one kernel at one line, space, operation and size (two arrays read on one line,
// `a[i] + b[i]`) share an entry: the more counted takes it, the other goes the tally's roads
// (DirectTableFor). The line moves the entry by one a line (and by 11 more at each multiple of
// 32) and the low bits by their own amount (the top 5 bits of their product with a multiplier):
// sites of one kind share an entry only 32 lines apart in one block of 32 lines, or 21 apart
// across a multiple of 32; sites of two kinds at one distance of lines in 32. The multiplier is
// one of the 206 odd numbers of 400,000 tried that part every two sites of the 62 kernels the
// lessons launch (GpuTally.NoLessonKernelsSitesShareADirectEntry) and, of those, one that sets the
// five common kinds (global and shared loads and stores of 4 bytes, a barrier) at least 5 entries
// apart (none of them sets them 6 apart, the most 5 kinds can be in 32).
WS_RECORD_HD constexpr std::uint32_t DirectSiteSlot(std::uint64_t key) {
  const std::uint32_t line = static_cast<std::uint32_t>(key >> 32) & 0xffffu;
  const std::uint32_t low = static_cast<std::uint32_t>(key) & 0xffffu;
  return (line + (line >> 5) * 11u + ((low * 0xec2d6353u) >> (32 - kDirectSiteBits))) &
         (kDirectSites - 1u);
}

struct RecorderState {
  int mode;
  int quiet;  // a pass after the first: a program's own output is not shown again
  unsigned int threads_per_block;
  unsigned int warps_per_block;
  unsigned long long* warp_state;  // [warp]: kCount the words counted, kRecord see above
  unsigned int* words;             // the pool
  unsigned long long* pool_next;   // words of the pool handed out as super-chunks
  unsigned long long pool_words;
  unsigned long long* sm_state;  // [kSmSlots * kSmSlotStride]: each SM's super-chunk
  unsigned int super_words;      // a super-chunk's size (a multiple of kFirstChunkWords)
  unsigned int max_chunk_class;  // at most kMaxChunkClass; 4 of the largest fill a super-chunk
  // Nonzero: warp w's first chunk is words [w * kFirstChunkWords, (w + 1) * kFirstChunkWords)
  // of the pool (cleared before the pass), and super-chunks begin after the last warp's.
  unsigned int first_chunks;
  // A planned pass: warp w's one chunk is [plan[w], plan[w + 1]) (its state starts there, or
  // dead where the range is empty) and no chunk is taken from the pool. Null otherwise.
  const unsigned long long* plan;
  unsigned int* overflow;  // set to 1 when a warp found no room (nothing past it is written)
  // [65536]: the file literal each device file tag stands for (RecorderFileTag in
  // ws_cuda_keys.h), noted as the kernel runs.
  const char** files;
  // The tally (above); null tally_keys: every event is written.
  unsigned long long* tally_keys;      // [tally_capacity]
  unsigned int* tally_shapes;          // [tally_capacity * kTallyShapeWords]
  unsigned long long* tally_counts;    // [tally_capacity * kTallySpread]
  unsigned long long* tally_waits;     // [tally_capacity * kTallySpread] (a barrier's shape)
  unsigned long long* tally_wait_max;  // [tally_capacity * kTallySpread]
  unsigned int* tally_full;            // set to 1 once a shape found no slot (then written)
  unsigned char* warp_tallied;         // [warp]: 1 once the warp had a request tallied
  unsigned int tally_capacity;         // a power of two
  // The direct road (above, "The direct road"): null direct_counts, none (tally_capacity is then
  // kDirectColumn where it is not); its table, the host's.
  DirectSite direct_table[kDirectSites];
  unsigned long long* direct_counts;    // [kTallySpread * kDirectColumn]
  unsigned long long* direct_waits;     // the same (a barrier's place 0)
  unsigned long long* direct_wait_max;  // the same
  int tally_frozen;                     // the planned pass: shapes are looked up, none added
  // The blocks whose events are all written, from the lowest (kept_base) to the highest
  // (kept_base + kept_last), in 32 bits: block b is kept where b - kept_base <= kept_last and,
  // where the kept blocks are not every block of that span, keep_block[b - kept_base] is 1. A
  // block outside the span, nearly every block, is told by one subtraction and one compare (the
  // list of up to 16 this replaced was a loop of 9 a block; a word of 64 bits and a null test
  // after it took 17 of the 84 warp instructions a request took on transpose 4096²,
  // bench/gpu_sass_counts.sh). Every block: base 0, last ~0u. None: base ~0u, last 0 (block
  // 2^32 - 1, or a number that wrapped to it, is then taken for a kept one, whose requests are
  // written as events, which the host decodes too).
  unsigned long long kept_base;
  unsigned int kept_last;
  // A block of rows narrower than a warp (blockDim.x 2, 4, 8 or 16, more than one row): log2 of
  // its width, so that a whole warp's request whose offsets are affine in each row, the rows a
  // fixed step apart (a 16 x 16 tile's column, or its rows of a wider matrix), is tallied by its
  // steps as an affine one is (AffineShapeKey), not by its lanes' hash; 0 otherwise, and 0 without
  // a tally (every block kept: the rows' test would only cost). Here, in the hole before
  // keep_block.
  unsigned int tally_rows;
  const unsigned char* keep_block;  // [kept_last + 1]: 1 where kept; null: the whole span
  // The hazard check (above); a kHazards pass only.
  int hazard_mode;  // kHazardsBuild, kHazardsIdentify
  unsigned int* shared_shadow;
  unsigned int shared_shadow_words;
  unsigned long long* global_shadow;
  const unsigned long long* buffer_shadow;
  unsigned int buffer_shadow_count;
  unsigned short* thread_epoch;
  unsigned char* hazard_block;
  unsigned long long* hazard_counts;
  // The shared words' shadow in the block's shared memory (above): the bytes added to the
  // launch's dynamic shared memory, the padding to the shadow's 16-byte boundary and the shadow
  // (0: the shadow is shared_shadow, in device memory), and where it begins past
  // ws_dynamic_shared; hazard_tag: the launch's part of a block's tag.
  unsigned int hazard_shared_bytes;
  unsigned int hazard_shared_offset;
  unsigned int hazard_tag;
  // Bit b: buffer b (< 64) is kReadOnlyBuffer, tested before the call to HazardAccess.
  unsigned long long hazard_read_only;
  // The lane log (ws_cuda_lane_log.h), a recording pass of a small launch: null lane_rows, off.
  // Lane l of warp w writes its k-th record (4 words) at row k: words [((w * lane_cap + k) * 32 +
  // l) * 4, +4) of lane_rows, and a meeting's time at the same slot of lane_times (a whole warp's
  // access or meeting: a warp row below, the lane's row left as cleared), the rows cleared before
  // the pass; a thread past lane_cap rows
  // writes the rows it has needed so far in lane_counts[thread of the grid] (cleared: 0 where it
  // had room).
  unsigned int* lane_rows;
  unsigned int* lane_times;
  unsigned int* lane_counts;
  unsigned int lane_cap;
  // The warps' rows of the lane log (a whole warp's access or meeting): warp w's k-th row's head
  // (4 words, its word 3 never 0) at words [(w * lane_cap + k) * 4, +4) of lane_heads (cleared
  // before the pass), lane l's word 2 at word (w * lane_cap + k) * 32 + l of lane_offsets.
  unsigned int* lane_heads;
  unsigned int* lane_offsets;
  // [warp of the grid]: %globaltimer's low 32 bits when the warp began (its lane 0's, at the
  // kernel's entry), the first of the points between which the host places its accesses' times
  // (an access reads no clock: ws_cuda_lane_log.h).
  unsigned int* lane_starts;
};

inline constexpr unsigned int kDeviceFileTags = 1u << 16;

// An affine request's hash in the tally's table, or one affine in rows (ws_cuda_tally.h,
// AffineShapeKey, says why it is built so): `lanes` the group's lane count. Host and device, so
// that the host can tell which of the table's shapes were hashed by their steps
// (ShapesTalliedBySteps).
WS_RECORD_HD constexpr std::uint64_t AffineShapeHash(std::uint32_t first, std::uint32_t step,
                                                     std::uint64_t key, std::uint32_t lanes,
                                                     std::uint32_t rows = 0,
                                                     std::uint32_t row_step = 0) {
  const std::uint64_t shape = std::uint64_t{step} | std::uint64_t{first & 255u} << 32 |
                              std::uint64_t{lanes} << 40 | std::uint64_t{rows} << 47;
  const std::uint64_t h = key ^ shape * 0x9e3779b97f4a7c15ull;
  return (rows != 0 ? h ^ std::uint64_t{row_step} * 0xc2b2ae3d27d4eb4full : h) | 1ull;
}

// Says that RecorderState has tally_rows (bench/gpu_tally_micro.cu, built against an older
// recorder's headers too).
#define WS_RECORDER_TALLY_ROWS 1

// RecorderState::tally_rows for a block of x * y * z threads: log2 x where x is 2, 4, 8 or 16 and
// the block has more than one row (a warp then spans rows), else 0.
WS_RECORD_HD constexpr unsigned int TallyRows(unsigned int x, unsigned int y, unsigned int z) {
  if (y * z < 2) return 0;
  return x == 2 ? 1u : x == 4 ? 2u : x == 8 ? 3u : x == 16 ? 4u : 0u;
}

}  // namespace ws::dev
