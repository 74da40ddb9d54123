// Races from the records: two accesses to the same bytes by different threads, at least one a
// write, not both atomics, with no barrier both threads passed between them.
//
//   shared memory: within one block, in the same barrier interval (the same epoch);
//   global memory: between any two threads of the launch: threads of one block in the same
//                  epoch, threads of different blocks always (blocks have no barrier between
//                  them).
//
// Which access came first is read from the records' times (the emulator's logical clock counts
// a thread's steps and is levelled at each barrier; a GPU capture's are nanoseconds); a tie goes
// to the access on the earlier line. A write then a read is RAW (the read may see the old value),
// a read then a write WAR (it may see the new one), two writes WAW; two writes of the same value
// are reported apart as benign (compute-sanitizer's racecheck calls these warnings). An atomic
// counts as a write against a plain access. Pairs inside one warp are hazards too under
// independent thread scheduling (compute 7.0 and later): they are reported, marked same_warp.
//
// Only the blocks whose full records were kept are checked (the report says which), so global
// hazards between a kept block and one that was not are not seen.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

#include "warpscope/trace/records.h"
#include "warpscope/trace/status.h"

namespace ws {

struct LaunchTrace;

enum class HazardKind : std::uint8_t { kRaw = 0, kWar = 1, kWaw = 2, kWawSameValue = 3 };
const char* ToString(HazardKind k);  // "RAW", "WAR", "WAW", "WAW (same value)"

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
  std::vector<std::uint32_t> blocks;  // the kept blocks
  std::uint64_t blocks_in_grid = 0;
  std::uint64_t shared_accesses = 0, global_accesses = 0;
  bool values_known = false;  // every checked access carried its value
  bool truncated = false;     // stopped after kMaxPairChecks pair checks
  static constexpr std::uint64_t kMaxPairChecks = 200'000'000;

  std::uint64_t Count(HazardKind k) const;
  std::uint64_t Total() const;  // every kind, benign included
  // "shared memory of blocks 0-3 of 256 (4,096 accesses), global memory among them (8,192)"
  std::string Checked() const;
};

// The hazards among the kept blocks of one launch.
HazardReport FindHazards(const LaunchTrace& launch);

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
//   {"checked": "...", "blocks": [0,1], "blocks_in_grid": 64, "values_known": true,
//    "truncated": false, "total": 64, "groups": [{"kind": "RAW", "space": "shared",
//    "lines": [11, 13], "sites": [1, 2], "count": 64, "same_warp": 0,
//    "example": {"block": 0, "first": {"thread": 0, "time": 1, "epoch": 0, "value": 0},
//                "second": {...}, "offset": 0, "address": 0, "buffer": 0}}]}
// ("value" only where known). HazardsFromJson refuses what HazardsJson would not write.
nlohmann::json HazardsJson(const HazardReport& r);
Result<HazardReport> HazardsFromJson(const nlohmann::json& j);

}  // namespace ws
