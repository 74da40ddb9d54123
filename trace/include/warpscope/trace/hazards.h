// Races from the records: two accesses to the same bytes by different threads, at least one a
// write, not both atomics, with no barrier both threads passed between them.
//
//   shared memory: within one block, in the same barrier interval (the same epoch);
//   global memory: threads of one block in the same epoch (every pair, as shared memory), and
//                  threads of different blocks (blocks have no barrier between them), through a
//                  shadow of each word as compute-sanitizer's racecheck keeps one: its last write
//                  and the first read since that write. Blocks are taken in index order (the
//                  order the emulator runs them): an access is paired with the word's last write
//                  by a lower block (RAW or WAW), and a write also with the first read since it
//                  by a lower block (WAR); one pair for each such access.
//
// Within a block, which access came first is read from the records' times (the emulator's
// logical clock counts a thread's steps and is levelled at each barrier; a GPU capture's are
// nanoseconds); a tie goes to the access on the earlier line. A write then a read is RAW (the
// read may see the old value), a read then a write WAR (it may see the new one), two writes WAW;
// two writes of the same value are reported apart as benign (compute-sanitizer's racecheck calls
// these warnings). An atomic counts as a write against a plain access. Pairs inside one warp are
// hazards too under independent thread scheduling (compute 7.0 and later): they are reported,
// marked same_warp.
//
// The emulator checks every block of every launch as it runs (HazardScan below), keeping
// nothing of a block once its barrier intervals are checked; FindHazards checks the blocks whose
// records a trace kept (a GPU capture's), in the same way.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <span>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "warpscope/trace/records.h"
#include "warpscope/trace/status.h"

namespace ws {

struct LaunchTrace;

// kEarlyRead: a thread reads shared memory its own asynchronous copy (cp.async, a pipeline's or a
// barrier's memcpy_async) lands in before the wait that lands it: it may read the old bytes or the
// new. The pair's first side is the copy's shared write (its site), the second the read; one
// thread.
enum class HazardKind : std::uint8_t {
  kRaw = 0,
  kWar = 1,
  kWaw = 2,
  kWawSameValue = 3,
  kEarlyRead = 4
};
inline constexpr int kHazardKinds = 5;
// "RAW", "WAR", "WAW", "WAW (same value)", "read before its copy landed"
const char* ToString(HazardKind k);

// One side of a hazard: a thread's access.
struct HazardAccess {
  std::uint32_t block = 0;   // linear block index
  std::uint16_t thread = 0;  // linear thread index within the block
  std::uint16_t site = 0;    // index into the launch's site table
  std::uint32_t time = 0;
  std::uint32_t epoch = 0;
  bool has_value = false;   // the emulator records values; a GPU capture does not
  std::uint64_t value = 0;  // what the access wrote or read (its first 8 bytes)
  friend bool operator==(const HazardAccess&, const HazardAccess&) = default;
};

// All hazards between one pair of sites, of one kind: `first` is the earlier access.
struct HazardGroup {
  HazardKind kind = HazardKind::kRaw;
  MemorySpace space = MemorySpace::kShared;
  std::uint16_t first_site = 0, second_site = 0;
  std::uint32_t first_line = 0, second_line = 0;
  std::uint64_t count = 0;      // pairs of accesses
  std::uint64_t same_warp = 0;  // of which both threads are in one warp
  // The worked example: the first pair found (blocks, threads and addresses in ascending order).
  HazardAccess example_first, example_second;
  std::uint64_t example_offset = 0;   // bytes into the buffer (shared: into the block's window)
  std::uint64_t example_address = 0;  // global: the buffer's base + offset; shared: the offset
  std::uint16_t example_buffer = 0;
  bool SameWarpOnly() const { return same_warp == count; }
};

struct HazardReport {
  std::vector<HazardGroup> groups;  // sorted: kind, first line, second line
  // What was checked.
  bool whole_grid = false;            // every block (the emulator); else the kept ones:
  std::vector<std::uint32_t> blocks;  // the kept blocks (empty when whole_grid)
  std::uint64_t blocks_in_grid = 0;
  std::uint64_t shared_accesses = 0, global_accesses = 0;
  bool values_known = false;  // every checked access carried its value
  // The bounds, each far beyond a course program's run; where one was reached, Checked() says so.
  bool truncated = false;  // a block's pairs stopped after kMaxPairChecks pair checks
  static constexpr std::uint64_t kMaxPairChecks = 4'000'000'000;
  // Global words past the shadow's kMaxShadowBytes (or reads forgotten past its 64 MiB of reads
  // waiting, of a buffer written later) are not checked across blocks: how many accesses.
  std::uint64_t unshadowed_accesses = 0;
  static constexpr std::uint64_t kMaxShadowBytes = std::uint64_t{1} << 30;
  // Loads of a buffer the kernel's text only reads skip the check (no store can pair with them);
  // where a store reached such a buffer after all (through a pointer the rewriter's rule did not
  // follow), its loads were not checked: how many.
  std::uint64_t unlogged_reads = 0;
  // An asynchronous copy's shared writes left out (FindHazards' async_writes false: a GPU's
  // records, which hold them where the copy was issued, not where a wait landed them): how many.
  std::uint64_t unchecked_async_writes = 0;
  // A barrier interval of one block longer than kMaxIntervalAccesses accesses is checked in
  // pieces that long (pairs between pieces are not seen): how many intervals were cut.
  std::uint64_t cut_intervals = 0;
  // A cooperative launch: its grid syncs order the blocks' global accesses, so the emulator pairs
  // them across blocks within each grid epoch (a shadow an epoch: Launch::GridShadow).
  bool grid_synced = false;
  static constexpr std::uint64_t kMaxIntervalAccesses = std::uint64_t{1} << 22;
  // A GPU capture whose every block was checked on the device first (ws_cuda_hazards.h): the
  // blocks whose threads shared a written word there (racing_blocks) had their records kept and
  // their pairs counted here; the others have none. whole_grid where every such block was kept
  // whole; else `blocks` lists the kept ones.
  bool device_scanned = false;
  std::uint64_t racing_blocks = 0;
  std::string device_gap;  // why the pairs may not be the grid's ("at most 4,096 of them kept")

  std::uint64_t Count(HazardKind k) const;
  std::uint64_t Total() const;  // every kind, benign included
  // "every block of 256: shared memory within each block (4,096 accesses), global memory
  // within and across blocks (8,192 accesses)"; for kept blocks "shared memory within each of
  // blocks 0-3 of 256 (...), global memory among them (...)"; after the device's check it says
  // whose records the pairs were counted from.
  std::string Checked() const;
};

// The hazards among the kept blocks of one launch (a trace's records).
// `across_blocks` false: global accesses are paired within each block only (a cooperative launch
// on a GPU, whose grid syncs the kept blocks' records do not mark: grid_synced, and Checked()
// says so). `only`: the kept blocks among these alone. `async_writes` false: an asynchronous
// copy's shared writes are left out (and counted), for records that hold them where the copy was
// issued and not where its wait landed it (a GPU's: the pipeline's waits that order them are not
// recorded there).
HazardReport FindHazards(const LaunchTrace& launch, bool across_blocks = true,
                         const std::vector<std::uint32_t>* only = nullptr,
                         bool async_writes = true);

// A __syncwarp() meeting (or a cooperative groups tile.sync()): it orders the accesses of the
// lanes in `mask` of warp `warp` before and after `time`. A multi-warp tile's sync orders those
// of every thread of warps [warp, warp + warps) (mask: all lanes).
struct WarpSync {
  std::uint16_t warp = 0;
  std::uint32_t time = 0;
  std::uint32_t mask = 0;
  std::uint16_t warps = 1;
};

// The multi-warp tile syncs among a block's barrier records (sites whose BarrierSite::tile is
// set): one WarpSync per tile and pass, at its departure, appended to `syncs`.
void AddTileSyncs(std::span<const BarrierRecord> barriers, const std::vector<BarrierSite>& sites,
                  std::vector<WarpSync>* syncs);

// What the checks found so far: groups by (kind, space, sites), with site ids as the scan's
// caller numbers them (the emulator's provisional ones until its launch ends). Of two examples
// the one with the lower rank stays: kept blocks first, then lower blocks, then pairs within a
// block before pairs across blocks; so a run's examples do not depend on how many workers ran it.
class HazardTally {
 public:
  struct Found {
    HazardGroup group;  // lines, example_address filled in by Report
    std::uint64_t rank = ~0ull;
  };
  void Add(HazardKind kind, MemorySpace space, const HazardAccess& first,
           const HazardAccess& second, std::uint64_t offset, std::uint16_t buffer,
           std::uint64_t rank);
  void Merge(const HazardTally& other);
  // The report: site ids mapped through `remap` (empty: as they are) into `sites`, whose lines
  // and buffers fill in the groups; the counts of what was checked are the caller's.
  HazardReport Report(const std::vector<SiteInfo>& sites, const std::vector<BufferInfo>& buffers,
                      const std::vector<std::uint16_t>& remap) const;

  std::uint64_t shared_accesses = 0, global_accesses = 0;
  std::uint64_t pair_checks = 0;
  bool truncated = false;
  std::uint64_t unshadowed_accesses = 0, cut_intervals = 0;
  bool values_known = true;

 private:
  using Key = std::tuple<int, int, std::uint16_t, std::uint16_t>;  // kind, space, sites
  std::map<Key, Found> groups_;
};

// Every pair within one barrier interval of one block (a worker's: not thread-safe). Records
// in execution order; `values` parallel to them, or empty where not recorded; `syncs` the block's
// __syncwarp() meetings; `sites` indexed by the records' site ids.
// The words an interval wrote (shared memory per block, global per buffer): a read of any other
// word cannot be half of a pair within the interval, so it need not be looked at. An
// open-addressing set, emptied at once.
class WrittenWords {
 public:
  void Clear();
  // A write by `thread`; a read by it that touches a written word. Either, on a word another
  // thread wrote, makes the interval shared: without that, no pair within the interval can race
  // (IntervalPairs would find none).
  void Add(MemorySpace space, std::uint16_t buffer, std::uint32_t offset, std::uint32_t size,
           std::uint16_t thread);
  bool Touches(MemorySpace space, std::uint16_t buffer, std::uint32_t offset, std::uint32_t size,
               std::uint16_t thread) {
    return (owners_ & OwnerBit(space, buffer)) != 0 &&
           TouchesWords(space, buffer, offset, size, thread);
  }
  bool empty() const { return count_ == 0; }
  bool shared() const { return shared_; }  // a written word touched by two threads
  // Whether an access of the space (and buffer) may touch a written word at all.
  bool MayTouch(MemorySpace space, std::uint16_t buffer) const {
    return (owners_ & OwnerBit(space, buffer)) != 0;
  }

 private:
  struct Entry {
    std::uint64_t key = 0;
    std::uint32_t generation = 0;
    std::uint16_t thread = 0;  // its first writer
  };
  bool TouchesWords(MemorySpace space, std::uint16_t buffer, std::uint32_t offset,
                    std::uint32_t size, std::uint16_t thread);
  const Entry* Find(std::uint64_t key) const;
  void Grow();
  // A bit per owner that has a written word (shared memory: bit 63; a global buffer: its
  // number modulo 63), so that reads of a buffer nobody wrote skip the table.
  static std::uint64_t OwnerBit(MemorySpace space, std::uint16_t buffer) {
    return std::uint64_t{1} << (space == MemorySpace::kShared ? 63 : buffer % 63);
  }
  // A shared word's first writer where its word is below kFlatWords (a block's window is at
  // most 228 KB, 58,368 words): kept by word, not hashed (`flat_generation_`: the interval's).
  static constexpr std::uint32_t kFlatWords = 1u << 16;
  bool FlatAdd(std::uint32_t word, std::uint16_t thread);
  std::vector<std::uint32_t> flat_generation_;
  std::vector<std::uint16_t> flat_thread_;
  std::vector<Entry> entries_;
  std::uint64_t owners_ = 0;
  std::size_t count_ = 0;   // words written
  std::size_t hashed_ = 0;  // of them in entries_
  std::uint32_t generation_ = 1;
  bool shared_ = false;
};

class IntervalPairs {
 public:
  // Only the tally's counts of an interval's checked accesses (and whether they carried values):
  // an interval whose written words each only one thread touched (WrittenWords::shared) has no
  // pair for Add to find.
  static void Count(std::span<const AccessRecord> accesses, bool has_values,
                    const std::vector<SiteInfo>& sites, HazardTally& tally);
  void Add(std::uint32_t block, bool kept, std::span<const AccessRecord> accesses,
           std::span<const std::uint64_t> values, std::span<const WarpSync> syncs,
           const std::vector<SiteInfo>& sites, HazardTally& tally);

 private:
  // A word the interval wrote, byte by byte: only a byte written by one thread and touched by
  // another, not both atomically, can race. A word's bytes apart are not a pair (a histogram of a
  // byte a thread, four threads to a word, touches each word a few hundred times a block and
  // races nowhere), nor two atomics (a histogram's bins).
  struct Writers {  // of one byte, by kind of write
    // 0: none; else the first thread + 1, with kSeveral once a second thread wrote too (a block's
    // threads number at most 1,024, so a thread + 1 fits below the flag).
    std::uint16_t bits = 0;
    static constexpr std::uint16_t kSeveral = 0x8000;
    bool ByOtherThan(std::uint16_t thread) const {
      return (bits & kSeveral) != 0 || (bits != 0 && bits != thread + 1u);
    }
    bool BySeveral() const { return (bits & kSeveral) != 0; }
    std::uint16_t First() const { return static_cast<std::uint16_t>((bits & ~kSeveral) - 1u); }
    void Add(std::uint16_t thread) {
      if (bits == 0)
        bits = static_cast<std::uint16_t>(thread + 1u);
      else if ((bits & ~kSeveral) != thread + 1u)
        bits |= kSeveral;
    }
  };
  struct Word {
    std::uint64_t key = 0;
    std::uint32_t generation = 0;
    std::uint8_t racy = 0;  // bytes with a pair that can race
    // Every access so far covered the whole word: byte 0's writers stand for all four (a word
    // of floats is looked at once, not four times).
    bool whole = true;
    Writers stores[4], atomics[4];  // of each byte
  };
  Word& Find(std::uint64_t key);         // the word's entry, made if new
  Word* FindWritten(std::uint64_t key);  // its entry if the interval wrote it, else null
  std::vector<Word> words_;              // open addressing; an entry of another generation is empty
  std::uint32_t generation_ = 0;
};

// The shadow of global memory across blocks (see the top of this file): blocks are given in
// index order, each block's accesses in its execution order (one thread at a time: not
// thread-safe). `kept(block)` tells the examples' rank.
class GlobalShadow {
 public:
  struct Access {
    std::uint64_t value = 0;
    std::uint32_t block = 0, offset = 0, time = 0, epoch = 0;
    std::uint16_t thread = 0, site = 0, buffer = 0;
    std::uint8_t size = 4;
    AccessOp op = AccessOp::kLoad;
    bool has_value = false, kept = false;
    // Record `r` of block `block`, at `site` (the record's own), written into `a` in place: a
    // struct made elsewhere and copied came through the stack in narrow stores read back as
    // 16-byte loads, which the processor cannot forward (a stall that was a quarter of the
    // emulator's time on a matmul).
    static void Fill(Access& a, std::uint32_t block, const AccessRecord& r, const SiteInfo& site,
                     std::uint64_t value, bool has_value, bool kept) {
      a.value = value;
      a.block = block;
      a.offset = r.offset;
      a.time = r.time;
      a.epoch = r.epoch;
      a.thread = r.thread;
      a.site = r.site;
      a.buffer = site.buffer;
      a.size = site.size;
      a.op = site.op;
      a.has_value = has_value;
      a.kept = kept;
    }
    static Access Of(std::uint32_t block, const AccessRecord& r, const SiteInfo& site,
                     std::uint64_t value, bool has_value, bool kept) {
      Access a;
      Fill(a, block, r, site, value, has_value, kept);
      return a;
    }
  };
  GlobalShadow();
  ~GlobalShadow();
  GlobalShadow(const GlobalShadow&) = delete;
  GlobalShadow& operator=(const GlobalShadow&) = delete;
  void Apply(const Access& a, HazardTally& tally);
  // A batch of accesses in order. An entry of size 0 heads an interval: its `offset` accesses
  // that follow, in each thread's order, then `time` runs: whole warps' loads made at one time,
  // of arrays the block did not write in the interval, in the order they were made (the SIMT
  // path's, kept as they came: SimtGather). A run is an Access for its lane 0 (lane l: thread +
  // l) whose `offset` is where AddRun put its lanes and whose `value` is Span of its offsets.
  // A run's read of a word already read, with no write since from another block, pairs with
  // nothing and changes nothing, in any order: it is passed over; the others go into each
  // thread's order with the rest, as Apply would have been given them.
  struct Batch {
    std::vector<Access> accesses;
    // Runs' lanes (AddRun): at `at`, the form, then where their values start, then the 32
    // offsets or the rows' four numbers; their values 32 to a run, or 16 where each is of 4
    // bytes or fewer (two lanes to a number, lane l in bits 32 (l % 2) on).
    std::vector<std::uint32_t> offsets;
    std::vector<std::uint64_t> values;
    static constexpr std::uint32_t kLaneOffsets = 0, kRows = 1;
    std::size_t size() const { return accesses.size() + offsets.size(); }
    // A run's lanes kept: in rows (lane l at first + (l / group) * delta + (l % group) * step,
    // RowOffsets) where `rows` holds {first, step, delta, group}, else the 32 `offsets`; room
    // for its values (`packed`: 4 bytes or fewer each), filled by the caller from RunValues.
    // Returns the run's `offset`.
    std::uint32_t AddRun(const std::uint32_t* lane_offsets, const std::uint32_t* rows,
                         bool packed) {
      const auto at = static_cast<std::uint32_t>(offsets.size());
      const auto value_at = static_cast<std::uint32_t>(values.size());
      const std::uint32_t n = rows != nullptr ? 4 : 32;
      offsets.resize(at + 2 + n);
      offsets[at] = rows != nullptr ? kRows : kLaneOffsets;
      offsets[at + 1] = value_at;
      std::copy(rows != nullptr ? rows : lane_offsets, (rows != nullptr ? rows : lane_offsets) + n,
                offsets.begin() + at + 2);
      values.resize(value_at + (packed ? 16 : 32));
      return at;
    }
    std::uint64_t* RunValues(std::uint32_t at) { return values.data() + offsets[at + 1]; }
    // The lanes of the run at `at` (a load of `size` bytes): their offsets and values.
    void Lanes(std::uint32_t at, std::uint8_t size, std::uint32_t (&lane_offsets)[32],
               std::uint64_t (&lane_values)[32]) const {
      const std::uint32_t* o = offsets.data() + at;
      if (o[0] == kRows)
        RowOffsets(o[2], o[3], o[4], o[5], lane_offsets);
      else
        std::copy(o + 2, o + 34, lane_offsets);
      const std::uint64_t* v = values.data() + o[1];
      if (size <= 4) {
        for (std::uint32_t l = 0; l < 32; ++l) lane_values[l] = (v[l / 2] >> (32 * (l % 2))) & ~0u;
      } else {
        std::copy(v, v + 32, lane_values);
      }
    }
    // A run's lowest offset (bits 0-31) and highest (32-63), taken while its lanes are at hand;
    // where a lane's is not a multiple of 4, ~0 and 0 (its lanes are looked at one by one).
    static std::uint64_t Span(const std::uint32_t* offsets) {
      std::uint32_t lo = ~0u, hi = 0, odd = 0;
      for (std::uint32_t l = 0; l < 32; ++l) {  // a loop the compiler vectorizes
        lo = offsets[l] < lo ? offsets[l] : lo;
        hi = offsets[l] > hi ? offsets[l] : hi;
        odd |= offsets[l];
      }
      return (odd & 3u) != 0 ? std::uint64_t{~0u} : (std::uint64_t{hi} << 32) | lo;
    }
    // The same for lanes in rows ({first, step, delta, group}: RowOffsets) without making
    // them: ~0 where a lane's offset would pass 2^32 or below 0 (Span over the lanes).
    static std::uint64_t RowSpan(const std::uint32_t* rows) {
      const std::int64_t first = rows[0], step = static_cast<std::int32_t>(rows[1]);
      const std::int64_t delta = static_cast<std::int32_t>(rows[2]);
      const std::int64_t across = (rows[3] - 1) * step, down = (32 / rows[3] - 1) * delta;
      const std::int64_t lo =
          first + std::min<std::int64_t>(across, 0) + std::min<std::int64_t>(down, 0);
      const std::int64_t hi =
          first + std::max<std::int64_t>(across, 0) + std::max<std::int64_t>(down, 0);
      if (lo < 0 || hi > std::int64_t{0xffffffff}) return ~0ull;
      const std::uint32_t odd = rows[0] | rows[1] | (rows[3] < 32 ? rows[2] : 0u);
      return (odd & 3u) != 0
                 ? std::uint64_t{~0u}
                 : (static_cast<std::uint64_t>(hi) << 32) | static_cast<std::uint64_t>(lo);
    }
    void clear() {
      accesses.clear();
      offsets.clear();
      values.clear();
    }
  };
  void ApplyBatch(const Batch& batch, HazardTally& tally);
  // After a block's last access: its pairs that waited for the block's later atomics (an access
  // before the block's ticket, against a lower block's after its own) are decided.
  void FinishBlock(std::uint32_t block, HazardTally& tally);

 private:
  // One side of a pair as the shadow keeps it: 16 bytes a word for its first read since the
  // last write, 24 for that write (with its value).
  struct Side {
    std::uint32_t block = ~0u;  // ~0u: none
    std::uint32_t time = 0;
    std::uint32_t epoch = 0;   // bits 0-28; 29: the value is known, 30: a kept block's, 31: atomic
    std::uint16_t thread = 0;  // bits 0-10; 11-14 its bytes of the word; 15 it starts here
    std::uint16_t site = 0;
  };
  static constexpr std::uint32_t kPageWords = 4096;
  // Whether `y`, a load of one word, pairs with nothing and changes nothing (its word was read
  // before, its bytes too, and no other block wrote it since).
  bool Quiet(const Access& y);
  struct Page;
  bool Quiet(const Access& y, std::uint64_t key, const Page* page) const;  // `key`'s page
  // The same for a read of `size` bytes at `offset` by block `block`.
  bool Quiet(std::uint32_t offset, std::uint8_t size, std::uint32_t block, std::uint64_t key,
             const Page* page) const;
  std::vector<Access> merged_;  // ApplyBatch's interval in each thread's order
  std::vector<Access> loud_;    // its runs' reads that are not quiet, by thread
  std::vector<std::uint32_t> bucket_;
  struct Writes {
    Side side[kPageWords];
    std::uint64_t value[kPageWords];
  };
  struct Reads {
    Side side[kPageWords];
    // A bit a word: its first read since the last write covers all four bytes (Quiet looks here
    // first: 512 bytes a page, where the sides are 64 KB).
    std::uint64_t whole[kPageWords / 64] = {};
  };
  // A bit a word of a buffer whose reads wait (Defer): read, every byte of it.
  struct Seen {
    std::uint64_t bits[kPageWords / 64] = {};
  };
  struct Page {
    std::unique_ptr<Writes> writes;
    std::unique_ptr<Reads> reads;
    std::unique_ptr<Seen> seen;
  };
  // Reads wait (the launch's pairs are the same either way): a read of a buffer that nothing has
  // written yet in the launch, in block order, pairs with nothing and leaves only its word's
  // first reader, which only a later write from another block asks for. So a whole-word read of
  // such a buffer is kept aside, in its order (pending_, 24 bytes, and a bit a word: Seen), not
  // put in the shadow's sides (16 bytes a word, in pages of 64 KB); a buffer's first write, or
  // any other access of it (a partial word, an atomic), first puts its waiting reads in, in the
  // order they came, as they would have gone in (Undefer). A buffer that is only read (a
  // matrix, an image) never has sides at all.
  struct Pending {
    std::uint32_t block = 0, offset = 0, time = 0, epoch = 0;
    std::uint16_t thread = 0, site = 0, buffer = 0;
    std::uint8_t size = 0;
    bool has_value = false, kept = false;
    std::uint32_t seq = 0;  // its place in the order (seq_)
  };
  // A whole warp's read (ApplyBatch's run) kept aside: the lanes in `first`, each the first of
  // its neighbours at its address (the others are quiet after it or read words read before),
  // their offsets from `at` in pending_offsets_, in lane order; `reads`: its lanes whose words
  // were not read before (Forget's count); `marked`: its words' bits are set.
  struct PendingRun {
    Access t;
    std::uint32_t first = 0, at = 0, seq = 0;
    std::uint8_t reads = 0;
    bool marked = false;
  };
  // Sets the bits of the words a run kept aside reads (and `marked`); false where they would
  // pass kMaxShadowBytes.
  bool MarkRun(PendingRun& r);
  // Whether `y`, a read, was kept aside (or needed nothing: its words were read before).
  bool Defer(const Access& y, HazardTally& tally);
  // Whether a read of `size` bytes at `offset` of a buffer whose reads wait changes nothing (every
  // word it covers read before); `page`: the page of its first word.
  static bool SeenBefore(const Page* page, std::uint32_t offset, std::uint8_t size);
  bool Waiting(std::uint16_t buffer) const {
    return buffer >= eager_.size() || eager_[buffer] == 0;
  }
  // The word bits of a read kept aside, its pages' bits made where none are; false where one more
  // page of them would pass kMaxShadowBytes.
  bool MarkSeen(std::uint16_t buffer, std::uint32_t offset, std::uint8_t size);
  // Puts the buffer's waiting reads in, in their order: an interval's (one seq) in each thread's.
  void Undefer(std::uint16_t buffer, HazardTally& tally);
  void FinishInterval(HazardTally& tally);
  std::size_t PendingBytes() const {
    return pending_.size() * sizeof(Pending) + pending_runs_.size() * sizeof(PendingRun) +
           pending_offsets_.size() * sizeof(std::uint32_t);
  }
  std::vector<Pending> pending_;
  std::vector<PendingRun> pending_runs_;
  std::vector<std::uint32_t> pending_offsets_;
  // The order of what waits: one number for an interval's accesses (in each thread's order when
  // they go in), a new one for each access given alone.
  std::uint32_t seq_ = 0;
  bool in_interval_ = false;
  std::vector<std::uint8_t>
      eager_;  // by buffer: 1 once its accesses go into the sides as they come
  // Past this many bytes waiting (64 MiB), the waiting reads are forgotten (Forget): their words'
  // bits stay (a later read of them is quiet), and where their buffer is written after all, they
  // are counted as accesses not checked across blocks (unshadowed_accesses): a buffer that is
  // only read loses nothing. (Put in, they would take 16 bytes a word of the shadow's 1 GiB.)
  static constexpr std::size_t kMaxPendingBytes = std::size_t{64} << 20;
  void Forget();
  std::vector<std::uint64_t> forgotten_;  // by buffer: its reads forgotten
  // Whether every lane of a whole warp's read (ApplyBatch's run) changes nothing, tested on its
  // words' bits at once where they lie within one page.
  bool RunQuiet(const Access& t);
  struct AtomicAt {
    std::uint64_t word = 0;
    std::uint32_t time = 0, epoch = 0;
    std::uint16_t thread = 0;
  };
  Page* FindPage(std::uint64_t page_key, bool create);
  bool Ordered(const Side& x, const Access& y) const;
  // Whether x's block passed an atomic before x: y's block may still take one on the same word
  // after y, which would order them.
  bool MayBeOrderedLater(const Side& x) const;
  void Add(HazardKind kind, const Side& x, std::uint64_t x_value, const Access& y,
           std::uint64_t offset, HazardTally& tally);
  struct Deferred {
    HazardKind kind;
    Side x;
    std::uint64_t x_value;
    Access y;
    std::uint64_t offset;
  };
  std::vector<Deferred> deferred_;  // the current block's
  // Past this many (a block that takes a ticket and races all the same), a pair is counted
  // without waiting.
  static constexpr std::size_t kMaxDeferred = std::size_t{1} << 20;
  std::unordered_map<std::uint64_t, Page> pages_;
  // The pages looked up last, by page key (a kernel reads a few buffers in turn).
  static constexpr std::size_t kPageCache = 16;
  std::uint64_t cached_key_[kPageCache];
  Page* cached_page_[kPageCache] = {};
  std::uint64_t bytes_ = 0;
  // Each block's global atomics (a block with more than kMaxAtomics orders nothing): blocks that
  // meet at one word through atomics (a ticket, a lock) are ordered through it.
  static constexpr std::size_t kMaxAtomics = 64;
  std::unordered_map<std::uint32_t, std::vector<AtomicAt>> atomics_;
};

// A linear thread index as threadIdx: "(3,1,0)".
std::string ThreadName(std::uint32_t linear, const Dim3& block);

// "RAW 1024" for a group; "RAW 1024, same warp" when every pair is inside one warp; "WAW= 3"
// for writes of one value.
std::string HazardBadge(const HazardGroup& g);

// One group in words, with its example: "RAW in shared memory, line 11 -> line 13: 64 pairs
// (all within one warp). E.g. block 0: thread (0,0,0) writes 0 at byte 0 (step 1) and thread
// (63,0,0) reads 0 there (step 2), with no __syncthreads() between them."
std::string DescribeHazard(const HazardGroup& g, const LaunchTrace& launch);
// Every group, one per line, or "no hazards found" with what was checked.
std::string HazardsText(const HazardReport& r, const LaunchTrace& launch);

// As the CLI's --json and the trace file write it:
//   {"checked": "...", "whole_grid": false, "unshadowed_accesses": 0, "unlogged_reads": 0,
//    "cut_intervals": 0,
//    "blocks": [0,1], "blocks_in_grid": 64, "values_known": true,
//    "truncated": false, "total": 64, "groups": [{"kind": "RAW", "space": "shared",
//    "lines": [11, 13], "sites": [1, 2], "count": 64, "same_warp": 0,
//    "example": {"block": 0, "first": {"thread": 0, "time": 1, "epoch": 0, "value": 0},
//                "second": {...}, "offset": 0, "address": 0, "buffer": 0}}]}
// ("value" only where known). HazardsFromJson refuses what HazardsJson would not write.
nlohmann::json HazardsJson(const HazardReport& r);
Result<HazardReport> HazardsFromJson(const nlohmann::json& j);

}  // namespace ws
