// Request-level costs, each checked against a hand calculation or the seeds' slides.
#include "warpscope/trace/request.h"

#include <gtest/gtest.h>

#include <numeric>
#include <random>
#include <vector>

namespace ws {
namespace {

// 32 lanes; lane i accesses base + i * stride_bytes, `size` bytes each.
std::vector<LaneAccess> Linear(std::uint64_t base, std::uint64_t stride_bytes,
                               std::uint8_t size = 4, int lanes = 32) {
  std::vector<LaneAccess> v;
  for (int i = 0; i < lanes; ++i)
    v.push_back({static_cast<std::uint8_t>(i), size, base + i * stride_bytes});
  return v;
}

TEST(Sectors, CoalescedFloatCopyIsFourSectors) {
  // 32 lanes x 4 B = 128 contiguous bytes from an aligned base: 128 / 32 = 4 sectors.
  auto v = Linear(1024, 4);
  EXPECT_EQ(Sectors(v), 4u);
  EXPECT_EQ(IdealSectors(v), 4u);
  EXPECT_EQ(Lines128(v), 1u);
}

TEST(Sectors, OffsetByOneFloatTouchesFive) {
  // Offset 1 (the slides' offsetCopy): bytes 4..131 span sectors 0..4 = 5; ideal stays 4.
  auto v = Linear(1024 + 4, 4);
  EXPECT_EQ(Sectors(v), 5u);
  EXPECT_EQ(IdealSectors(v), 4u);
  EXPECT_EQ(Lines128(v), 2u);
}

TEST(Sectors, StrideTwoDoublesTheSectors) {
  // Stride 2 floats = 8 B apart: 256 bytes spanned, 8 sectors; the data asked for is 4 sectors.
  auto v = Linear(0, 8);
  EXPECT_EQ(Sectors(v), 8u);
  EXPECT_EQ(IdealSectors(v), 4u);
  EXPECT_EQ(Lines128(v), 2u);
}

TEST(Sectors, LargeStrideIsOneSectorPerLane) {
  // Stride 32 floats = 128 B: every lane in its own sector and its own line.
  auto v = Linear(0, 128);
  EXPECT_EQ(Sectors(v), 32u);
  EXPECT_EQ(Lines128(v), 32u);
}

TEST(Sectors, NaiveTransposeStoreIsThirtyTwo) {
  // The naive transpose's store: consecutive threadIdx.x write a column, height floats apart
  // (height = 1024 -> 4096 B): 32 sectors per request.
  auto v = Linear(0, 1024 * 4);
  EXPECT_EQ(Sectors(v), 32u);
}

TEST(Sectors, BroadcastIsOne) {
  std::vector<LaneAccess> v = Linear(96, 0);
  EXPECT_EQ(Sectors(v), 1u);
  EXPECT_EQ(IdealSectors(v), 1u);  // 4 unique bytes
  EXPECT_EQ(UniqueBytes(v), 4u);
}

TEST(Sectors, PartialWarpAndDoubleWords) {
  // 8 lanes of 8-byte words, contiguous from 64: bytes 64..127 = sectors 2, 3.
  auto v = Linear(64, 8, 8, 8);
  EXPECT_EQ(Sectors(v), 2u);
  // A misaligned 4-byte access straddling a sector boundary counts both sectors.
  std::vector<LaneAccess> straddle = {{0, 4, 30}};
  EXPECT_EQ(Sectors(straddle), 2u);
}

TEST(Cc10, InOrderAlignedIsOneTransactionPerHalfWarp) {
  // The slides: "Coalesces - 1 transaction" per half-warp; a warp is two half-warps.
  EXPECT_EQ(Cc10Transactions(Linear(0, 4)), 2u);
  // Not all threads need to participate: drop lanes 3 and 20.
  auto v = Linear(0, 4);
  v.erase(v.begin() + 20);
  v.erase(v.begin() + 3);
  EXPECT_EQ(Cc10Transactions(v), 2u);
}

TEST(Cc10, MisalignedIsSixteenTransactionsPerHalfWarp) {
  // "Misaligned - 16 transactions": base 4 B past a 64 B boundary.
  EXPECT_EQ(Cc10Transactions(Linear(4, 4)), 32u);
}

TEST(Cc10, OutOfSequenceIsSixteen) {
  // "Out of sequence - 16 transactions": swap lanes 1 and 2 of the first half-warp.
  auto v = Linear(0, 4);
  std::swap(v[1].address, v[2].address);
  EXPECT_EQ(Cc10Transactions(v), 16u + 1u);  // first half serialized, second half still 1
}

TEST(Cc10, SixteenByteWordsNeedTwoSegments) {
  // 16 threads x 16 B = 256 B: "k-th word in 2 contiguous 128B segments" -> 2 per half-warp.
  EXPECT_EQ(Cc10Transactions(Linear(0, 16, 16)), 4u);
}

TEST(Cc12, AlignedFloatsAreOne64ByteSegmentPerHalfWarp) {
  // The slides' "1 transaction - 64B segment": a half-warp of floats uses 64 of the 128 B
  // segment, which shrinks to its used half.
  Cc12Cost c = Cc12Transactions(Linear(0, 4));
  EXPECT_EQ(c.transactions, 2u);  // lanes 0-15 -> [0, 64), lanes 16-31 -> [64, 128)
  EXPECT_EQ(c.bytes, 128u);
}

TEST(Cc12, MisalignedHalfWarpIsA64AndA32) {
  // The slides' "2 transactions - 64B and 32B segments": a half-warp's floats from byte 96:
  // [96, 160) crosses the 128 B boundary. Segment [0,128) holds [96,128): shrinks to 32 B;
  // segment [128,256) holds [128,160): shrinks to 32 B... so take a start where one part needs
  // 64 B: floats from byte 32 -> [32, 96) lies in [0,128), uses both 64 B halves: 128 B? No:
  // [32, 96) straddles 64 -> stays 128. Hand case from the guide: start at 48 -> [48, 112):
  // one 128 B segment. To get 64 + 32: start at 112 -> [112, 128) in seg 0 (32 B: [96,128)),
  // [128, 176) in seg 1, which shrinks to 64 B ([128,192)).
  std::vector<LaneAccess> v = Linear(112, 4, 4, 16);
  Cc12Cost c = Cc12Transactions(v);
  EXPECT_EQ(c.transactions, 2u);
  EXPECT_EQ(c.bytes, 32u + 64u);
}

TEST(Cc12, SpreadOverA128ByteSegmentStaysWhole) {
  // The slides' "1 transaction - 128B segment": 16 floats spread with stride 2 over [0, 128).
  Cc12Cost c = Cc12Transactions(Linear(0, 8, 4, 16));
  EXPECT_EQ(c.transactions, 1u);
  EXPECT_EQ(c.bytes, 128u);
}

TEST(Cc12, LargeStrideIsOneSmallTransactionPerThread) {
  // Stride 128 B: every thread in its own segment, each shrunk to 32 B.
  Cc12Cost c = Cc12Transactions(Linear(0, 128));
  EXPECT_EQ(c.transactions, 32u);
  EXPECT_EQ(c.bytes, 32u * 32u);
}

TEST(Banks, StrideOneIsConflictFree) {
  EXPECT_EQ(BankConflictDegree(Linear(0, 4)), 1u);
}

TEST(Banks, StrideTwoIsTwoWay) {
  // Words 0, 2, ..., 62: banks 0, 2, ..., 30 each hold two distinct words (w and w + 32).
  EXPECT_EQ(BankConflictDegree(Linear(0, 8)), 2u);
}

TEST(Banks, StrideEightIsEightWay) {
  // The slides' "8-way": words 0, 8, ..., 248 fall in banks 0, 8, 16, 24, 8 words each.
  EXPECT_EQ(BankConflictDegree(Linear(0, 32)), 8u);
}

TEST(Banks, StrideThirtyTwoIsThirtyTwoWay) {
  EXPECT_EQ(BankConflictDegree(Linear(0, 128)), 32u);
}

TEST(Banks, OddStrideIsConflictFree) {
  // Stride 3 words: 3 and 32 are coprime, so the 32 lanes hit 32 different banks.
  EXPECT_EQ(BankConflictDegree(Linear(0, 12)), 1u);
}

TEST(Banks, RandomPermutationIsConflictFree) {
  // The slides' "Random 1:1 Permutation": each lane a different word of one 32-word row.
  std::vector<int> perm(32);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), std::mt19937(7));
  std::vector<LaneAccess> v;
  for (int i = 0; i < 32; ++i) v.push_back({static_cast<std::uint8_t>(i), 4, 256u + perm[i] * 4u});
  EXPECT_EQ(BankConflictDegree(v), 1u);
}

TEST(Banks, BroadcastIsOne) {
  EXPECT_EQ(BankConflictDegree(Linear(40, 0)), 1u);
}

TEST(Banks, SameWordSharedOthersConflict) {
  // Lanes 0-15 read word 0 (one broadcast), lanes 16-31 read words 32, 64, ... in bank 0:
  // bank 0 holds 1 + 16 distinct words -> 17-way.
  std::vector<LaneAccess> v;
  for (int i = 0; i < 16; ++i) v.push_back({static_cast<std::uint8_t>(i), 4, 0});
  for (int i = 16; i < 32; ++i) v.push_back({static_cast<std::uint8_t>(i), 4, (i - 15) * 128u});
  EXPECT_EQ(BankConflictDegree(v), 17u);
}

TEST(Banks, TileColumnReadUnderBothModels) {
  // transposeCoalesced's read tile[threadIdx.x][threadIdx.y] on a 16x16 float tile: lane
  // (tx, ty) reads word tx * 16 + ty. Half-warp model (16 banks): a half-warp has one ty, so
  // all 16 words sit in bank ty -> the slides' "16-way". 32 banks: the warp spans ty and ty+1;
  // words tx*16+ty for even tx share bank ty -> 8 words -> 8-way.
  std::vector<LaneAccess> v;
  for (int lane = 0; lane < 32; ++lane) {
    const int tx = lane % 16, ty = 3 + lane / 16;
    v.push_back(
        {static_cast<std::uint8_t>(lane), 4, static_cast<std::uint64_t>((tx * 16 + ty) * 4)});
  }
  EXPECT_EQ(HalfWarp16Degree(v), 16u);
  EXPECT_EQ(BankConflictDegree(v), 8u);
  // Padded to 17 columns: word tx * 17 + ty. Each half-warp now hits 16 different banks (17 is
  // odd), so the slides' model sees no conflict. With 32 banks the warp's two rows collide once:
  // lane 0 reads word ty, lane 31 (tx 15, row ty + 1) word 15 * 17 + ty + 1 = 256 + ty, the same
  // bank -> 2-way. A 16-wide padded tile is not conflict free on a 32-bank GPU.
  for (auto& a : v) {
    const int tx = a.lane % 16, ty = 3 + a.lane / 16;
    a.address = static_cast<std::uint64_t>((tx * 17 + ty) * 4);
  }
  EXPECT_EQ(HalfWarp16Degree(v), 1u);
  EXPECT_EQ(BankConflictDegree(v), 2u);
}

TEST(Banks, DoubleWordsNeedTwoWavefronts) {
  // 32 lanes x 8 B contiguous = 64 words, two per bank.
  EXPECT_EQ(BankConflictDegree(Linear(0, 8, 8)), 2u);
}

// Vector widths as the hardware serves them. Every expectation below is a measurement: Nsight
// Compute's l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{ld,st} over one instruction per warp
// (scripts/vector_banks.cu, H100 and H200, the table in docs/ncu-agreement.md). `e(lane)` is the
// element the lane reads, W bytes each; lanes where it is negative do not take part.
struct VectorCase {
  const char* pattern;
  int (*e)(int lane, int w);
  std::uint32_t w8_load, w16_load, w8_store, w16_store;
};
const VectorCase kVectorCases[] = {
    {"stride1", [](int l, int) { return l; }, 2, 4, 2, 4},
    {"broadcast", [](int, int) { return 0; }, 1, 2, 2, 4},
    {"half_bcast", [](int l, int) { return l / 16; }, 1, 2, 2, 4},
    {"quarter_bcast", [](int l, int) { return l / 8; }, 1, 2, 2, 4},
    {"mod16", [](int l, int) { return l % 16; }, 2, 4, 2, 4},
    {"mod8", [](int l, int) { return l % 8; }, 2, 4, 2, 4},
    {"stride2", [](int l, int) { return 2 * l; }, 4, 8, 4, 8},
    {"column", [](int l, int w) { return l * 128 / w; }, 32, 32, 32, 32},
    {"padded", [](int l, int w) { return l * (128 + w) / w; }, 2, 4, 2, 4},
    {"swizzled", [](int l, int w) { return l * 128 / w + l % (128 / w); }, 2, 4, 2, 4},
    {"perm", [](int l, int) { return (l * 7) % 32; }, 2, 4, 2, 4},
    {"half_active", [](int l, int) { return l < 16 ? l : -1; }, 1, 2, 1, 2},
    {"stride2_64B", [](int l, int w) { return l * 64 / w; }, 16, 16, 16, 16},
    // Loads only: the patterns that found the merge rule.
    {"mod4", [](int l, int) { return l % 4; }, 2, 4, 0, 0},
    {"eighths", [](int l, int) { return l / 4; }, 1, 2, 0, 0},
    {"two_conflict", [](int l, int w) { return l < 16 ? 0 : 128 / w; }, 2, 2, 0, 0},
    {"alt_conflict", [](int l, int w) { return l % 2 ? 128 / w : 0; }, 2, 4, 0, 0},
    {"mod4_far", [](int l, int) { return (l % 4) * 4; }, 2, 8, 0, 0},
    {"mod16_far", [](int l, int) { return (l % 16) * 2; }, 4, 8, 0, 0},
    {"half_mixed", [](int l, int) { return l < 16 ? 0 : l - 16; }, 2, 4, 0, 0},
    {"one_lane", [](int l, int) { return l == 0 ? 0 : -1; }, 1, 1, 0, 0},
};

std::vector<LaneAccess> Pattern(const VectorCase& c, int w) {
  std::vector<LaneAccess> v;
  for (int l = 0; l < 32; ++l) {
    const int e = c.e(l, w);
    if (e >= 0)
      v.push_back({static_cast<std::uint8_t>(l), static_cast<std::uint8_t>(w),
                   static_cast<std::uint64_t>(e) * static_cast<std::uint64_t>(w)});
  }
  return v;
}

TEST(Banks, VectorWidthsCostWhatTheHardwareMeasured) {
  for (const VectorCase& c : kVectorCases) {
    SCOPED_TRACE(c.pattern);
    EXPECT_EQ(SharedRequestCost(Pattern(c, 8), true).wavefronts, c.w8_load);
    EXPECT_EQ(SharedRequestCost(Pattern(c, 16), true).wavefronts, c.w16_load);
    if (c.w8_store == 0) continue;
    EXPECT_EQ(SharedRequestCost(Pattern(c, 8), false).wavefronts, c.w8_store);
    EXPECT_EQ(SharedRequestCost(Pattern(c, 16), false).wavefronts, c.w16_store);
  }
}

// Global vector accesses: one request, its distinct 32-byte sectors (LDG.E.64 / LDG.E.128 and the
// stores, measured: stride 1 8 and 16 sectors, stride 2 16 and 32).
TEST(Sectors, VectorWidthsCountTheirSectors) {
  EXPECT_EQ(Sectors(Linear(0, 8, 8)), 8u);     // 256 contiguous bytes
  EXPECT_EQ(Sectors(Linear(0, 16, 8)), 16u);   // every other 8 bytes of 512
  EXPECT_EQ(Sectors(Linear(0, 16, 16)), 16u);  // 512 contiguous bytes
  EXPECT_EQ(Sectors(Linear(0, 32, 16)), 32u);  // every other 16 bytes of 1,024
}

// The example: a 16-byte store of 32 distinct, consecutive float4s is 4 wavefronts
// (512 bytes, 128 a wavefront) and no conflict: 4 quarter-warps, each 1-way.
TEST(Banks, SixteenByteAccessesCountConflictsBeyondTheirFourWavefronts) {
  const SharedCost s = SharedRequestCost(Linear(0, 16, 16), false);
  EXPECT_EQ(s.wavefronts, 4u);
  EXPECT_EQ(s.ideal, 4u);
  EXPECT_EQ(s.degree, 1u);
  // A float4 column of a 128-byte-row tile: 8 lanes of a quarter on one bank group, 8-way in
  // each of 4 quarters: 32 wavefronts, 28 of them conflicts.
  const SharedCost c = SharedRequestCost(Linear(0, 128, 16), true);
  EXPECT_EQ(c.wavefronts, 32u);
  EXPECT_EQ(c.wavefronts - c.ideal, 28u);
  EXPECT_EQ(c.degree, 8u);
  // 4-byte accesses are one phase: wavefronts = the degree, ideal 1.
  const SharedCost f = SharedRequestCost(Linear(0, 128, 4), true);
  EXPECT_EQ(f.wavefronts, 32u);
  EXPECT_EQ(f.ideal, 1u);
}

TEST(Atomics, ConflictIsLanesPerAddress) {
  EXPECT_EQ(AtomicConflictDegree(Linear(0, 4)), 1u);
  EXPECT_EQ(AtomicConflictDegree(Linear(0, 0)), 32u);  // all lanes on one counter
  std::vector<LaneAccess> v = Linear(0, 4);
  for (int i = 0; i < 32; ++i) v[i].address = (i % 4) * 4;  // 4 counters, 8 lanes each
  EXPECT_EQ(AtomicConflictDegree(v), 8u);
}

// The lanes a phase serves, which the banks view names: 32 consecutive float4s are 8 lanes a
// phase (4 wavefronts); an LDS.128 whose quads each read one address (a warp's two tile rows,
// broadcast) 16 lanes (2 wavefronts); 4-byte accesses the whole warp.
TEST(SharedRequestCost, SaysHowManyLanesAPhaseServes) {
  std::vector<LaneAccess> rows, contiguous, words;
  for (std::uint8_t l = 0; l < 32; ++l) {
    contiguous.push_back({l, 16, std::uint64_t{l} * 16});
    rows.push_back({l, 16, std::uint64_t{l / 16u} * 64});
    words.push_back({l, 4, std::uint64_t{l} * 4});
  }
  EXPECT_EQ(SharedRequestCost(contiguous, true).lanes_per_phase, 8u);
  EXPECT_EQ(SharedRequestCost(contiguous, true).wavefronts, 4u);
  EXPECT_EQ(SharedRequestCost(rows, true).lanes_per_phase, 16u);
  EXPECT_EQ(SharedRequestCost(rows, true).wavefronts, 2u);
  EXPECT_EQ(SharedRequestCost(rows, false).lanes_per_phase, 8u);  // stores never merge
  EXPECT_EQ(SharedRequestCost(words, true).lanes_per_phase, 32u);
}

}  // namespace
}  // namespace ws
