// The compiled kernels' shared instructions by line (trace/compiled_code.h), and the costing of a
// site the compiled code serves wider than the source (SiteInfo::compiled_width).
#include "warpscope/trace/compiled_code.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "warpscope/trace/analysis.h"
#include "warpscope/trace/run_report.h"

namespace ws {
namespace {

std::string ReadSourceFile(const std::string& path) {
  std::ifstream in(std::string(WARPSCOPE_SOURCE_DIR "/") + path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// examples/matmul.cu compiled as written (nvcc 13.0 -O2 -arch=sm_90 -lineinfo) and listed by
// nvdisasm -g on an H200's toolkit (kernels/compiled/sass_probe.sh). Line 29, `Pvalue +=
// Mds[ty][k] * Nds[k][tx]` unrolled 16 times, is 4 LDS.128 and 16 LDS; lines 25 and 26 store
// the tiles with one STS each.
TEST(CompiledCode, ReadsTheMatmulsSharedInstructionsByLine) {
  const std::string listing = ReadSourceFile("kernels/compiled/matmul_sass_h200.txt");
  ASSERT_FALSE(listing.empty());
  const CompiledCode code = CompiledCode::FromDisassembly(listing);
  EXPECT_EQ(code.SharedWidth("MatrixMulKernel", "matmul.cu", 29, false), 16u);
  EXPECT_EQ(code.SharedWidth("MatrixMulKernel", "matmul.cu", 29, true), 0u);
  EXPECT_EQ(code.SharedWidth("MatrixMulKernel", "matmul.cu", 25, true), 4u);
  EXPECT_EQ(code.SharedWidth("MatrixMulKernel", "matmul.cu", 26, true), 4u);
  EXPECT_EQ(code.SharedWidth("MatrixMulKernel", "matmul.cu", 32, false), 0u);  // the STG's line
  // The file by the listing's path's end, at a folder's boundary; another kernel: nothing.
  EXPECT_EQ(code.SharedWidth("MatrixMulKernel", "atmul.cu", 29, false), 0u);
  EXPECT_EQ(code.SharedWidth("MatrixMulKernel", "other.cu", 29, false), 0u);
  EXPECT_EQ(code.SharedWidth("transpose", "matmul.cu", 29, false), 0u);
  // As a table and back; the table of wide lines alone holds line 29 only.
  const Result<CompiledCode> again = CompiledCode::FromTable(code.Table());
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(again->Table(), code.Table());
  const std::string wide = code.Table(8);
  EXPECT_EQ(std::count(wide.begin(), wide.end(), '\n'), 1) << wide;
  EXPECT_NE(wide.find("MatrixMulKernel\t/"), std::string::npos) << wide;
  EXPECT_NE(wide.find("matmul.cu\t29\t20\t0\n"), std::string::npos) << wide;  // 16 | 4
}

TEST(CompiledCode, TakesTemplatesPredicatesAndLeavesWhatIsNotAPlainSharedAccess) {
  const CompiledCode code = CompiledCode::FromDisassembly(
      "//--------------------- .text._Z4tileILi16EEvPf --------------------------\n"
      "\t//## File \"/tmp/s/0/k.cu\", line 7\n"
      "        /*0010*/              @!P0 LDS.64 R2, [R4] ;\n"
      "        /*0020*/              @!PT LDS.128 RZ, [RZ] ;\n"  // never runs
      "        /*0030*/                   LDSM.16.M88.4 R8, [R4] ;\n"
      "\t//## File \"/tmp/s/0/k.cu\", line 8\n"
      "        /*0040*/                   STS.U8 [R4], R2 ;\n"
      "        /*0050*/                   STS.128 [R4], R8 ;\n"
      "\t//## File \"/tmp/s/0/k.cu\", line 9\n"
      "        /*0060*/                   LDGSTS.E.BYPASS.128 [R4], desc[UR4][R2.64] ;\n");
  EXPECT_EQ(code.SharedWidth("tile<16>", "k.cu", 7, false), 8u);
  EXPECT_EQ(code.SharedWidth("tile", "k.cu", 7, false), 8u);  // one instance: by its name
  EXPECT_EQ(code.SharedWidth("tile<16>", "k.cu", 8, true), 16u);
  EXPECT_EQ(code.SharedWidth("tile<16>", "k.cu", 9, true), 0u);  // an async copy's, not an STS
  SiteInfo site;
  site.space = MemorySpace::kShared;
  site.size = 4;
  site.file = "k.cu";
  site.line = 7;
  EXPECT_EQ(CompiledWidthOf(code, "tile<16>", site), 8u);
  site.size = 8;  // as wide as the source: nothing to merge
  EXPECT_EQ(CompiledWidthOf(code, "tile<16>", site), 0u);
  site.size = 4;
  site.space = MemorySpace::kGlobal;
  EXPECT_EQ(CompiledWidthOf(code, "tile<16>", site), 0u);
}

TEST(CompiledCode, RefusesATableLineByItsNumber) {
  const Result<CompiledCode> bad =
      CompiledCode::FromTable("k\tk.cu\t7\t8\t0\nk\tk.cu\tseven\t8\t0\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("line 2"), std::string::npos) << bad.status().message();
}

// A tile's row read four floats at a time (Mds[ty][k], k = 0..3 of a 16 x 16 tile, a warp's two
// rows 64 bytes apart), at a site compiled to LDS.128: the request at k = 0 is one LDS.128 whose
// two 16-byte addresses take 2 wavefronts (a broadcast in each half-warp: Nsight Compute's 2 on
// an H200, docs/ncu-agreement.md), k = 1..3 are parts of it; the column read Nds[k][tx] beside it
// (lanes at every place of a run) stays the source's: 1 wavefront.
TEST(CompiledCode, CostsARunOnceAsItsWideInstruction) {
  std::vector<SiteInfo> sites(1);
  sites[0].space = MemorySpace::kShared;
  sites[0].size = 4;
  sites[0].compiled_width = 16;
  LaunchStats stats;
  for (std::uint32_t k = 0; k < 4; ++k) {
    std::uint32_t offsets[32];
    for (std::uint32_t l = 0; l < 32; ++l) offsets[l] = (l / 16) * 64 + k * 4;
    AddRequests(0, ~0u, offsets, 1, sites, {}, &stats);
  }
  const SiteStats& s = stats.sites[0];
  EXPECT_EQ(s.requests, 1u);
  EXPECT_EQ(s.wavefronts, 2u);
  EXPECT_EQ(s.ideal_wavefronts, 2u);
  EXPECT_EQ(s.accesses, 32u);
  EXPECT_EQ(s.bytes, 32u * 16);  // the four requests' 512 bytes, once
  EXPECT_EQ(s.compiled_parts, 3u);
  EXPECT_EQ(s.compiled_mixed, 0u);
  EXPECT_EQ(CompiledWidthText(sites[0], s),
            "as compiled, LDS.128: the source's 4 requests are 1 of 16 bytes a lane");

  LaunchStats column;
  std::uint32_t offsets[32];
  for (std::uint32_t l = 0; l < 32; ++l) offsets[l] = (l % 16) * 4 + 2 * 64;
  AddRequests(0, ~0u, offsets, 5, sites, {}, &column);
  EXPECT_EQ(column.sites[0].requests, 5u);
  EXPECT_EQ(column.sites[0].wavefronts, 5u);
  EXPECT_EQ(column.sites[0].compiled_mixed, 5u);
  EXPECT_EQ(column.sites[0].bytes, 5u * 32 * 4);
  EXPECT_FALSE(CompiledRunsMet(sites[0], column.sites[0]));
  EXPECT_EQ(CompiledWidthText(sites[0], column.sites[0]), "");

  // Every request at a later place (s[4 * t + 1] beside a float4 on the same line): parts of no
  // run this site made; said, not silently dropped.
  LaunchStats parts;
  for (std::uint32_t l = 0; l < 32; ++l) offsets[l] = l * 16 + 4;
  AddRequests(0, ~0u, offsets, 3, sites, {}, &parts);
  EXPECT_EQ(parts.sites[0].requests, 0u);
  EXPECT_EQ(parts.sites[0].compiled_parts, 3u);
  EXPECT_TRUE(CompiledRunsMet(sites[0], parts.sites[0]));
  EXPECT_NE(CompiledWidthText(sites[0], parts.sites[0])
                .find("no request of it was a run's first "
                      "place: its 3 requests"),
            std::string::npos)
      << CompiledWidthText(sites[0], parts.sites[0]);
}

}  // namespace
}  // namespace ws
