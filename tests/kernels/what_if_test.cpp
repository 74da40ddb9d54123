// What-if layouts (trace/what_if.h): the layouts worked by hand, and a what-if on a recorded run
// against a real run of the code it proposes.
#include <gtest/gtest.h>

#include "warpscope/kernels/catalog.h"
#include "warpscope/trace/what_if.h"

namespace ws {
namespace {

WhatIf Tile32(WhatIfKind kind) {
  WhatIf w;
  w.kind = kind;
  w.array.name = "tile";
  w.array.rows = w.array.cols = 32;
  return w;
}

TEST(WhatIfLayouts, PlaceElementsWhereEachLayoutPutsThem) {
  WhatIf pad = Tile32(WhatIfKind::kPad);
  pad.pad = 1;
  EXPECT_EQ(PlaceOf(pad, 1, 0), 33u);     // row 1 starts one element later: 1 * 33
  EXPECT_EQ(PlaceOf(pad, 31, 5), 1028u);  // 31 * 33 + 5
  // Swizzle<5,0,5> on a 32-wide tile: column j ^ (i & 31). (3, 5): 3*32 + (5 ^ 3) = 96 + 6.
  WhatIf sw = Tile32(WhatIfKind::kSwizzle);
  sw.bits = 5, sw.base_bits = 0, sw.shift = 5;
  EXPECT_EQ(PlaceOf(sw, 3, 5), 102u);
  EXPECT_EQ(PlaceOf(sw, 31, 31), 31u * 32u + 0u);  // 31 ^ 31 = 0
  // Swizzle<3,2,3>: bits 5-7 of e XORed into bits 2-4, i.e. 4-element chunks by (i & 7).
  // e = (9, 1) = 289 = 0b1_0010_0001: bits 5-7 = 001 -> XOR 0b00100 -> 293.
  WhatIf sw3 = Tile32(WhatIfKind::kSwizzle);
  sw3.bits = 3, sw3.base_bits = 2, sw3.shift = 3;
  EXPECT_EQ(PlaceOf(sw3, 9, 1), 293u);
  // Morton: (i, j) = (y, x) = (1, 2): x = 10b in the even bits (100b), y = 1 in bit 1 -> 6.
  EXPECT_EQ(PlaceOf(Tile32(WhatIfKind::kMorton), 1, 2), 6u);
  // 8x8 tiles of a 32x32 tile: (9, 10) is in tile (1, 1) = 4 + 1 = 5, at (1, 2) inside:
  // 5 * 64 + 1 * 8 + 2 = 330.
  WhatIf tiled = Tile32(WhatIfKind::kTiled);
  EXPECT_EQ(PlaceOf(tiled, 9, 10), 330u);
  EXPECT_EQ(PlaceOf(Tile32(WhatIfKind::kTranspose), 2, 7), 7u * 32u + 2u);
}

TEST(WhatIfLayouts, FormulaAndCodeOfTheSwizzleSayTheSameMap) {
  WhatIf sw = Tile32(WhatIfKind::kSwizzle);
  sw.bits = 5, sw.base_bits = 0, sw.shift = 5;
  EXPECT_EQ(Describe(sw), "Swizzle<5,0,5> on tile");
  EXPECT_EQ(FormulaOf(sw), "(i, j) -> i*32 + (j ^ (i & 31))");
  SiteInfo site;
  site.code = "odata[index_out] = tile[threadIdx.x][threadIdx.y];";
  EXPECT_EQ(ProposedCode(sw, site), "tile[threadIdx.x][threadIdx.y ^ (threadIdx.x & 31)]");
  // Not a permutation inside a row: the general form, on the flat index.
  sw.bits = 3, sw.base_bits = 2, sw.shift = 3;
  EXPECT_EQ(FormulaOf(sw), "e = i*32 + j -> e ^ ((e & 0xe0) >> 3)");
}

class WhatIfOnTranspose : public ::testing::Test {
 protected:
  static LessonRun Run(const std::string& variant, bool whole = true) {
    RunOptions o;
    if (whole) o.keep_all_threads_up_to = 1u << 18;
    auto r = RunLesson("transpose", variant, {}, "emu", o);
    EXPECT_TRUE(r.ok()) << r.status().message();
    return std::move(*r);
  }
  static int Site(const LaunchTrace& t, MemorySpace space, AccessOp op) {
    for (std::size_t i = 0; i < t.sites.size(); ++i)
      if (t.sites[i].space == space && t.sites[i].op == op) return static_cast<int>(i);
    return -1;
  }
};

TEST_F(WhatIfOnTranspose, FindsTheTileAndTheBuffersWithTheirShapes) {
  const LessonRun run = Run("coalesced");
  const std::vector<WhatIfArray> arrays = WhatIfArrays(run);
  ASSERT_EQ(arrays.size(), 3u);
  // __shared__ float tile[TILE_DIM][TILE_DIM] at tile = 32: 32 x 32 floats from byte 0.
  EXPECT_EQ(arrays[0].name, "tile");
  EXPECT_EQ(arrays[0].space, MemorySpace::kShared);
  EXPECT_EQ(arrays[0].rows, 32u);
  EXPECT_EQ(arrays[0].cols, 32u);
  EXPECT_EQ(arrays[0].elem, 4u);
  EXPECT_EQ(arrays[0].base, 0u);
  EXPECT_EQ(arrays[0].sites.size(), 2u);  // the store (line 34) and the load (line 38)
  // The global buffers: width x height = 256 x 256 floats.
  for (std::size_t k = 1; k < 3; ++k) {
    EXPECT_EQ(arrays[k].space, MemorySpace::kGlobal);
    EXPECT_EQ(arrays[k].rows, 256u);
    EXPECT_EQ(arrays[k].cols, 256u);
  }
}

// The coalesced transpose reads its 32x32 tile by columns: 32-way as written (lane l reads word
// 32 l: all in bank 0), 1-way padded (33 l: bank l) and 1-way swizzled (32 l + (y ^ l): bank
// y ^ l, a permutation of the lanes). 2,048 requests: 64 blocks x 32 warps, one each.
TEST_F(WhatIfOnTranspose, ColumnReadsOfTheTileAreOneWayAfterPadOrSwizzle) {
  const LessonRun run = Run("coalesced");
  const LaunchTrace& t = run.main_launch();
  const int load = Site(t, MemorySpace::kShared, AccessOp::kLoad);
  ASSERT_GE(load, 0);
  EXPECT_EQ(t.stats.sites[load].bank_conflict_max, 32u);
  EXPECT_EQ(t.stats.sites[load].wavefronts, 2048u * 32u);
  for (const char* spec : {"tile:pad=1", "tile:swizzle=5,0,5"}) {
    auto w = ApplyWhatIf(run, std::string(spec));
    ASSERT_TRUE(w.ok()) << w.status().message();
    const SiteStats& st = w->main_launch().stats.sites[load];
    EXPECT_EQ(st.requests, 2048u) << spec;
    EXPECT_EQ(st.bank_conflict_max, 1u) << spec;
    EXPECT_EQ(st.wavefronts, 2048u) << spec;
    ASSERT_TRUE(w->what_if.has_value());
    EXPECT_TRUE(w->what_if->whole_grid);
    EXPECT_EQ(w->what_if->scope, "the whole grid (64 blocks)");
  }
  // The run as written is untouched.
  EXPECT_EQ(t.stats.sites[load].bank_conflict_max, 32u);
}

// The padded variant is the code pad +1 proposes (`tile[TILE_DIM][TILE_DIM + 1]`): every site's
// figures equal, whole grid.
TEST_F(WhatIfOnTranspose, PadEqualsARealRunOfThePaddedVariantSiteBySite) {
  auto w = ApplyWhatIf(Run("coalesced"), std::string("tile:pad=1"));
  ASSERT_TRUE(w.ok()) << w.status().message();
  EXPECT_EQ(w->what_if->code,
            "__shared__ float tile[TILE_DIM][TILE_DIM + 1];  // the accesses "
            "tile[threadIdx.y][threadIdx.x] stay as they are");
  const LessonRun padded = Run("padded");
  const LaunchTrace &a = w->main_launch(), &b = padded.main_launch();
  ASSERT_EQ(a.sites.size(), b.sites.size());
  for (std::size_t i = 0; i < a.sites.size(); ++i) {
    SCOPED_TRACE("site " + std::to_string(i) + ": " + a.sites[i].code);
    const SiteStats &x = a.stats.sites[i], &y = b.stats.sites[i];
    EXPECT_EQ(x.requests, y.requests);
    EXPECT_EQ(x.sectors, y.sectors);
    EXPECT_EQ(x.wavefronts, y.wavefronts);
    EXPECT_EQ(x.bank_conflict_max, y.bank_conflict_max);
    EXPECT_EQ(x.halfwarp16_conflict_max, y.halfwarp16_conflict_max);
  }
}

TEST_F(WhatIfOnTranspose, OverTheKeptBlocksWhenTheOthersWereNotKept) {
  auto w = ApplyWhatIf(Run("coalesced", false), std::string("tile:pad=1"));
  ASSERT_TRUE(w.ok()) << w.status().message();
  EXPECT_FALSE(w->what_if->whole_grid);
  EXPECT_EQ(w->what_if->scope, "the 4 kept blocks of 64 (the others' records were not kept)");
  // 4 blocks x 32 warps: 128 requests, one wavefront each.
  const LaunchTrace& t = w->main_launch();
  const int load = Site(t, MemorySpace::kShared, AccessOp::kLoad);
  EXPECT_EQ(t.stats.sites[load].requests, 128u);
  EXPECT_EQ(t.stats.sites[load].wavefronts, 128u);
}

// Transposing odata makes the stores as uncoalesced as the naive kernel's: 32 sectors a request
// (each lane its own row, 1 KiB apart), so the modeled time grows with the sectors:
// (2,048 x 4 loads + 2,048 x 32 stores) / (2,048 x 4 + 2,048 x 4) = 73,728 / 16,384 = 4.5x.
TEST_F(WhatIfOnTranspose, AGlobalLayoutMovesTheSectorsAndTheModeledTime) {
  const LessonRun run = Run("coalesced");
  auto w = ApplyWhatIf(run, std::string("odata:transpose"));
  ASSERT_TRUE(w.ok()) << w.status().message();
  const LaunchTrace& t = w->main_launch();
  const int store = Site(t, MemorySpace::kGlobal, AccessOp::kStore);
  EXPECT_EQ(t.stats.sites[store].sectors, 2048u * 32u);
  EXPECT_DOUBLE_EQ(w->timing.ms, run.timing.ms * 4.5);
}

TEST_F(WhatIfOnTranspose, BadWhatIfsSayWhatIsWrongAndTheLimit) {
  const LessonRun run = Run("coalesced", false);
  auto msg = [&](const std::string& spec) {
    auto w = ParseWhatIf(spec, run);
    return w.ok() ? std::string("ok") : w.status().message();
  };
  EXPECT_EQ(msg("tile:swizzle=9,0,5"),
            "what-if 'tile:swizzle=9,0,5,shape=32x32': B is 9; it must be 1 to 8 bits");
  EXPECT_EQ(msg("nope:pad"),
            "what-if 'nope:pad': the kernel has no array 'nope' (its arrays: tile, idata, odata)");
  EXPECT_EQ(msg("tile:pad=0"),
            "what-if 'tile:pad=0,shape=32x32': pad is 0; it must be 1 to 64 elements");
  EXPECT_EQ(msg("tile:vector=12"),
            "what-if 'tile:vector=12,shape=32x32': vector width is 12 bytes; a thread reads 8 or "
            "16 bytes at once");
  EXPECT_EQ(msg("tile:tiled=64x8"),
            "what-if 'tile:tiled=64x8,shape=32x32': tiles of 64x8 do not fit the 32x32 array");
  EXPECT_EQ(msg("tile:pad=1,shape=0x4"),
            "what-if 'tile:pad=1,shape=0x4': shape '0x4' is not ROWSxCOLS (two whole numbers "
            "above 0)");
  // The transpose reads one float per thread per site: nothing to merge into 16 bytes.
  auto v = ApplyWhatIf(run, std::string("tile:vector=16"));
  ASSERT_FALSE(v.ok());
  EXPECT_NE(v.status().message().find("not a multiple of 4"), std::string::npos)
      << v.status().message();
}

}  // namespace
}  // namespace ws

namespace ws {
namespace {

LessonRun RunWhole(const std::string& lesson, const std::string& variant) {
  RunOptions o;
  o.keep_all_threads_up_to = 1u << 18;
  auto r = RunLesson(lesson, variant, {}, "emu", o);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return std::move(*r);
}

const SiteStats& SharedLoad(const LessonRun& r) {
  const LaunchTrace& t = r.main_launch();
  for (std::size_t i = 0; i < t.sites.size(); ++i)
    if (t.sites[i].space == MemorySpace::kShared && t.sites[i].op == AccessOp::kLoad)
      return t.stats.sites[i];
  ADD_FAILURE() << "no shared load";
  return t.stats.sites[0];
}

// Every site's figures of two runs of one kernel shape, side by side.
void ExpectSameFigures(const LessonRun& a, const LessonRun& b) {
  const LaunchTrace &x = a.main_launch(), &y = b.main_launch();
  ASSERT_EQ(x.sites.size(), y.sites.size());
  for (std::size_t i = 0; i < x.sites.size(); ++i) {
    SCOPED_TRACE("site " + std::to_string(i) + ": " + x.sites[i].code);
    EXPECT_EQ(x.stats.sites[i].requests, y.stats.sites[i].requests);
    EXPECT_EQ(x.stats.sites[i].sectors, y.stats.sites[i].sectors);
    EXPECT_EQ(x.stats.sites[i].wavefronts, y.stats.sites[i].wavefronts);
    EXPECT_EQ(x.stats.sites[i].ideal_wavefronts, y.stats.sites[i].ideal_wavefronts);
    EXPECT_EQ(x.stats.sites[i].bank_conflict_max, y.stats.sites[i].bank_conflict_max);
  }
}

// The swizzle lesson at its default 256 x 256. The float tile: 64 blocks of 32 warps, one
// request each per site: 2,048 requests; as written 32 wavefronts a column read, padded and
// swizzled 1. The float4 tile: 65,536 floats / 1,024 per block = 64 blocks of 8 warps (32x8
// threads): 512 requests per site. A float4 column read is 4 quarter-warps of 8 lanes on one
// bank group (8-way): 32 wavefronts, 4 needed, 28 conflicts; padded and swizzled 4 wavefronts,
// no conflicts (the H100's figures, docs/ncu-agreement.md).
TEST(SwizzleLesson, FiguresOfEveryVariantByHand) {
  struct Want {
    const char* variant;
    std::uint64_t requests, wavefronts, ideal;
    std::uint32_t degree;
  };
  for (const Want& w :
       {Want{"as-written", 2048, 2048 * 32, 2048, 32}, Want{"padded", 2048, 2048, 2048, 1},
        Want{"swizzled", 2048, 2048, 2048, 1}, Want{"float4-columns", 512, 512 * 32, 512 * 4, 8},
        Want{"float4-padded", 512, 512 * 4, 512 * 4, 1},
        Want{"float4-swizzled", 512, 512 * 4, 512 * 4, 1}}) {
    SCOPED_TRACE(w.variant);
    const LessonRun r = RunWhole("swizzle", w.variant);
    EXPECT_TRUE(r.check.ok) << r.check.message;
    const SiteStats& s = SharedLoad(r);
    EXPECT_EQ(s.requests, w.requests);
    EXPECT_EQ(s.wavefronts, w.wavefronts);
    EXPECT_EQ(s.ideal_wavefronts, w.ideal);
    EXPECT_EQ(s.bank_conflict_max, w.degree);
  }
}

// The what-ifs of the as-written tiles equal real runs of the code they propose, whole grid:
// pad +1 is `tile[TILE][TILE + 1]` (the padded variant); Swizzle<5,0,5> is column j ^ i (the
// swizzled variant); on the float4 tile, Swizzle<3,0,3> on chunks (Swizzle<3,2,3> in floats)
// is chunk c ^ (row & 7), and pad +1 is `chunks[TILE][9]`.
TEST(SwizzleLesson, WhatIfsEqualTheVariantsThatWriteThem) {
  const LessonRun floats = RunWhole("swizzle", "as-written");
  const LessonRun chunks = RunWhole("swizzle", "float4-columns");
  struct Case {
    const LessonRun* run;
    const char* spec;
    const char* variant;
  };
  for (const Case& c :
       {Case{&floats, "tile:pad=1", "padded"}, Case{&floats, "tile:swizzle=5,0,5", "swizzled"},
        Case{&chunks, "chunks:pad=1", "float4-padded"},
        Case{&chunks, "chunks:swizzle=3,0,3", "float4-swizzled"}}) {
    SCOPED_TRACE(c.spec);
    auto w = ApplyWhatIf(*c.run, std::string(c.spec));
    ASSERT_TRUE(w.ok()) << w.status().message();
    EXPECT_TRUE(w->what_if->whole_grid);
    ExpectSameFigures(*w, RunWhole("swizzle", c.variant));
  }
}

// matmul tiled reads Mds[ty][k] for k = 0, 1, 2, ... one float at a time; nvcc's uninstrumented
// build reads four at once (LDS.128), and Nsight Compute counted 10,240 shared-load requests and
// 12,288 wavefronts where Warpscope counts 16,384 of each (docs/ncu-agreement.md, difference 2).
// The vector what-if on Mds gives the hardware's figures: 8,192 / 4 = 2,048 requests of 2
// wavefronts (a warp covers rows ty and ty+1, each half-warp one 16-byte address), plus Nds's
// 8,192 of 1: 10,240 requests, 4,096 + 8,192 = 12,288 wavefronts.
TEST(WhatIfVector, MatmulsMdsReadFourAtATimeAsNvccCompiledIt) {
  auto w = ApplyWhatIf(RunWhole("matmul", "tiled"), std::string("Mds:vector=16"));
  ASSERT_TRUE(w.ok()) << w.status().message();
  std::uint64_t requests = 0, wavefronts = 0;
  const LaunchTrace& t = w->main_launch();
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    if (t.sites[i].space != MemorySpace::kShared || t.sites[i].op != AccessOp::kLoad) continue;
    requests += t.stats.sites[i].requests;
    wavefronts += t.stats.sites[i].wavefronts;
  }
  EXPECT_EQ(requests, 10240u);
  EXPECT_EQ(wavefronts, 12288u);
  // The store Mds[ty][tx] writes one float per tile: left as written, and the scope says why.
  EXPECT_NE(w->what_if->scope.find("line 34 store left as written"), std::string::npos)
      << w->what_if->scope;
}

}  // namespace
}  // namespace ws
