// The lecture files under Xvfb: every shipped lecture walked step by step with the keys a
// teacher presses, the notes export (index, PNGs, SVGs, byte-identical), and the compare view.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gui_test_util.h"
#include "warpscope/viz/image.h"

namespace ws {
namespace {

using test::RunApp;
using test::TempDir;

const std::filesystem::path kLectures =
    std::filesystem::path(WARPSCOPE_SOURCE_DIR) / "assets" / "lectures";

std::string Slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool Near(Rgba a, Rgba b, int tol) {
  return std::abs(a.r - b.r) <= tol && std::abs(a.g - b.g) <= tol && std::abs(a.b - b.b) <= tol;
}

int CountNear(const Image& img, Rgba c, int tol, int x0, int x1) {
  int n = 0;
  for (int y = 0; y < img.height(); ++y) {
    for (int x = x0; x < x1; ++x) n += Near(img.At(x, y), c, tol);
  }
  return n;
}

// Well-formed XML, as far as an SVG of ours goes: every tag closes in order, text has no raw
// '<' or '&' outside an entity.
bool WellFormed(const std::string& xml, std::string* why) {
  std::vector<std::string> open;
  for (std::size_t i = 0; i < xml.size();) {
    if (xml[i] == '&') {
      const auto semi = xml.find(';', i);
      const std::string ent = xml.substr(i, semi == std::string::npos ? 0 : semi - i + 1);
      if (ent != "&amp;" && ent != "&lt;" && ent != "&gt;" && ent != "&quot;" && ent != "&apos;" &&
          ent.rfind("&#", 0) != 0) {
        *why = "bad entity at " + std::to_string(i);
        return false;
      }
      i = semi + 1;
      continue;
    }
    if (xml[i] != '<') {
      ++i;
      continue;
    }
    const auto end = xml.find('>', i);
    if (end == std::string::npos) {
      *why = "unclosed tag at " + std::to_string(i);
      return false;
    }
    std::string tag = xml.substr(i + 1, end - i - 1);
    i = end + 1;
    if (tag.empty() || tag[0] == '?' || tag[0] == '!') continue;
    if (tag[0] == '/') {
      if (open.empty() || open.back() != tag.substr(1)) {
        *why = "</" + tag.substr(1) + "> closes " + (open.empty() ? "nothing" : open.back());
        return false;
      }
      open.pop_back();
      continue;
    }
    if (tag.back() == '/') continue;
    open.push_back(tag.substr(0, tag.find_first_of(" \t\n")));
  }
  if (!open.empty()) *why = "<" + open.back() + "> never closes";
  return open.empty();
}

// An exported folder: index.md and index.html name every PNG; every PNG is not blank (at least
// 1 % of its pixels differ from its corner's background); every SVG is well-formed. Returns the
// PNG and SVG counts.
std::pair<int, int> CheckExport(const std::filesystem::path& dir) {
  const std::string md = Slurp(dir / "index.md");
  const std::string html = Slurp(dir / "index.html");
  EXPECT_EQ(md.rfind("# ", 0), 0u) << dir;
  std::string why;
  EXPECT_TRUE(WellFormed(html.substr(std::min(html.size(), html.find("<html"))), &why)) << why;
  int pngs = 0, svgs = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (e.path().extension() == ".png") {
      ++pngs;
      EXPECT_NE(md.find("(" + name + ")"), std::string::npos) << name << " is not in index.md";
      EXPECT_NE(html.find("src=\"" + name + "\""), std::string::npos) << name;
      auto img = LoadPng(e.path());
      EXPECT_TRUE(img.ok()) << name;
      if (!img.ok()) continue;
      const Rgba bg = img->At(img->width() - 1, img->height() - 1);
      long long other = 0;
      for (int y = 0; y < img->height(); ++y) {
        for (int x = 0; x < img->width(); ++x) other += !(img->At(x, y) == bg);
      }
      EXPECT_GT(other * 100, 1LL * img->width() * img->height()) << name << " is blank";
    }
    if (e.path().extension() == ".svg") {
      ++svgs;
      const std::string svg = Slurp(e.path());
      EXPECT_TRUE(WellFormed(svg, &why)) << name << ": " << why;
      EXPECT_NE(svg.find("<svg xmlns=\"http://www.w3.org/2000/svg\""), std::string::npos) << name;
      EXPECT_NE(md.find("(" + name + ")"), std::string::npos) << name << " is not in index.md";
    }
  }
  return {pngs, svgs};
}

nlohmann::json Walk(const std::filesystem::path& lecture, const TempDir& t,
                    const std::vector<std::string>& more = {}) {
  std::vector<std::string> args = {
      "--config-dir", (t / "cfg").string(), "--size",      "1600x1000",
      "--lecture",    lecture.string(),     "--walk-json", (t / "walk.json").string()};
  args.insert(args.end(), more.begin(), more.end());
  const auto r = RunApp(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(t / "walk.json");
  if (!in.good()) return {};
  return nlohmann::json::parse(in);
}

// Every file of one folder is byte-identical to its namesake in the other, and neither has a
// file the other lacks.
void ExpectSameFiles(const std::filesystem::path& a, const std::filesystem::path& b) {
  std::set<std::string> in_a, in_b;
  for (const auto& e : std::filesystem::directory_iterator(a)) in_a.insert(e.path().filename());
  for (const auto& e : std::filesystem::directory_iterator(b)) in_b.insert(e.path().filename());
  EXPECT_EQ(in_a, in_b);
  for (const std::string& name : in_a) {
    if (!in_b.count(name)) continue;
    EXPECT_TRUE(Slurp(a / name) == Slurp(b / name)) << name << " differs between the runs";
  }
}

std::vector<std::string> ShippedLectures() {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(kLectures)) {
    if (e.path().extension() == ".toml") names.push_back(e.path().stem().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// One per seed deck, and issue 53's asynchronous copies and tensor cores (beyond the decks, on
// the examples' programs).
TEST(GuiLecture, OneLecturePerSeedDeck) {
  EXPECT_EQ(ShippedLectures(), (std::vector<std::string>{
                                   "async-copies", "kirk-hwu-ch4", "matmul-tiles", "memory-model",
                                   "optimizing-cuda", "programming-model", "tensor-cores"}));
}

class ShippedLecture : public testing::TestWithParam<std::string> {};

// Walked with the Right key, every step runs and shows its panels; the notes export has an
// index naming every figure, non-blank PNGs (one per panel shown), well-formed SVGs, and a
// second export of the same file is byte-identical.
TEST_P(ShippedLecture, WalksEveryStepAndExportsTheSameNotesTwice) {
  REQUIRE_XVFB();
  const std::filesystem::path file = kLectures / (GetParam() + ".toml");
  TempDir t("walk-" + GetParam());
  const nlohmann::json w = Walk(file, t, {"--export", (t / "a").string()});
  ASSERT_TRUE(w.contains("steps")) << file;
  ASSERT_EQ(w["steps"].size(), w["steps_in_file"].get<std::size_t>()) << file;
  for (std::size_t i = 0; i < w["steps"].size(); ++i) {
    const nlohmann::json& s = w["steps"][i];
    EXPECT_EQ(s["index"], i);
    // Only the barrier in one branch is meant to fail: the emulator refuses it, saying why.
    const std::string error = s["error"];
    if (s["variant"] != "divergent-barrier")
      EXPECT_EQ(error, "") << "step " << i + 1 << ": " << s["title"];
    else
      EXPECT_NE(error.find("cannot pass its barrier"), std::string::npos) << error;
    EXPECT_FALSE(s["panels_visible"].empty()) << "step " << i + 1;
  }
  std::size_t panels = 0;
  for (const nlohmann::json& s : w["steps"]) panels += s["panels_visible"].size();
  const auto [pngs, svgs] = CheckExport(t / "a");
  EXPECT_EQ(static_cast<std::size_t>(pngs), panels);
  EXPECT_GE(svgs, 1) << "every shipped lecture has a figure with data behind it";
  // The second export, a fresh process with a fresh config folder.
  const auto r = RunApp({"--config-dir", (t / "cfg2").string(), "--size", "1600x1000", "--lecture",
                         file.string(), "--export", (t / "b").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ExpectSameFiles(t / "a", t / "b");
  if (GetParam() != "optimizing-cuda") return;
  // One lecture's notes by hand, from optimizing-cuda.toml: 14 steps, 8 of two panels and 6 of
  // one (the compare view): 22 PNGs at 2x; SVGs for the coalescing strips (steps 1, 3, 5), the
  // bank heatmap (7), the timing plots (3, 10) and the occupancy graphs (11).
  const std::string md = Slurp(t / "a" / "index.md");
  const std::string html = Slurp(t / "a" / "index.html");
  EXPECT_EQ(md.rfind("# Optimizing CUDA: memory first\n", 0), 0u);
  EXPECT_NE(md.find("## 6. Transpose through a shared-memory tile"), std::string::npos);
  EXPECT_NE(md.find("- global stores: 32 \u2192 4 sectors per request"), std::string::npos);
  EXPECT_NE(html.find("<h2>8. Padding the tile by one column</h2>"), std::string::npos);
  // Step 9, the what-if: the run as written (A) beside its swizzled records (B), not run again.
  const std::size_t nine = md.find("## 9. What if the tile were swizzled instead? (not run again)");
  ASSERT_NE(nine, std::string::npos);
  EXPECT_NE(md.find("what-if: Swizzle<5,0,5> on tile (not run)*", nine), std::string::npos);
  EXPECT_NE(md.find("- shared loads: 32-way \u2192 1-way bank conflicts", nine), std::string::npos);
  EXPECT_EQ(pngs, 22);
  EXPECT_GE(svgs, 6);
}

INSTANTIATE_TEST_SUITE_P(GuiLecture, ShippedLecture, testing::ValuesIn(ShippedLectures()),
                         [](const testing::TestParamInfo<std::string>& p) {
                           std::string name = p.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

// The x-range [lo, hi] of `c`'s pixels in rows y0..y1 at x >= x_from; {-1, -1} when none.
std::pair<int, int> SpanNear(const Image& img, Rgba c, int x_from, int y0, int y1) {
  int lo = -1, hi = -1;
  for (int y = std::max(0, y0); y <= std::min(img.height() - 1, y1); ++y) {
    for (int x = x_from; x < img.width(); ++x) {
      if (!Near(img.At(x, y), c, 6)) continue;
      if (lo < 0 || x < lo) lo = x;
      hi = std::max(hi, x);
    }
  }
  return {lo, hi};
}

// A hazard selected from a lecture step (select = { hazard = 1 }), exercise 4.10 at BLOCK_WIDTH
// 4. By hand (as SessionHazard's unit test): the example is thread (1,0,0)'s store of tile word
// 1 (byte 4, bank 1) and thread (0,1,0)'s load of it, both in block 0.
TEST(GuiLecture, ASelectedHazardMarksBothThreadsAndItsBank) {
  REQUIRE_XVFB();
  TempDir t("hazard");
  {
    std::ofstream out(t / "hazard.toml");
    const std::string step =
        "lesson = \"races\"\nvariant = \"block-transpose\"\nparams = { block_width = 4 }\n";
    out << "title = \"Hazard\"\n"
        << "[[step]]\ntitle = \"load\"\n"
        << step << "panels = [\"banks\", \"grid\"]\nselect = { hazard = 1 }\n"
        << "[[step]]\ntitle = \"store\"\n"
        << step << "panels = [\"banks\"]\nselect = { hazard = 1, access = \"first\" }\n"
        << "[[step]]\ntitle = \"none\"\n"
        << step << "panels = [\"banks\", \"grid\"]\n";
  }
  const nlohmann::json w = Walk(t / "hazard.toml", t, {"--export", (t / "out").string()});
  ASSERT_EQ(w["steps"].size(), 3u);
  auto load = LoadPng(t / "out" / "step-01-banks.png");
  auto store = LoadPng(t / "out" / "step-02-banks.png");
  auto none = LoadPng(t / "out" / "step-03-banks.png");
  auto grid = LoadPng(t / "out" / "step-01-grid.png");
  auto grid_none = LoadPng(t / "out" / "step-03-grid.png");
  ASSERT_TRUE(load.ok() && store.ok() && none.ok() && grid.ok() && grid_none.ok());
  const Rgba raw = {240, 120, 90, 255};  // the RAW colour (and the conflict red)

  // Without a selection neither view has the colour: a 4 x 4 tile read by column is 1-way.
  EXPECT_EQ(CountNear(*none, raw, 6, 0, none->width()), 0);
  EXPECT_EQ(CountNear(*grid_none, raw, 6, 0, grid_none->width()), 0);

  // The grid: 2 x 2 blocks of 4 x 4 threads, 8 x 8 cells, drawn where warp 0's orange
  // (230,159,0) is (blocks 1-3 span the whole grid). Every red pixel lies in cell (1,0) or
  // (0,1) of block 0, and both have some.
  const Rgba orange = {230, 159, 0, 255};
  int gx0 = grid->width(), gy0 = grid->height(), gx1 = -1, gy1 = -1;
  for (int y = 0; y < grid->height(); ++y) {
    for (int x = 0; x < grid->width(); ++x) {
      if (!Near(grid->At(x, y), orange, 2)) continue;
      gx0 = std::min(gx0, x), gy0 = std::min(gy0, y), gx1 = std::max(gx1, x),
      gy1 = std::max(gy1, y);
    }
  }
  ASSERT_GT(gx1, gx0);
  const double cell_w = (gx1 - gx0 + 1) / 8.0, cell_h = (gy1 - gy0 + 1) / 8.0;
  std::set<std::pair<int, int>> cells;
  for (int y = 0; y < grid->height(); ++y) {
    for (int x = 0; x < grid->width(); ++x) {
      if (Near(grid->At(x, y), raw, 6))
        cells.insert({static_cast<int>((x - gx0) / cell_w), static_cast<int>((y - gy0) / cell_h)});
    }
  }
  EXPECT_EQ(cells, (std::set<std::pair<int, int>>{{1, 0}, {0, 1}}));

  // The banks view's wiring: 32 lane boxes of warp 0's orange in a row, one every `bw` pixels
  // from x0 - 1 (a box is bw - 2 wide), and the 32 banks below on the same columns. The lane
  // box with a red outline is the hazard's lane; the red box at the bottom its bank. The load
  // is lane 4's, the store lane 1's; both are bank 1.
  const auto wiring = [&](const Image& img) -> std::pair<int, int> {
    int y_lane = -1, x0 = -1, x1 = -1;
    for (int y = 0; y < img.height() && y_lane < 0; ++y) {
      int n = 0, lo = img.width(), hi = -1;
      for (int x = 0; x < img.width(); ++x) {
        if (!Near(img.At(x, y), orange, 2)) continue;
        ++n, lo = std::min(lo, x), hi = std::max(hi, x);
      }
      if (n > img.width() / 4) y_lane = y, x0 = lo, x1 = hi;
    }
    if (y_lane < 0) return {-1, -1};
    const double bw = (x1 - x0 + 3) / 32.0, ox = x0 - 1;
    const auto column = [&](std::pair<int, int> span) {
      return span.first < 0 ? -1 : static_cast<int>(((span.first + span.second) / 2.0 - ox) / bw);
    };
    const int lane = column(SpanNear(img, raw, x0 - 4, y_lane + 4, y_lane + 4));
    int bottom = img.height() - 1;
    while (bottom > y_lane && SpanNear(img, raw, x0 - 4, bottom, bottom).first < 0) --bottom;
    return {lane, column(SpanNear(img, raw, x0 - 4, bottom - 1, bottom))};
  };
  EXPECT_EQ(wiring(*load), std::make_pair(4, 1)) << "(lane, bank)";
  EXPECT_EQ(wiring(*store), std::make_pair(1, 1)) << "(lane, bank)";
}

TEST(GuiLecture, CompareShowsANaiveAgainstAPaddedTransposeAndSaysWhatDiffers) {
  REQUIRE_XVFB();
  TempDir t("compare");
  {
    std::ofstream out(t / "compare.toml");
    out << "title = \"Compare\"\n[[step]]\ntitle = \"naive | padded\"\nlesson = \"transpose\"\n"
           "variant = \"padded\"\nparams = { width = 64, height = 64 }\npanels = [\"compare\"]\n"
           "compare = { variant = \"naive\", view = \"banks\" }\n";
  }
  const nlohmann::json w = Walk(t / "compare.toml", t, {"--export", (t / "out").string()});
  ASSERT_EQ(w["steps"].size(), 1u);
  // Hand figures (as RunCompare's unit test): naive's column stores need 32 sectors, the padded
  // tile's rows 4; naive has no shared memory, padded a 32 x 33 float tile (4,224 B) read
  // without conflict, and one __syncthreads().
  const std::vector<std::string> expected = {"global stores: 32 \u2192 4 sectors per request",
                                             "shared loads: none \u2192 1-way bank conflicts",
                                             "shared stores: none \u2192 1-way bank conflicts",
                                             "shared memory: 0 B \u2192 4,224 B per block",
                                             "__syncthreads() in the kernel: 0 \u2192 1"};
  const auto got = w["steps"][0]["differences"].get<std::vector<std::string>>();
  ASSERT_GE(got.size(), expected.size());
  EXPECT_EQ(std::vector<std::string>(got.begin(), got.begin() + 5), expected);
  // The picture: A (left half) has no shared access, so no verdict; B (right half) says "no
  // conflict" in large green (110,200,120) and draws its heatmap; neither says a conflict in red
  // (240,120,90).
  auto img = LoadPng(t / "out" / "step-01-compare.png");
  ASSERT_TRUE(img.ok());
  const int half = img->width() / 2;
  const Rgba green = {110, 200, 120, 255}, red = {240, 120, 90, 255};
  EXPECT_EQ(CountNear(*img, green, 6, 0, half), 0);
  EXPECT_GT(CountNear(*img, green, 6, half, img->width()), 1000);
  EXPECT_EQ(CountNear(*img, red, 6, 0, img->width()), 0);
}

TEST(GuiLecture, AMistakeInTheFileNamesItsLineAndField) {
  REQUIRE_XVFB();
  TempDir t("bad");
  {
    std::ofstream out(t / "bad.toml");
    out << "title = \"Bad\"\n[[step]]\ntitle = \"x\"\nlesson = \"transpose\"\n"
           "panels = [\"coalesing\"]\n";
  }
  const auto r = RunApp({"--config-dir", (t / "cfg").string(), "--lecture",
                         (t / "bad.toml").string(), "--walk-json", (t / "w.json").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("bad.toml:5: step 1 (\"x\"): panels: unknown panel 'coalesing'"),
            std::string::npos)
      << r.err;
}

}  // namespace
}  // namespace ws
