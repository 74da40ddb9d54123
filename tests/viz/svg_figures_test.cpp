// The SVG figures of lecture notes, from real lessons on the emulator: the numbers they write
// against hand calculations, well-formed XML, and the same bytes every time.
#include "warpscope/viz/svg_figures.h"

#include <gtest/gtest.h>

#include <cctype>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/capture.h"
#include "warpscope/kernels/catalog.h"
#include "warpscope/trace/lesson_figures.h"

namespace ws {
namespace {

// [SECTION] A minimal XML checker -------------------------------------------------------------

bool IsNameChar(char c, bool first) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' ||
         (!first &&
          (std::isdigit(static_cast<unsigned char>(c)) || c == '-' || c == ':' || c == '.'));
}

// "" when `s` is well-formed as far as the figures need: one root element, every tag closed in
// order, attributes NAME="VALUE" without repeats, '<' only in markup, '&' only in the five
// predefined entities. Else what is wrong and where.
std::string XmlProblem(const std::string& s) {
  static const std::vector<std::string> kEntities = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"};
  auto entity_ok = [&](std::size_t at) {
    for (const std::string& e : kEntities) {
      if (s.compare(at, e.size(), e) == 0) return true;
    }
    return false;
  };
  std::vector<std::string> open;
  int roots = 0;
  for (std::size_t i = 0; i < s.size();) {
    if (s[i] == '&') {
      if (!entity_ok(i)) return "bare & at " + std::to_string(i);
      ++i;
      continue;
    }
    if (s[i] != '<') {
      if (open.empty() && !std::isspace(static_cast<unsigned char>(s[i])))
        return "text outside the root at " + std::to_string(i);
      ++i;
      continue;
    }
    const std::size_t end = s.find('>', i);  // '>' is escaped in values: the first one ends it
    if (end == std::string::npos) return "unterminated tag at " + std::to_string(i);
    std::string tag = s.substr(i + 1, end - i - 1);
    i = end + 1;
    if (!tag.empty() && tag[0] == '/') {
      if (open.empty() || open.back() != tag.substr(1))
        return "mismatched </" + tag.substr(1) + ">";
      open.pop_back();
      continue;
    }
    const bool self_closing = !tag.empty() && tag.back() == '/';
    if (self_closing) tag.pop_back();
    std::size_t p = 0;
    while (p < tag.size() && IsNameChar(tag[p], p == 0)) ++p;
    const std::string name = tag.substr(0, p);
    if (name.empty()) return "a tag without a name: <" + tag + ">";
    std::set<std::string> attributes;
    while (true) {
      while (p < tag.size() && std::isspace(static_cast<unsigned char>(tag[p]))) ++p;
      if (p == tag.size()) break;
      const std::size_t a = p;
      while (p < tag.size() && IsNameChar(tag[p], p == a)) ++p;
      const std::string attr = tag.substr(a, p - a);
      if (attr.empty() || p + 1 >= tag.size() || tag[p] != '=' || tag[p + 1] != '"')
        return "bad attribute in <" + name + ">: " + tag.substr(a);
      const std::size_t close = tag.find('"', p + 2);
      if (close == std::string::npos) return "unquoted value in <" + name + ">";
      const std::string value = tag.substr(p + 2, close - p - 2);
      if (value.find('<') != std::string::npos) return "'<' in a value of <" + name + ">";
      for (std::size_t k = value.find('&'); k != std::string::npos; k = value.find('&', k + 1)) {
        bool ok = false;
        for (const std::string& e : kEntities) ok = ok || value.compare(k, e.size(), e) == 0;
        if (!ok) return "bare & in a value of <" + name + ">";
      }
      if (!attributes.insert(attr).second) return "repeated attribute " + attr;
      p = close + 1;
    }
    if (open.empty() && ++roots > 1) return "a second root element <" + name + ">";
    if (!self_closing) open.push_back(name);
  }
  if (!open.empty()) return "<" + open.back() + "> is never closed";
  return roots == 1 ? "" : "no root element";
}

// An SVG document as the header promises: well-formed, an <svg> root with the namespace, size
// and viewBox, and a <title>.
void ExpectSvg(const std::string& svg) {
  ASSERT_FALSE(svg.empty());
  EXPECT_EQ(XmlProblem(svg), "");
  EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"", 0), 0u);
  EXPECT_NE(svg.find(" viewBox=\"0 0 "), std::string::npos);
  EXPECT_NE(svg.find("<title>"), std::string::npos);
}

std::size_t Count(const std::string& s, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = s.find(needle); at != std::string::npos; at = s.find(needle, at + 1)) ++n;
  return n;
}

// The data-* attributes of every element of class `cls`.
std::vector<std::map<std::string, std::string>> Elements(const std::string& svg,
                                                         const std::string& cls) {
  std::vector<std::map<std::string, std::string>> out;
  // A plain scan, not std::regex (GCC 12's ASan build warns inside <regex>): each tag that
  // carries class="cls", then its data-NAME="VALUE" attributes.
  const std::string mark = "class=\"" + cls + "\"";
  for (std::size_t open = svg.find('<'); open != std::string::npos;
       open = svg.find('<', open + 1)) {
    const std::size_t close = svg.find('>', open);
    if (close == std::string::npos) break;
    const std::string e = svg.substr(open, close - open + 1);
    const std::size_t at = e.find(mark);
    if (at == std::string::npos || (at > 0 && e[at - 1] != ' ')) continue;
    std::map<std::string, std::string> m;
    for (std::size_t d = e.find(" data-"); d != std::string::npos; d = e.find(" data-", d + 1)) {
      const std::size_t eq = e.find("=\"", d);
      const std::size_t end = eq == std::string::npos ? eq : e.find('"', eq + 2);
      if (end == std::string::npos) break;
      m[e.substr(d + 1, eq - d - 1)] = e.substr(eq + 2, end - eq - 2);
    }
    out.push_back(std::move(m));
  }
  return out;
}

LessonRun Lesson(const std::string& id, const std::string& variant, const Params& p) {
  auto r = RunLesson(id, variant, p, "emu", RunOptions{});
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? std::move(r).value() : LessonRun{};
}

// The index of the main launch's first site in `space` doing `op`.
std::size_t SiteOf(const LessonRun& run, MemorySpace space, AccessOp op) {
  const LaunchTrace& t = run.main_launch();
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    if (t.sites[i].space == space && t.sites[i].op == op) return i;
  }
  ADD_FAILURE() << "no such site";
  return t.sites.size();
}

TEST(SvgXmlChecker, CatchesWhatItShould) {
  EXPECT_EQ(XmlProblem("<svg a=\"1\"><g/><text>x &amp; y</text></svg>"), "");
  EXPECT_NE(XmlProblem("<svg><g></svg>"), "");
  EXPECT_NE(XmlProblem("<svg><text>a & b</text></svg>"), "");
  EXPECT_NE(XmlProblem("<svg a=1></svg>"), "");
  EXPECT_NE(XmlProblem("<svg a=\"1\" a=\"2\"></svg>"), "");
  EXPECT_NE(XmlProblem("<svg></svg><svg></svg>"), "");
}

// [SECTION] Coalescing strip --------------------------------------------------------------------

TEST(SvgCoalescingStrip, TransposeNaiveStoreNeedsASectorPerLane) {
  // 64 x 64 in 32 x 32 tiles. Block 0, warp 0 is threadIdx.y = 0, threadIdx.x = lane: it stores
  // odata[yIndex + height * xIndex] = odata[64 * lane], 256 B apart. Each lane's 4 bytes lie in
  // their own sector: 32 sectors, 32 x 32 = 1024 bytes moved for 32 x 4 = 128 asked.
  const LessonRun run = Lesson("transpose", "naive", {{"width", 64}, {"height", 64}});
  const std::string svg =
      SvgCoalescingStrip(run, SiteOf(run, MemorySpace::kGlobal, AccessOp::kStore));
  ExpectSvg(svg);
  EXPECT_NE(svg.find("32 sectors, 1024 bytes moved for 128 asked"), std::string::npos);
  EXPECT_EQ(Count(svg, "class=\"sector\""), 32u);
  EXPECT_EQ(Count(svg, "class=\"lane\""), 32u);
  EXPECT_EQ(Count(svg, "class=\"wire\""), 32u);
  // 256 B apart: every sector starts 256 bytes after the last (sector at +0, +256, ... +7936).
  EXPECT_NE(svg.find("<title>sector at +256, 32 B</title>"), std::string::npos);
  EXPECT_NE(svg.find("<title>sector at +7936, 32 B</title>"), std::string::npos);
}

TEST(SvgCoalescingStrip, TransposeNaiveLoadIsFourSectors) {
  // The load idata[xIndex + width * yIndex] = idata[lane]: 32 consecutive floats from the
  // buffer's 256-byte aligned start, 128 bytes = 4 sectors, nothing wasted.
  const LessonRun run = Lesson("transpose", "naive", {{"width", 64}, {"height", 64}});
  const std::string svg =
      SvgCoalescingStrip(run, SiteOf(run, MemorySpace::kGlobal, AccessOp::kLoad));
  ExpectSvg(svg);
  EXPECT_NE(svg.find("4 sectors, 128 bytes moved for 128 asked"), std::string::npos);
  EXPECT_EQ(Count(svg, "class=\"sector\""), 4u);
}

TEST(SvgCoalescingStrip, EmptyForSharedSitesAndSitesOutOfRange) {
  const LessonRun run = Lesson("transpose", "coalesced", {{"width", 64}, {"height", 64}});
  EXPECT_EQ(SvgCoalescingStrip(run, SiteOf(run, MemorySpace::kShared, AccessOp::kLoad)), "");
  EXPECT_EQ(SvgCoalescingStrip(run, run.main_launch().sites.size()), "");
  EXPECT_EQ(SvgCoalescingStrip(LessonRun{}, 0), "");
}

// [SECTION] Bank heatmap ------------------------------------------------------------------------

TEST(SvgBankHeatmap, TransposeCoalescedColumnReadIsOneHotBankPerRow) {
  // Block 0 is 32 x 32 threads = 32 warps, one request each at the tile read
  // tile[threadIdx.x][threadIdx.y]. Warp w has threadIdx.y = w and lanes threadIdx.x = 0..31: lane
  // l reads word 32 l + w, in bank (32 l + w) mod 32 = w. So row w has 32 distinct words in bank
  // w and none elsewhere: 32 cells of 32 on the diagonal, the other 32 x 31 = 992 cells 0.
  const LessonRun run = Lesson("transpose", "coalesced", {{"width", 64}, {"height", 64}});
  const std::string svg = SvgBankHeatmap(run, SiteOf(run, MemorySpace::kShared, AccessOp::kLoad));
  ExpectSvg(svg);
  EXPECT_NE(svg.find("worst 32-way"), std::string::npos);
  const auto cells = Elements(svg, "cell");
  ASSERT_EQ(cells.size(), 32u * 32u);
  int hot = 0, empty = 0;
  for (const auto& c : cells) {
    if (c.at("data-words") == "32") {
      ++hot;
      EXPECT_EQ(c.at("data-bank"), c.at("data-request"));  // row w: bank w
    } else if (c.at("data-words") == "0") {
      ++empty;
    }
  }
  EXPECT_EQ(hot, 32);
  EXPECT_EQ(empty, 992);
  // Row labels: warp.iteration, warp 31 the last row.
  EXPECT_NE(svg.find(">w31.0</text>"), std::string::npos);
}

TEST(SvgBankHeatmap, TileWriteAndPaddedReadHaveNoConflict) {
  // The tile write tile[threadIdx.y][threadIdx.x]: lane l of warp w writes word 32 w + l, bank l:
  // one word in every bank of every row (1024 cells of 1). Padded, the read
  // tile[threadIdx.x][threadIdx.y] of a 33-wide tile is word 33 l + w, bank (l + w) mod 32: a
  // diagonal through all 32 banks, again one word each.
  const LessonRun coalesced = Lesson("transpose", "coalesced", {{"width", 64}, {"height", 64}});
  const LessonRun padded = Lesson("transpose", "padded", {{"width", 64}, {"height", 64}});
  for (const std::string& svg :
       {SvgBankHeatmap(coalesced, SiteOf(coalesced, MemorySpace::kShared, AccessOp::kStore)),
        SvgBankHeatmap(padded, SiteOf(padded, MemorySpace::kShared, AccessOp::kLoad))}) {
    ExpectSvg(svg);
    EXPECT_NE(svg.find("worst 1-way"), std::string::npos);
    const auto cells = Elements(svg, "cell");
    ASSERT_EQ(cells.size(), 1024u);
    for (const auto& c : cells) EXPECT_EQ(c.at("data-words"), "1");
  }
  EXPECT_EQ(SvgBankHeatmap(coalesced, SiteOf(coalesced, MemorySpace::kGlobal, AccessOp::kLoad)),
            "");
}

// [SECTION] Timing plot -------------------------------------------------------------------------

TEST(SvgTimingPlot, PointsLegendAndEscapedText) {
  TimingPlotData plot;
  plot.title = "transpose <naive> & \"padded\"";
  plot.x_label = "width (floats)";
  plot.y_label = "time (ms, modeled)";
  plot.series = {{"naive", {{4, 10}, {1, 2}, {2, 5}}}, {"padded", {{1, 1}, {2, 2}, {4, 4}}}};
  const std::string svg = SvgTimingPlot(plot);
  ExpectSvg(svg);
  EXPECT_NE(svg.find("transpose &lt;naive&gt; &amp; &quot;padded&quot;"), std::string::npos);
  EXPECT_EQ(Count(svg, "class=\"point\""), 6u);
  EXPECT_EQ(Count(svg, "class=\"series\""), 2u);
  // The plot area is x 80..640, y 48..348. x 1..4 with 8 ticks: step 0.5, the axis 1..4; y 0..10
  // with 6 ticks: step 2, the axis 0..10. So (4, 10) is the top right corner, (1, 1) at
  // y = 348 - 300 / 10 = 318.
  EXPECT_NE(svg.find("cx=\"640\" cy=\"48\""), std::string::npos);
  EXPECT_NE(svg.find("cx=\"80\" cy=\"318\""), std::string::npos);
  // Sorted by x: the naive line goes (1, 2), (2, 5), (4, 10).
  EXPECT_NE(svg.find("points=\"80,288 266.67,198 640,48\""), std::string::npos);
  EXPECT_NE(svg.find("width (floats)"), std::string::npos);
  EXPECT_NE(svg.find("time (ms, modeled)"), std::string::npos);
  EXPECT_EQ(SvgTimingPlot(TimingPlotData{}), "");
  plot.log_x = true;
  ExpectSvg(SvgTimingPlot(plot));
}

// [SECTION] Copy bandwidth ---------------------------------------------------------------------

TEST(SvgBandwidthPlot, TheShippedPinnedCaptureHasFourCurves) {
  auto run =
      LoadTraceAsRun(std::string(WARPSCOPE_SOURCE_DIR) + "/assets/traces/transfers-pinned.wstrace");
  ASSERT_TRUE(run.ok()) << run.status().message();
  const TransferFigures* f = run->figures_as<TransferFigures>();
  ASSERT_NE(f, nullptr);
  ASSERT_FALSE(f->sweep.empty());
  const std::string svg = SvgBandwidthPlot(*run);
  ExpectSvg(svg);
  // A point per size for each of the four directions and memories.
  EXPECT_EQ(Count(svg, "class=\"point\""), 4 * f->sweep.size());
  EXPECT_EQ(Count(svg, "class=\"series\""), 4u);
  EXPECT_NE(svg.find("to host, pageable"), std::string::npos);
  EXPECT_NE(svg.find("bytes copied, log2 scale"), std::string::npos);
  EXPECT_EQ(SvgBandwidthPlot(Lesson("barrier", "uneven", {})), "");
}

// [SECTION] Occupancy graphs --------------------------------------------------------------------

TEST(SvgOccupancyGraphs, TheSlidesG80Example) {
  // The lesson's defaults are the slides' example on compute 1.0: 192 threads (6 warps), 20
  // registers (192 x 20 = 3840, allocated as 4096 of the SM's 8192: 2 blocks), 68 B shared. 2
  // blocks x 6 warps = 12 of 24 warps: 50 %, registers bind. The threads graph has a point per
  // warp of block size, 32 .. 512: 16 points.
  const LessonRun run = Lesson("occupancy", "", {});
  const std::string svg = SvgOccupancyGraphs(run);
  ExpectSvg(svg);
  EXPECT_NE(svg.find("Occupancy on cc1.0: 50 % (2 blocks, 12 warps per SM; registers bind)"),
            std::string::npos);
  const auto curves = Elements(svg, "curve");
  ASSERT_EQ(curves.size(), 3u);
  EXPECT_EQ(curves[0].at("data-graph"), "threads");
  EXPECT_EQ(curves[0].at("data-points"), "16");
  const OccupancyFigures* f = run.figures_as<OccupancyFigures>();
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(curves[1].at("data-points"), std::to_string(f->vary_registers.size()));
  EXPECT_EQ(curves[2].at("data-points"), std::to_string(f->vary_shared.size()));
  const auto marks = Elements(svg, "current");
  ASSERT_EQ(marks.size(), 3u);
  EXPECT_EQ(marks[0].at("data-x"), "192");
  EXPECT_EQ(marks[1].at("data-x"), "20");
  EXPECT_EQ(marks[2].at("data-x"), "68");
  for (const auto& m : marks) EXPECT_EQ(m.at("data-y"), "50");
  for (const char* label : {"threads per block", "registers per thread",
                            "shared memory per block (B)", "occupancy (%)"})
    EXPECT_NE(svg.find(label), std::string::npos) << label;
  // Not the occupancy lesson: nothing to draw.
  EXPECT_EQ(SvgOccupancyGraphs(Lesson("barrier", "uneven", {})), "");
}

// [SECTION] Layout table ------------------------------------------------------------------------

std::map<std::pair<int, int>, std::string> Positions(const std::string& svg) {
  std::map<std::pair<int, int>, std::string> out;
  for (const auto& c : Elements(svg, "cell"))
    out[{std::stoi(c.at("data-x")), std::stoi(c.at("data-y"))}] = c.at("data-position");
  return out;
}

TEST(SvgLayoutTable, TextureTiledAndGlobalRowMajor) {
  // 16 x 16 texels in 8 x 8 tiles of 2 x 2 micro tiles (the lesson's defaults): a tile is 64
  // positions, a micro tile 4, micro tiles 4 to a tile row. (1, 0) -> 1; (2, 0) is micro tile 1
  // -> 4; (0, 1) -> 2; (0, 2) is micro tile 4 -> 16; (8, 0) is tile 1 -> 64; (0, 8) is tile 2 ->
  // 128; (15, 15): tile 3, micro tile (3, 3) = 15, inner (1, 1) = 3: 192 + 60 + 3 = 255.
  const LessonRun tex =
      Lesson("texture-2d", "texture", {{"width", 16}, {"height", 16}, {"layout", 2}});
  const std::string svg = SvgLayoutTable(tex);
  ExpectSvg(svg);
  EXPECT_NE(svg.find("16x16 image, tiled 8x8 tiles of 2x2"), std::string::npos);
  auto pos = Positions(svg);
  ASSERT_EQ(pos.size(), 256u);
  EXPECT_EQ((pos[{1, 0}]), "1");
  EXPECT_EQ((pos[{2, 0}]), "4");
  EXPECT_EQ((pos[{0, 1}]), "2");
  EXPECT_EQ((pos[{0, 2}]), "16");
  EXPECT_EQ((pos[{8, 0}]), "64");
  EXPECT_EQ((pos[{0, 8}]), "128");
  EXPECT_EQ((pos[{15, 15}]), "255");
  EXPECT_NE(svg.find(">255</text>"), std::string::npos);
  // The global variant reads row-major: (x, y) -> 16 y + x, (3, 2) -> 35.
  const LessonRun global = Lesson("texture-2d", "global", {{"width", 16}, {"height", 16}});
  const std::string rows = SvgLayoutTable(global);
  ExpectSvg(rows);
  EXPECT_NE(rows.find("row-major"), std::string::npos);
  EXPECT_EQ((Positions(rows)[{3, 2}]), "35");
  EXPECT_EQ(SvgLayoutTable(Lesson("barrier", "uneven", {})), "");
}

TEST(SvgLayoutTable, TheSlidesTable) {
  // The slides' 24 x 16 table: tiled, 8 x 8 tiles of 2 x 2, three tiles to a row. Row 0 reads
  // 0 1 4 5 8 9 12 13 | 64 ...; (0, 8) starts the second row of tiles: tile 3 -> 192.
  const Layout2D slides{LayoutKind::kTiled, 24, 16, 8, 8, 2, 2};
  const std::string svg = SvgLayoutTable(slides);
  ExpectSvg(svg);
  auto pos = Positions(svg);
  ASSERT_EQ(pos.size(), 24u * 16u);
  const char* row0[] = {"0", "1", "4", "5", "8", "9", "12", "13", "64"};
  for (int x = 0; x < 9; ++x) EXPECT_EQ((pos[{x, 0}]), row0[x]) << x;
  EXPECT_EQ((pos[{0, 8}]), "192");
  // A refused layout (a micro tile that does not divide the tile) draws nothing.
  EXPECT_EQ(SvgLayoutTable(Layout2D{LayoutKind::kTiled, 24, 16, 8, 8, 3, 3}), "");
}

// [SECTION] Determinism -------------------------------------------------------------------------

TEST(SvgFigures, SameRunSameBytes) {
  // Two calls on one run, and the same lesson run twice: byte-identical documents.
  const Params p = {{"width", 64}, {"height", 64}};
  const LessonRun a = Lesson("transpose", "coalesced", p), b = Lesson("transpose", "coalesced", p);
  const std::size_t store = SiteOf(a, MemorySpace::kGlobal, AccessOp::kStore);
  const std::size_t read = SiteOf(a, MemorySpace::kShared, AccessOp::kLoad);
  EXPECT_EQ(SvgCoalescingStrip(a, store), SvgCoalescingStrip(a, store));
  EXPECT_EQ(SvgCoalescingStrip(a, store), SvgCoalescingStrip(b, store));
  EXPECT_EQ(SvgBankHeatmap(a, read), SvgBankHeatmap(b, read));
  const LessonRun occ = Lesson("occupancy", "", {});
  EXPECT_EQ(SvgOccupancyGraphs(occ), SvgOccupancyGraphs(occ));
  const Layout2D morton{LayoutKind::kMorton, 16, 16};
  EXPECT_EQ(SvgLayoutTable(morton), SvgLayoutTable(morton));
}

}  // namespace
}  // namespace ws
