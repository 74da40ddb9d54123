// What one warp-level request costs under each memory model. A request is the accesses of one
// warp's lanes at one site and iteration; each function takes those lanes (at most one access
// per lane, lanes 0..31) and returns a count a reader can check by hand.
//
// Global memory (see the seeds' "Optimizing CUDA" slides and the CUDA C Programming Guide):
//   Sectors        distinct 32-byte aligned segments touched (what Nsight Compute counts today)
//   IdealSectors   the fewest sectors that could hold the bytes asked for: ceil(bytes / 32)
//   Lines128       distinct 128-byte lines touched (Fermi-style L1 caching loads)
//   Cc10Transactions  compute 1.0/1.1, per half-warp: 1 transaction if the k-th thread accesses
//                  the k-th word of an aligned segment (16 words), else 1 per active thread
//   Cc12Transactions  compute 1.2/1.3, per half-warp: a 32/64/128-byte segment per group of
//                  threads, shrunk to the used half while only one half is used
// Shared memory:
//   BankConflictDegree   32 banks of 4 bytes per warp: the most *distinct* 4-byte words that
//                  fall in one bank (threads reading one word share it: broadcast). This is
//                  also the number of wavefronts the request needs.
//   HalfWarp16Degree     the old model: 16 banks, each half-warp on its own; the larger half
// Atomics:
//   AtomicConflictDegree the most lanes that hit one address (they serialize)
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace ws {

struct LaneAccess {
  std::uint8_t lane = 0;      // 0..31
  std::uint8_t size = 4;      // bytes
  std::uint64_t address = 0;  // byte address (global: virtual; shared: offset in the window)
};

std::uint32_t Sectors(std::span<const LaneAccess> lanes);
std::uint32_t IdealSectors(std::span<const LaneAccess> lanes);
std::uint32_t Lines128(std::span<const LaneAccess> lanes);
std::uint32_t UniqueBytes(std::span<const LaneAccess> lanes);

// Compute 1.x models, summed over the two half-warps (lanes 0-15, 16-31).
std::uint32_t Cc10Transactions(std::span<const LaneAccess> lanes);
struct Cc12Cost {
  std::uint32_t transactions = 0;
  std::uint32_t bytes = 0;  // bytes moved by those transactions
};
Cc12Cost Cc12Transactions(std::span<const LaneAccess> lanes);

// The transactions themselves, for drawing: each segment's first byte, size and half-warp
// (-1 for the whole-warp models). GranuleSegments(lanes, 32) are the sectors, 128 the lines.
struct Segment {
  std::uint64_t address = 0;
  std::uint32_t bytes = 0;
  int half = -1;
};
std::vector<Segment> GranuleSegments(std::span<const LaneAccess> lanes, std::uint32_t granule);
std::vector<Segment> Cc10Segments(std::span<const LaneAccess> lanes);
std::vector<Segment> Cc12Segments(std::span<const LaneAccess> lanes);

std::uint32_t BankConflictDegree(std::span<const LaneAccess> lanes);

// A shared request as the hardware serves it, by access width (measured with Nsight Compute on
// an H100 and an H200, LDS/LDS.64/LDS.128 and STS/STS.64/STS.128; docs/ncu-agreement.md):
// - a wavefront moves at most 128 bytes, so 8-byte accesses are served a half-warp at a time
//   and 16-byte accesses a quarter-warp at a time (the phases; 4-byte and narrower: one phase);
// - each phase costs its most distinct 4-byte words in one bank (one word is broadcast);
// - loads only: when every quad of lanes (4k .. 4k+3) reads at most 2 distinct addresses, two
//   neighbouring phases are served together (8-byte: one phase; 16-byte: the two half-warps).
//   Stores never merge: a 16-byte broadcast store still takes 4 wavefronts.
// `ideal` is the phases with a lane in them: the least the width allows; conflicts, as Nsight
// Compute counts them, are wavefronts - ideal. `degree` is the worst phase's (the "n-way").
struct SharedCost {
  std::uint32_t wavefronts = 0, ideal = 0, degree = 0;
  std::uint32_t lanes_per_phase = 32;  // the lanes one phase serves (after the merge above)
};
SharedCost SharedRequestCost(std::span<const LaneAccess> lanes, bool load);
std::uint32_t HalfWarp16Degree(std::span<const LaneAccess> lanes);

// Where a request lies in the runs of a site the compiled code serves `width` bytes a lane at a
// time (SiteInfo::compiled_width: an LDS.128 for four floats in a row): its lanes all at a run's
// first place (their addresses multiples of the width): the compiled instruction, each lane
// reading its run; all at one later place: a part of that instruction; at different places: not
// merged by the compiler (the source's request). kSource where `width` is not wider than the
// lanes' accesses.
enum class CompiledPlace { kSource, kRun, kPart, kMixed };
CompiledPlace CompiledPlaceOf(std::uint32_t width, std::span<const LaneAccess> lanes);
// The lanes of a kRun request as the compiled instruction reads them: `width` bytes each.
std::span<const LaneAccess> WidenedLanes(std::uint32_t width, std::span<const LaneAccess> lanes,
                                         std::array<LaneAccess, 32>* out);
std::uint32_t AtomicConflictDegree(std::span<const LaneAccess> lanes);

}  // namespace ws
