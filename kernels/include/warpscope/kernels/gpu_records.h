// Host side of GPU recording: turns the chunks a recording pass filled (per-warp events, see
// ws_cuda_record_format.h) into a LaunchTrace with
// the same site table, records and analyses as the emulator's. No CUDA here, so it is tested
// without a GPU.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "warpscope/kernels/ws_cuda_record_format.h"
#include "warpscope/trace/launch.h"

namespace ws {

// What the hazard check on the device found (ws_cuda_hazards.h), before the recording pass.
struct HazardScan {
  bool ran = false;                   // every block of the launch was checked
  std::vector<std::uint32_t> racing;  // the blocks whose threads may race, ascending
  std::size_t racing_kept = 0;        // of them, the first this many are kept (kMaxRacingKept)
  std::uint64_t unshadowed = 0;       // global accesses of a buffer with no shadow
  bool identified = false;            // a word several blocks shared: a second pass named them
  static constexpr std::size_t kMaxRacingKept = 4096;
};

struct GpuCapture {
  std::string kernel;
  Dim3 grid, block;
  std::uint32_t shared_bytes = 0;
  std::vector<BufferInfo> buffers;
  // Events: warp w owns words [warp_base[w], warp_base[w + 1]) and filled the first
  // warp_used[w] of them (GatherChunks fills them all; a warp that overflowed lost the events
  // that did not fit).
  std::vector<std::uint32_t> words;
  std::vector<std::uint64_t> warp_base, warp_used;
  bool overflowed = false;
  // Per warp: 1 where it counted events but the record budget left it no room, so that it
  // recorded nothing (its block is not covered: LaunchTrace::uncovered_blocks). Empty: none.
  std::vector<std::uint8_t> warp_dropped;
  // The tally (ws_cuda_record_format.h): requests of a warp's every lane outside the kept blocks,
  // counted on the device by shape and not written. Each shape: its site key (device file tag),
  // its lanes, the offsets of its first request and how many requests it stands for.
  struct TalliedShape {
    std::uint64_t key = 0;
    std::uint32_t mask = 0;
    // An asynchronous copy's write: the global 128-byte lines its sources lie in (else 0).
    std::uint32_t lines = 0;
    std::uint32_t offsets[32] = {};
    std::uint64_t count = 0;
    // A barrier's pass (dev::kTallyBarrier in its key; `lines` the threads its instance had):
    // its lanes' waits, summed, and the longest (ns).
    std::uint64_t wait_sum = 0, wait_max = 0;
    std::uint64_t hash = 0;  // its key in the device's table (the slot's word)
  };
  std::vector<TalliedShape> tallied;
  bool tally_full = false;  // a shape found no slot: it was written, and so were later requests
                            // whose shape was not in their first slot
  std::vector<std::uint8_t> warp_tallied;  // per warp: 1 where it had a request tallied
  HazardScan hazard_scan;
  // The file names the GPU's file tags stand for (RecorderFileTag in ws_cuda_keys.h); the decoder
  // gives sites and barriers FileTag(name) instead. Tags not listed are kept as they are.
  std::map<std::uint16_t, std::string> device_files;
};

// A chunk of a recording pass's pool: warp `warp` wrote events into it after its header
// (ws_cuda_record_format.h). `first` is where it lies in the words read back, `device_first`
// where it lay in the pool (what the warp's state word names).
struct PoolChunk {
  std::uint64_t warp, first, size, device_first;
};

// A super-chunk of the pool: its first word there and the words used in it.
struct SuperChunk {
  std::uint64_t first, used;
};

// The super-chunks a pool pass handed out: super-chunk k's header word 0 is headers[k] (its
// used count once closed, 0 while open: then the SM state word holding it has the count).
// Super-chunk k begins at word first_super + k * super_words.
std::vector<SuperChunk> SuperChunks(const std::vector<std::uint32_t>& headers,
                                    std::uint64_t first_super, std::uint64_t super_words,
                                    const std::vector<unsigned long long>& sm_state);

// The chunks in `words`, which holds from word `base` on the used words of `supers`, one after
// the other (before `base`: the warps' own first chunks, if any), walked
// through their headers. A header that names no warp of the launch's `warps`, or a size that is
// not one of the chunk sizes or runs past the used words, ends that super-chunk's walk. A warp's
// chunks come out in the order it took them.
std::vector<PoolChunk> PoolChunks(const std::vector<std::uint32_t>& words, std::uint64_t base,
                                  const std::vector<SuperChunk>& supers, std::uint64_t warps);

// The super-chunk size and the largest chunk class for a pool of `pool_words` shared by `sms`
// SMs: a quarter of each SM's share (so that an SM holding a half-used super-chunk wastes little),
// at most 2^18 words (1 MB) and at least 256; 4 of the largest chunks fit in one.
std::uint32_t SuperChunkWords(std::uint64_t pool_words, std::uint32_t sms);
std::uint32_t MaxChunkClass(std::uint32_t super_words);

// Puts each warp's events, chunk after chunk in the order given, into `capture`'s words,
// warp_base and warp_used (one warp per state). A chunk's used count is its header's, or the
// warp's state's for the chunk the warp was still writing; it is clamped to the chunk.
// `pool` holds the chunks at their `first` words. With `first_chunks`, warp w's chunk at
// w * kFirstChunkWords is its own first one (state word chunk 0).
void GatherChunks(const std::vector<std::uint32_t>& pool, const std::vector<PoolChunk>& chunks,
                  const std::vector<unsigned long long>& state, bool first_chunks,
                  GpuCapture* capture);

// A lane log's warp rows (ws_cuda_lane_log.h: a whole warp's access or meeting, its head in
// `heads`, 4 words a row, and each lane's word 2 in `offsets`, 32 words a row, the same
// `row_count` rows a warp as `rows`) written into the lanes' columns as rows of their own:
// lane l's k-th row left as cleared, or of its own with dev::kLaneWarpRow in word 0 (a whole
// warp's access whose key was not lane 0's; the bit is cleared here), before its column's end is
// its warp's k-th warp row, since every lane of the warp ran each. After it every record is a row
// of `rows` with its time in `times`, as LaneLogCounts and LaneLogToCapture read them. Where not
// null, `all_warp_rows`: the warp rows found, all warps'; `filled`: the lanes' rows filled in from
// them. Returns an error where the arrays are shorter than `warps` warps of `row_count` rows; ""
// when all is well.
std::string LaneLogUnpackWarpRows(std::vector<std::uint32_t>* rows,
                                  std::vector<std::uint32_t>* times,
                                  const std::vector<std::uint32_t>& heads,
                                  const std::vector<std::uint32_t>& offsets,
                                  std::uint32_t row_count, std::uint32_t threads_per_block,
                                  std::uint64_t warps, std::uint64_t* all_warp_rows = nullptr,
                                  std::uint64_t* filled = nullptr);

// Each thread's rows in a lane log read back whole (`rows` as LaneLogToCapture takes them, the
// log cleared before the pass and its warp rows in: LaneLogUnpackWarpRows): a column ends at its
// first row whose words 0 and 3 are both 0 (no record's are, once the warp rows are in:
// ws_cuda_lane_log.h), or at `row_count`. The grid's threads in order.
std::vector<std::uint32_t> LaneLogCounts(const std::vector<std::uint32_t>& rows,
                                         std::uint32_t row_count, std::uint32_t threads_per_block,
                                         std::uint64_t warps);

// A lane log's loop patterns (ws_cuda_lane_log.h, LanePatternHead: a head row, then a row for
// each access a pass of the loop makes), checked before LaneLogToCapture, which makes each of
// them, warp by warp, into the access rows the loop's body would have written (for pass p of the
// head's count, each site's row in order: its key, its first offset plus p times its step, the
// head's lanes). `rows`, `times` and `counts` as LaneLogToCapture takes them; `max_rows`: the
// most rows a lane may have once its patterns are made. Returns "" when all is well; else what is
// wrong, and where `*uneven` is set, only that a loop's lanes counted different numbers of passes
// (the head's ~0u) or a lane's rows would be past `max_rows`: a launch to record by the event
// roads, not a bug. `*expanded`: the access rows the patterns make, all lanes'.
std::string LaneLogPatterns(const std::vector<std::uint32_t>& rows,
                            const std::vector<std::uint32_t>& times, std::uint32_t row_count,
                            const std::vector<std::uint32_t>& counts,
                            std::uint32_t threads_per_block, std::uint64_t warps,
                            std::uint64_t max_rows, bool* uneven,
                            std::uint64_t* expanded = nullptr);

// The lane log a recording pass of a small launch wrote (ws_cuda_lane_log.h), read back: for
// each of `warps` warps `row_count` rows of 32 lanes, 4 words a lane in `rows`, a word in `times`
// (a meeting's time; its warp rows written in first: LaneLogUnpackWarpRows);
// `counts`, each thread's rows (the grid's threads in order, blocks of `threads_per_block`);
// `starts`, each warp's start (%globaltimer's low 32 bits, RecorderState::lane_starts), and
// `pass_ns`, the pass's time measured on the host.
// Where a record of the lane log (its warp rows unpacked) names a file tag that `files` (the
// names read back) lacks: an error naming its warp, lane, row and tag; "" when every tag is
// named. The lane log notes each kernel's own file alone, at its entry (ws_cuda_lane_log.h).
std::string LaneLogUnnamedFile(const std::vector<std::uint32_t>& rows, std::uint32_t row_count,
                               const std::vector<std::uint32_t>& counts,
                               std::uint32_t threads_per_block, std::uint64_t warps,
                               const std::map<std::uint16_t, std::string>& files);

// Fills `capture`'s words, warp_base and warp_used with the warps' events as the event roads
// write them: a lane's records in their order, the lanes that ran together (each record names
// them) joined into one request for each site key among them, and lanes that ran apart taken
// accesses first (lowest lane first), then meetings and barriers earliest first. An access
// has no time of its own on the device: a warp's accesses between two of its timed points (its
// start, its meetings and barriers: a barrier's arrival before it, its departure after it, and
// the pass's end, the earliest start plus `pass_ns`) get times evenly spaced between them, 1 ns
// apart where the two are closer. A warp's loop patterns are first made into the rows their
// bodies would have written (LaneLogPatterns). Returns an error that names the warp where the
// records do not fit together, or a lane whose count is past `row_count`; "" when all is well.
std::string LaneLogToCapture(std::vector<std::uint32_t> rows, std::vector<std::uint32_t> times,
                             std::uint32_t row_count, const std::vector<std::uint32_t>& counts,
                             std::uint32_t threads_per_block, std::uint64_t warps,
                             const std::vector<std::uint32_t>& starts, std::uint64_t pass_ns,
                             GpuCapture* capture);

struct KeepBlocks {
  std::vector<std::uint32_t> blocks;  // full records kept for these
  bool all = false;
};

// The tally's table read back (ws_cuda_record_format.h): the shapes of the slots whose key is
// set, each with its counters summed; slots counted by no request are left out.
std::vector<GpuCapture::TalliedShape> TalliedShapes(const std::vector<unsigned long long>& keys,
                                                    const std::vector<std::uint32_t>& shapes,
                                                    const std::vector<unsigned long long>& counts);

// A launch's table for the direct road (ws_cuda_record_format.h, "The direct road"): its
// kDirectSites entries, each at DirectSiteSlot(key), or none (empty `sites`).
struct DirectTable {
  std::vector<dev::DirectSite> sites;
};
// The table for a kernel's next run from the shapes an earlier run tallied (`tallied`, as
// ReadTally leaves them, the direct road's added): each site key of whole warps' affine requests
// (no warp meeting's, no asynchronous copy's) with the step most of its requests made, and each
// barrier's whole warps' passes with the count of threads most of them had, at its entry
// (DirectSiteSlot), in order of their counts: a site whose entry a more counted one has is left
// out (the tally's roads count it). Empty where there are none.
DirectTable DirectTableFor(const std::vector<GpuCapture::TalliedShape>& tallied);

// The direct road's counters read back (ws_cuda_record_format.h, "The direct road": `sites`
// kDirectSites entries, `counts`, `waits` and `wait_max` kTallySpread * kDirectColumn words each)
// added into `tallied`: each entry given its step, each place p of its site counted at all, as
// the shape of a whole warp whose lane l's offset is p + l x step (a barrier's: every offset 0,
// its lines its count of threads, its waits summed and the longest kept). Where the tally counted
// the same shape too (a warp whose step was not its site's), into that shape; else a new one, with
// its table hash (AffineShapeHash). Arrays shorter than that are not read. Returns the requests
// (and barrier passes) added.
std::uint64_t AddDirectShapes(const std::vector<dev::DirectSite>& sites,
                              const std::vector<unsigned long long>& counts,
                              const std::vector<unsigned long long>& waits,
                              const std::vector<unsigned long long>& wait_max,
                              std::vector<GpuCapture::TalliedShape>* tallied);

// Of a launch's tallied access shapes of a whole warp (no barrier's, warp meeting's or copy
// write's), how many there are and how many the device hashed by their steps: affine, or affine
// in rows of 2^TallyRows(block) lanes (AffineShapeHash), the whole warp's short road's shapes,
// rather than by their lanes. A shape whose offsets are affine in either way and was hashed by
// its lanes would say that the device's two roads disagree.
struct TallyShapeCount {
  std::uint64_t shapes = 0, by_steps = 0, steps_shaped = 0;  // steps_shaped: affine either way
};
TallyShapeCount ShapesTalliedBySteps(const GpuCapture& capture);

// Decodes `capture`: every block is analysed (and its loads replayed through `cache`'s probes,
// the trace's cache_replays), the kept ones keep their records, and the tallied shapes are
// costed once each and added as many times as they were counted. A warp's events
// are read up to the first that does not fit its range or covers no lane (unwritten words are
// zero), so a short or overflowing range loses only its tail, and `truncated` says so.
LaunchTrace DecodeGpuCapture(const GpuCapture& capture, const KeepBlocks& keep,
                             const std::vector<CacheProbe>& cache = {});

// The device's hazard check (`scan`) in the launch's hazard report (t->hazards, FindHazards'
// over the kept blocks): where it ran, every block it flagged was kept whole (`flagged_dropped`:
// one lost events), every global access had a shadow and no kept block it found clean has a pair
// on the recording run (`clean_raced`), the report covers the whole grid (its access counts the
// grid's); else device_gap says why not.
void AddHazardScan(const HazardScan& scan, bool flagged_dropped, bool clean_raced, LaunchTrace* t);
// The launch's hazard report says it covers the grid (whole_grid, its accesses the grid's): where
// every block's pairs were counted, by the host over every block's records (the lane log) or on
// the device's word (AddHazardScan).
void HazardsOverEveryBlock(LaunchTrace* t);

// Appends one event to `words` as the GPU would write it (affine when the offsets allow it;
// with `instance`, where bit 32 is set, a program's dynamic instance in its low 32 bits);
// returns the number of words. For tests of the decoder and the benchmark's arithmetic.
std::uint32_t EncodeWarpEvent(std::uint64_t key, std::uint32_t lane_mask, std::uint32_t time,
                              const std::vector<std::uint32_t>& lane_offsets,
                              std::vector<std::uint32_t>* words, std::uint64_t instance = 0);
// Appends the event the lanes of `lane_mask` write when they meet at a warp-level intrinsic of
// `kind` (WarpOpKind) at `place`; source[l]: the lane lane l read.
std::uint32_t EncodeWarpOpEvent(std::uint32_t kind, std::uint32_t place, std::uint32_t lane_mask,
                                std::uint32_t time, const std::uint8_t (&source)[32],
                                std::vector<std::uint32_t>* words);
// Appends the event the lanes of `lane_mask` of a kept block write when they make an asynchronous
// copy call (dev::AsyncCall) with `arg`, returning at `time`; `began`: a wait's start (0: not
// timed).
std::uint32_t EncodeAsyncCall(std::uint32_t call, std::uint32_t arg, std::uint32_t lane_mask,
                              std::uint32_t time, std::uint32_t began,
                              std::vector<std::uint32_t>* words);
// Appends the event the lanes of `lane_mask` write when they pass the barrier at `place`
// together: arrival and departure in %globaltimer ns, the SM and the cycles between them, and
// the threads that passed the instance (0: not said, as an older recorder).
std::uint32_t EncodeBarrierEvent(std::uint32_t place, std::uint32_t lane_mask,
                                 std::uint64_t arrival_ns, std::uint64_t departure_ns,
                                 std::uint32_t sm, std::uint32_t wait_cycles,
                                 std::vector<std::uint32_t>* words, std::uint32_t arrived = 0);

}  // namespace ws
