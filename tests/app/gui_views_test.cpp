// One test per view: the app opens the view on a fixed lesson and parameter set, saves it with
// `--screenshot --panel NAME`, and the test checks what the view shows: its state as numbers
// (--layout-json, Panel::Shown) where the panel says it, and the pixels of its own colours.
// Colours are the views' own (viz/palette.h): warp 0 (230,159,0); the heat ramp's stops
// (68,1,84) (59,82,139) (33,145,140) (94,201,98) (253,231,37), worked out below where used.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "gui_test_util.h"
#include "warpscope/viz/image.h"

namespace ws {
namespace {

using test::RunApp;
using test::TempDir;

#define REQUIRE_XVFB() \
  if (!test::HaveXvfb()) GTEST_SKIP() << "xvfb-run is not installed (Debian package xvfb)"

bool Near(Rgba a, Rgba b, int tol) {
  return std::abs(a.r - b.r) <= tol && std::abs(a.g - b.g) <= tol && std::abs(a.b - b.b) <= tol;
}

// Saves `panel` of the app started with `args` (1280x800, fresh config) and loads it.
Image Shot(const std::string& panel, std::vector<std::string> args) {
  static int n = 0;
  TempDir t("view-" + panel + "-" + std::to_string(++n));
  const auto png = t / "shot.png";
  args.insert(args.end(), {"--config-dir", (t / "cfg").string(), "--size", "1280x800", "--panel",
                           panel, "--screenshot", png.string()});
  const auto r = RunApp(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  auto img = LoadPng(png);
  EXPECT_TRUE(img.ok()) << (img.ok() ? "" : img.status().message());
  return img.ok() ? *img : Image();
}

// What `panel` shows after the app started with `args` ran its frames: its state as the
// app writes it (--layout-json, "panels" -> id -> "state"), beside a screenshot of the panel.
nlohmann::json PanelState(const std::string& panel, std::vector<std::string> args) {
  static int n = 0;
  TempDir t("state-" + panel + "-" + std::to_string(++n));
  args.insert(args.end(), {"--config-dir", (t / "cfg").string(), "--size", "1280x800", "--panel",
                           panel, "--screenshot", (t / "shot.png").string(), "--layout-json",
                           (t / "layout.json").string()});
  const auto r = RunApp(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(t / "layout.json");
  const auto j = nlohmann::json::parse(in, nullptr, false);
  if (!j.is_object() || !j["panels"].contains(panel)) return {};
  return j["panels"][panel].value("state", nlohmann::json::object());
}

int Count(const Image& img, const std::function<bool(Rgba)>& pred) {
  int n = 0;
  for (int y = 0; y < img.height(); ++y) {
    for (int x = 0; x < img.width(); ++x) n += pred(img.At(x, y)) ? 1 : 0;
  }
  return n;
}

int CountNear(const Image& img, Rgba c, int tol) {
  return Count(img, [&](Rgba p) { return Near(p, c, tol); });
}

constexpr Rgba kWarp0 = {230, 159, 0, 255};
constexpr Rgba kIdle = {70, 70, 74, 255};

TEST(GuiViews, GridGreysTheThreadsOutsideThePicture) {
  REQUIRE_XVFB();
  // 76x62 pixels in 16x16 blocks: 80x64 threads, 4 columns and 2 rows of them idle (grey).
  // 64x64: every thread has a pixel, nothing grey.
  const Image some =
      Shot("grid", {"--lesson", "picture", "--set", "width=76", "--set", "height=62"});
  const Image none =
      Shot("grid", {"--lesson", "picture", "--set", "width=64", "--set", "height=64"});
  const int idle_some = CountNear(some, kIdle, 1), idle_none = CountNear(none, kIdle, 1);
  EXPECT_GT(idle_some, 1000);
  EXPECT_GT(idle_some, 10 * idle_none + 100) << idle_some << " vs " << idle_none;
  // Warp 0 (the first two rows of every block) is drawn in both.
  EXPECT_GT(CountNear(some, kWarp0, 3), 1000);
  EXPECT_GT(CountNear(none, kWarp0, 3), 1000);
}

// Most runs of pixels that fit `pred` on one row of `img`.
int MostRunsOnARow(const Image& img, const std::function<bool(Rgba)>& pred) {
  int best = 0;
  for (int y = 0; y < img.height(); ++y) {
    int runs = 0;
    bool in = false;
    for (int x = 0; x < img.width(); ++x) {
      const bool hit = pred(img.At(x, y));
      if (hit && !in) ++runs;
      in = hit;
    }
    best = std::max(best, runs);
  }
  return best;
}

// The left or right half of a picture (the gallery puts its exhibits two to a row).
Image Half(const Image& img, int half) {
  return img.Crop({half * img.width() / 2, 0, img.width() / 2, img.height()});
}

// Most runs of transaction-coloured pixels on one row: the number of transactions drawn.
int TransactionBars(const Image& img) {
  // Heat(0.25 + 0.6 k/3), k = 0..3: t*4 = 1.0, 1.8, 2.6, 3.4 between the ramp's stops:
  // (59,82,139); (59,82,139)+0.8*((33,145,140)-(59,82,139)) = (38,132,140);
  // (33,145,140)+0.6*((94,201,98)-(33,145,140)) = (70,179,115);
  // (94,201,98)+0.4*((253,231,37)-(94,201,98)) = (158,213,74).
  const Rgba bars[] = {
      {59, 82, 139, 255}, {38, 132, 140, 255}, {70, 179, 115, 255}, {158, 213, 74, 255}};
  int best = 0;
  for (int y = 0; y < img.height(); ++y) {
    int runs = 0;
    bool in = false;
    for (int x = 0; x < img.width(); ++x) {
      bool hit = false;
      for (Rgba c : bars) hit |= Near(img.At(x, y), c, 2);
      if (hit && !in) ++runs;
      in = hit;
    }
    best = std::max(best, runs);
  }
  return best;
}

TEST(GuiViews, CoalescingStripShowsFourSectorsAlignedAndFiveOffset) {
  REQUIRE_XVFB();
  // 32 lanes x 4 B from the buffer start: 128 B, sectors 0-3. Offset by one float: bytes 4-131,
  // sectors 0-4 (the slides' misaligned copy).
  const Image aligned = Shot("coalescing", {"--lesson", "offset-copy", "--set", "offset=0"});
  const Image offset = Shot("coalescing", {"--lesson", "offset-copy", "--set", "offset=1"});
  EXPECT_EQ(TransactionBars(aligned), 4);
  EXPECT_EQ(TransactionBars(offset), 5);
}

// The view gallery (viz/src/gallery_panel.cpp) draws the views from runs built in code, so these
// expectations are exact. Its first row: banks with a 32-way conflict (left) and without (right);
// its second: an aligned copy (left) and one offset by a float (right).
TEST(GuiGallery, AThirtyTwoWayConflictDrawsThirtyTwoLinesIntoBankZero) {
  REQUIRE_XVFB();
  const Image gallery = Shot("gallery", {});
  const Image conflict = Half(gallery, 0), spread = Half(gallery, 1);
  // A conflicting lane's line: IM_COL32(240,120,90,200) over the panel's dark background, about
  // (195,101,78); the lanes' own colour is warp 0's (230,159,0), the text's is not this red.
  const auto line = [](Rgba p) { return Near(p, {195, 101, 78, 255}, 14); };
  EXPECT_EQ(MostRunsOnARow(conflict, line), 32);  // one line from each lane...
  EXPECT_EQ(MostRunsOnARow(spread, line), 0);     // ...and none without a conflict
  // ...all into bank 0: 32 words there, Heat(DegreeHeat(32)) = Heat(1) = the ramp's top
  // (253,231,37), in the one lit bank of the wiring (and the heatmap's one lit cell).
  const auto top = [](Rgba p) { return Near(p, {253, 231, 37, 255}, 3); };
  EXPECT_EQ(MostRunsOnARow(conflict, top), 1);
  EXPECT_EQ(MostRunsOnARow(spread, top), 0);
  // Without a conflict every bank holds one word: Heat(0.15) = (63,50,117) in all 32 banks.
  const auto one = [](Rgba p) { return Near(p, {63, 50, 117, 255}, 3); };
  EXPECT_EQ(MostRunsOnARow(spread, one), 32);
  EXPECT_EQ(MostRunsOnARow(conflict, one), 0);
}

TEST(GuiGallery, AnOffsetCopyDrawsFiveTransactionBarsAndAnAlignedOneFour) {
  REQUIRE_XVFB();
  const Image gallery = Shot("gallery", {});
  // 32 lanes x 4 B: bytes 0-127 are sectors 0-3; bytes 4-131 are sectors 0-4.
  EXPECT_EQ(TransactionBars(Half(gallery, 0)), 4);
  EXPECT_EQ(TransactionBars(Half(gallery, 1)), 5);
}

TEST(GuiViews, BanksHeatmapTurnsAConflictIntoAnEvenSpreadWithPadding) {
  REQUIRE_XVFB();
  // transpose coalesced reads a tile column: all 32 lanes in one bank, 32 words: the ramp's top
  // (253,231,37) in one cell per request. Padded: one word per bank: Heat(0.15), t*4 = 0.6:
  // (68,1,84)+0.6*((59,82,139)-(68,1,84)) = (63,50,117) in every cell.
  const Image coalesced = Shot("banks", {"--lesson", "transpose", "--variant", "coalesced"});
  const Image padded = Shot("banks", {"--lesson", "transpose", "--variant", "padded"});
  const Rgba top = {253, 231, 37, 255}, one = {63, 50, 117, 255};
  const int hot_c = CountNear(coalesced, top, 3), hot_p = CountNear(padded, top, 3);
  const int even_c = CountNear(coalesced, one, 3), even_p = CountNear(padded, one, 3);
  EXPECT_GT(hot_c, 1000);
  EXPECT_LT(hot_p, 50);
  EXPECT_GT(even_p, 10000);
  EXPECT_LT(even_c, 200);
}

TEST(GuiViews, LayoutViewMarksTheRunsLayout) {
  REQUIRE_XVFB();
  const Image row_major =
      Shot("layout", {"--lesson", "texture-2d", "--variant", "texture", "--set", "layout=0"});
  const Image morton =
      Shot("layout", {"--lesson", "texture-2d", "--variant", "texture", "--set", "layout=1"});
  // The same three grids side by side (row-major, Z-order, tiled); the run's grid has its title
  // in RunMark's colour, ImVec4(0.95, 0.75, 0.25) = (242,191,64), and no other text has it.
  // Where those pixels sit says which grid is marked: the first third, then the second.
  const auto third = [](const Image& img) {
    long long sum = 0, n = 0;
    for (int y = 0; y < img.height(); ++y) {
      for (int x = 0; x < img.width(); ++x) {
        if (Near(img.At(x, y), {242, 191, 64, 255}, 25)) sum += x, ++n;  // with its edges
      }
    }
    EXPECT_GT(n, 20) << "no marked title";
    return n > 0 ? static_cast<int>(3 * (sum / n) / img.width()) : -1;
  };
  EXPECT_EQ(third(row_major), 0);
  EXPECT_EQ(third(morton), 1);
}

TEST(GuiViews, BarrierTimelineShowsWaitingOnlyWithUnevenWork) {
  REQUIRE_XVFB();
  // Waiting is drawn (70,72,82). Skew 0: every thread arrives together, nothing to wait for.
  // Skew 100: thread i works 100 i units, so the early warps wait most of the timeline.
  const Rgba wait = {70, 72, 82, 255};
  const Image even =
      Shot("barriers", {"--lesson", "barrier", "--set", "threads=128", "--set", "skew=0"});
  const Image uneven =
      Shot("barriers", {"--lesson", "barrier", "--set", "threads=128", "--set", "skew=100"});
  const int w_even = CountNear(even, wait, 1), w_uneven = CountNear(uneven, wait, 1);
  EXPECT_GT(w_uneven, 5000);
  EXPECT_LT(w_even * 10, w_uneven) << w_even << " vs " << w_uneven;
}

TEST(GuiViews, TimingPlotGainsAPointPerSliderMove) {
  REQUIRE_XVFB();
  // One run: a single marker. Three slider moves (stride 4, 8, 16): four points joined by a line
  // in the first series' colour, warp 0's (230,159,0).
  const Image one = Shot("timing", {"--lesson", "stride-copy", "--set", "stride=2"});
  const Image four =
      Shot("timing", {"--lesson", "stride-copy", "--set", "stride=2", "--drag", "stride=4@2",
                      "--drag", "stride=8@3", "--drag", "stride=16@4"});
  // Below the legend (the plot's lower 55 %), the columns that hold the colour: one marker is
  // ~13 px wide; four points from stride 2 to 16 on a log axis, joined, span the plot's width
  // (~260 of the panel's ~400 px at 1280x800).
  const auto columns = [](const Image& img) {
    int n = 0;
    for (int x = 0; x < img.width(); ++x) {
      bool hit = false;
      for (int y = img.height() * 45 / 100; y < img.height() && !hit; ++y)
        hit = Near(img.At(x, y), kWarp0, 20);
      n += hit;
    }
    return n;
  };
  const int c1 = columns(one), c4 = columns(four);
  EXPECT_LT(c1, 30);
  EXPECT_GT(c4, c1 + 150) << c1 << " vs " << c4;
}

TEST(GuiViews, SweepDrawsTheStrideCurveInOneClick) {
  REQUIRE_XVFB();
  // The Sweep button's path (--sweep): stride-copy's stride over 1, 2, 4, ..., 64 (SweepValues),
  // then the timing view's CSV. A warp's 32 floats at stride s span 128 s bytes: 4 s sectors of
  // 32 bytes, at most 32 (one per lane) from stride 8 on: 4, 8, 16, 32, 32, 32, 32.
  TempDir t("sweep");
  const auto r =
      RunApp({"--lesson", "stride-copy", "--focus", "timing", "--sweep", "stride", "--timing-csv",
              t.path().string(), "--config-dir", (t / "cfg").string(), "--frames", "4"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream csv(t / "warpscope-timing-stride-copy.csv");
  ASSERT_TRUE(csv.good());
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(
      line,
      "lesson,variant,backend,kind,stride,threads,blocks,ms,gbps,sectors_per_request,own_size_ms");
  std::map<long long, std::string> sectors;  // stride -> sectors per request (the last row)
  int rows = 0;
  while (std::getline(csv, line)) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, ',');) cells.push_back(c);
    ASSERT_EQ(cells.size(), 11u) << line;
    sectors[std::stoll(cells[4])] = cells[9];
    ++rows;
  }
  EXPECT_EQ(rows, 8);  // the first run (stride 2), then the sweep's 7
  const std::map<long long, std::string> expected = {{1, "4"},   {2, "8"},   {4, "16"}, {8, "32"},
                                                     {16, "32"}, {32, "32"}, {64, "32"}};
  EXPECT_EQ(sectors, expected);
}

TEST(GuiViews, SourceTintsEveryLineWithASite) {
  REQUIRE_XVFB();
  // naive: its two global sites share line 18; coalesced: sites on two lines (36 and 40). Site
  // lines are tinted (80,90,110) at alpha 90 over (30,32,38) = (48,52,63), the selected one
  // (80,120,190) at alpha 150 = (59,84,127).
  const Image naive = Shot("source", {"--lesson", "transpose", "--variant", "naive"});
  const Image coalesced = Shot("source", {"--lesson", "transpose", "--variant", "coalesced"});
  auto tinted = [](const Image& img) {
    return CountNear(img, {48, 52, 63, 255}, 2) + CountNear(img, {59, 84, 127, 255}, 2);
  };
  const int t1 = tinted(naive), t2 = tinted(coalesced);
  EXPECT_GT(t1, 1000);
  EXPECT_GT(t2 * 2, t1 * 3) << t1 << " vs " << t2;  // two lines against one
}

TEST(GuiViews, RacingLinesAreTintedAndTheHazardsViewListsThem) {
  REQUIRE_XVFB();
  // Exercise 4.10 (BLOCK_WIDTH 4): lines 18 (the tile's store) and 19 (its read) race. A racing
  // line is tinted (240,120,90) at alpha 60 over (30,32,38): (79,53,50). The coalesced transpose
  // has its barrier: no line is tinted so.
  const Rgba racing = {79, 53, 50, 255};
  const Image races = Shot("source", {"--lesson", "races", "--variant", "block-transpose"});
  const Image clean = Shot("source", {"--lesson", "transpose", "--variant", "coalesced"});
  EXPECT_GT(CountNear(races, racing, 2), 1000);
  EXPECT_EQ(CountNear(clean, racing, 2), 0);
  // The hazards view: the count in large red (240,120,90), or "no hazards found" in large green
  // (110,200,120).
  const Rgba red = {240, 120, 90, 255}, green = {110, 200, 120, 255};
  const Image listed = Shot("hazards", {"--lesson", "races", "--variant", "block-transpose"});
  const Image none = Shot("hazards", {"--lesson", "transpose", "--variant", "coalesced"});
  EXPECT_GT(CountNear(listed, red, 6), 300);
  EXPECT_EQ(CountNear(listed, green, 6), 0);
  EXPECT_GT(CountNear(none, green, 6), 300);
  EXPECT_EQ(CountNear(none, red, 6), 0);
}

TEST(GuiViews, LessonPanelShowsTheCheckAndTheNewLesson) {
  REQUIRE_XVFB();
  // Each lesson's own run, checked against the CPU: "Output checked: correct" in green.
  const nlohmann::json a = PanelState("lesson", {"--lesson", "offset-copy"});
  const nlohmann::json b = PanelState("lesson", {"--lesson", "transpose"});
  EXPECT_EQ(a.value("lesson", ""), "offset-copy");
  EXPECT_EQ(b.value("lesson", ""), "transpose");
  EXPECT_EQ(b.value("variant", ""), "naive");  // the first variant
  EXPECT_EQ(a.value("check", ""), "correct");
  EXPECT_EQ(b.value("check", ""), "correct");
  // 256 x 256: 65,536 elements.
  EXPECT_EQ(b.value("check_message", ""),
            "transpose naive: all 65536 elements match the CPU result");
  const Image shot = Shot("lesson", {"--lesson", "transpose"});  // the green text is drawn
  EXPECT_GT(CountNear(shot, {153, 230, 153, 255}, 20), 50);
}

TEST(GuiViews, LessonPanelGreysOutTheParametersAVariantIgnores) {
  REQUIRE_XVFB();
  // texture-2d has 8 sliders (width, height, block and the tiled layout's four) and the layout
  // combo. Its global variant reads row-major memory and ignores the layout's five: 3 sliders
  // keep the slider grab's full colour (61,133,224), ImGui's dark style, and 5 are greyed (drawn
  // at DisabledAlpha). Each slider is a row: count the bands of rows that hold that colour.
  const auto sliders = [](const Image& img) {
    int bands = 0;
    bool in = false;
    for (int y = 0; y < img.height(); ++y) {
      int hits = 0;
      for (int x = 0; x < img.width(); ++x) hits += Near(img.At(x, y), {61, 133, 224, 255}, 6);
      const bool band = hits >= 4;  // a grab is several pixels wide; a radio edge is not
      if (band && !in) ++bands;
      in = band;
    }
    return bands;
  };
  EXPECT_EQ(sliders(Shot("lesson", {"--lesson", "texture-2d", "--variant", "global"})), 3);
  EXPECT_EQ(sliders(Shot("lesson", {"--lesson", "texture-2d", "--variant", "texture"})), 7);
}

TEST(GuiViews, OccupancyFollowsTheLessonsSliders) {
  REQUIRE_XVFB();
  // The slides' G80 example, 192 threads a block: 768 / 192 = 4 blocks by threads. With 20
  // registers a block allocates 192 x 20 = 3,840 (15 units of 256), 8,192 / 3,840
  // = 2 blocks, 12 of 24 warps: 50 %, registers bind. With 10: 1,920 -> 2,048 allocated, 4
  // blocks, 24 warps: 100 %.
  const nlohmann::json half =
      PanelState("occupancy", {"--lesson", "occupancy", "--set", "registers=20"});
  EXPECT_EQ(half.value("source", ""), "lesson");
  EXPECT_EQ(half.value("threads", ""), "192");
  EXPECT_EQ(half.value("registers", ""), "20");
  EXPECT_EQ(half.value("occupancy_percent", ""), "50");
  EXPECT_EQ(half.value("active_blocks", ""), "2");
  EXPECT_EQ(half.value("limiter", ""), "registers");
  const nlohmann::json full =
      PanelState("occupancy", {"--lesson", "occupancy", "--set", "registers=10"});
  EXPECT_EQ(full.value("registers", ""), "10");
  EXPECT_EQ(full.value("occupancy_percent", ""), "100");
  EXPECT_EQ(full.value("active_blocks", ""), "4");
}

TEST(GuiViews, PlaybackStepsThroughTheBlock) {
  REQUIRE_XVFB();
  // transpose coalesced, 256 x 256 in 32 x 32 tiles: block 0 is 32 warps, each making 4 requests
  // (global load, shared store, shared load, global store) around one barrier: 129 steps.
  const nlohmann::json idle =
      PanelState("playback", {"--lesson", "transpose", "--variant", "coalesced"});
  EXPECT_EQ(idle.value("steps", ""), "129");
  EXPECT_EQ(idle.value("step", ""), "0");  // not stepping
  EXPECT_EQ(idle.value("playing", ""), "false");
  // P at frame 2 plays from step 1; P at frame 5 pauses there (a step lasts 0.5 s; the three
  // frames between take a few tens of milliseconds). Step 1 is warp 0's first request, at 0.
  const nlohmann::json paused =
      PanelState("playback", {"--lesson", "transpose", "--variant", "coalesced", "--press", "P@2",
                              "--press", "P@5", "--frames", "8"});
  EXPECT_EQ(paused.value("playing", ""), "false");
  EXPECT_EQ(paused.value("step", ""), "1");
  EXPECT_EQ(paused.value("kind", ""), "request");
  EXPECT_EQ(paused.value("warp", ""), "0");
  EXPECT_EQ(paused.value("time", ""), "0");
}

}  // namespace
}  // namespace ws

namespace ws {
namespace {

TEST(GuiViews, AShippedGpuTraceOpensLikeALiveRun) {
  REQUIRE_XVFB();
  // The H100 captures in assets/: the banks view shows the same contrast as the emulator's run.
  const std::string dir = std::string(WARPSCOPE_SOURCE_DIR) + "/assets/traces/";
  const Image coalesced = Shot("banks", {dir + "transpose-coalesced.wstrace"});
  const Image padded = Shot("banks", {dir + "transpose-padded.wstrace"});
  const Rgba top = {253, 231, 37, 255}, one = {63, 50, 117, 255};
  EXPECT_GT(CountNear(coalesced, top, 3), 1000);
  EXPECT_GT(CountNear(padded, one, 3), 10000);
}

TEST(GuiViews, ACorruptTraceIsRefusedWithAMessage) {
  REQUIRE_XVFB();
  TempDir t("badtrace");
  { std::ofstream(t / "bad.wstrace") << "not a trace"; }
  const auto r = RunApp({(t / "bad.wstrace").string(), "--config-dir", (t / "cfg").string(),
                         "--screenshot", (t / "x.png").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("not a Warpscope trace file"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ws

namespace ws {
namespace {

TEST(GuiViews, DevicePanelShowsTheCapturingGpu) {
  REQUIRE_XVFB();
  // A live run says nothing of a capture; the shipped trace was captured on an H100, whose
  // properties the panel lists.
  const std::string trace =
      std::string(WARPSCOPE_SOURCE_DIR) + "/assets/traces/transpose-padded.wstrace";
  const nlohmann::json live =
      PanelState("device", {"--lesson", "transpose", "--variant", "padded"});
  const nlohmann::json captured = PanelState("device", {trace});
  EXPECT_FALSE(live.contains("captured_on"));
  EXPECT_NE(captured.value("captured_on", "").find("H100"), std::string::npos) << captured;
  EXPECT_GT(std::stoi(captured.value("captured_properties", "0")), 5) << captured;
  EXPECT_EQ(live.value("gpus_here", ""), captured.value("gpus_here", ""));  // the same machine
}

}  // namespace
}  // namespace ws

namespace ws {
namespace {

TEST(GuiViews, LatencyShowsIdleIssueSlotsOnlyBelowSaturation) {
  REQUIRE_XVFB();
  // The idle-slot lane is red (230,60,50). 4 warps issue 64 of every 216 cycles: idle slots in
  // every period. 16 warps (over the model's 14) never leave the scheduler idle.
  const Rgba red = {230, 60, 50, 255};
  const Image few = Shot("latency", {"--lesson", "latency", "--set", "warps=4"});
  const Image many = Shot("latency", {"--lesson", "latency", "--set", "warps=16"});
  const int red_few = CountNear(few, red, 12), red_many = CountNear(many, red, 12);
  EXPECT_GT(red_few, 2000) << red_few;
  EXPECT_LT(red_many, red_few / 20 + 10) << red_many << " vs " << red_few;
  // Both draw warp 0's issue spans.
  EXPECT_GT(CountNear(few, kWarp0, 3), 200);
  EXPECT_GT(CountNear(many, kWarp0, 3), 200);
}

}  // namespace
}  // namespace ws

namespace ws {
namespace {

TEST(GuiViews, FloatSumsShowTheKernelsSumMovingWithTheData) {
  REQUIRE_XVFB();
  // The slides' data (cancel): 1e30, -1e30, 1, then zeros; exact sum 1. The CPU adds in order:
  // (1e30 + -1e30) + 1 = 1. The kernel's tree of 256 threads adds x[0] + x[2] at stride 2 first:
  // 1e30 + 1 rounds to 1e30, then + -1e30 = 0.
  const nlohmann::json cancel =
      PanelState("sums", {"--lesson", "fp-order", "--set", "data=cancel"});
  EXPECT_EQ(cancel.value("kernel_sum", ""), "0");
  EXPECT_EQ(cancel.value("cpu_sum", ""), "1");
  EXPECT_EQ(cancel.value("exact_sum", ""), "1");
  EXPECT_EQ(cancel.value("threads_per_block", ""), "256");
  // The mixed data moves every sum; warp 4's colour (213,94,0) marks the kernel's row and this
  // run's point.
  const nlohmann::json mixed = PanelState("sums", {"--lesson", "fp-order", "--set", "data=mixed"});
  EXPECT_NE(mixed.value("kernel_sum", "0"), "0");
  EXPECT_NE(mixed.value("exact_sum", "1"), "1");
  const Image shot = Shot("sums", {"--lesson", "fp-order", "--set", "data=mixed"});
  EXPECT_GT(CountNear(shot, {213, 94, 0, 255}, 3), 40);
}

}  // namespace
}  // namespace ws

namespace ws {
namespace {

TEST(GuiViews, BlocksOnSmsShowTwoWavesOnTwoSmsAndOneOnFour) {
  REQUIRE_XVFB();
  // Boxes take the colour of their round of dealing: round 0 warp 0's (230,159,0), round 1 warp
  // 1's (0,114,178). 12 blocks of 256 threads on a cc1.0 (3 per SM): 2 SMs deal two rounds, 4
  // SMs one, so round 1's blue is gone. No other part of the view is drawn in that blue.
  const Rgba blue = {0, 114, 178, 255};
  const Image two = Shot("sms", {"--lesson", "scalability", "--set", "sms=2"});
  const Image four = Shot("sms", {"--lesson", "scalability", "--set", "sms=4"});
  EXPECT_GT(CountNear(two, kWarp0, 3), 3000);
  EXPECT_GT(CountNear(four, kWarp0, 3), 3000);
  EXPECT_GT(CountNear(two, blue, 3), 3000);
  EXPECT_LT(CountNear(four, blue, 3), 50);
}

}  // namespace
}  // namespace ws

namespace ws {
namespace {

TEST(GuiViews, TransfersShowTheShippedCaptureAndOverlapOnlyFromPinnedMemory) {
  REQUIRE_XVFB();
  // No GPU here: the view draws the shipped H100 captures. Copies in are warp 1's blue
  // (0,114,178), kernels warp 0's orange, copies back warp 5's green (0,158,115); both variants
  // show every kind of step.
  const Rgba green = {0, 158, 115, 255}, blue = {0, 114, 178, 255};
  const Image pinned = Shot("transfers", {"--lesson", "transfers", "--variant", "pinned"});
  const Image pageable = Shot("transfers", {"--lesson", "transfers", "--variant", "pageable"});
  for (const Image* img : {&pinned, &pageable}) {
    EXPECT_GT(CountNear(*img, blue, 3), 500);
    EXPECT_GT(CountNear(*img, green, 3), 500);
    EXPECT_GT(CountNear(*img, kWarp0, 3), 150);
  }
  // The pipeline as the captures measured it: 8 chunks, each copied in, computed and copied back,
  // on one stream and then on 4: 24 boxes each way. From pinned memory the 4 streams overlap
  // (3.543 ms one after another, 1.721 ms overlapped: 2.06x); from pageable memory the copies
  // go through a staging buffer and hardly overlap (20.778 against 19.322 ms).
  const nlohmann::json a =
      PanelState("transfers", {"--lesson", "transfers", "--variant", "pinned"});
  const nlohmann::json b =
      PanelState("transfers", {"--lesson", "transfers", "--variant", "pageable"});
  EXPECT_EQ(a.value("memory", ""), "pinned");
  EXPECT_EQ(a.value("streams", ""), "4");
  EXPECT_EQ(a.value("chunks", ""), "8");
  EXPECT_EQ(a.value("serial_boxes", ""), "24");
  EXPECT_EQ(a.value("overlapped_boxes", ""), "24");
  EXPECT_EQ(a.value("serial_ms", ""), "3.543");
  EXPECT_EQ(a.value("overlapped_ms", ""), "1.721");
  EXPECT_EQ(b.value("memory", ""), "pageable");
  EXPECT_EQ(b.value("serial_ms", ""), "20.778");
  EXPECT_EQ(b.value("overlapped_ms", ""), "19.322");
}

}  // namespace
}  // namespace ws

namespace ws {
namespace {

TEST(GuiViews, TheH100TraceShowsFourRoundsOfBlocks) {
  REQUIRE_XVFB();
  // scalability-h100.wstrace: 1056 blocks, 2 per SM on 132 SMs, dealt in 4 rounds, drawn in the
  // colours of warps 0-3: orange, blue (0,114,178), yellow (240,228,66), sky blue (86,180,233).
  const std::string trace =
      std::string(WARPSCOPE_SOURCE_DIR) + "/assets/traces/scalability-h100.wstrace";
  const Image img = Shot("sms", {trace});
  // 264 sub-lanes (132 SMs x 2 blocks) are a pixel or two high here, and the window's
  // multisampling blends them with the gaps: count pixels of the colour at 50-100 % brightness.
  auto dimmed = [](Rgba c) {
    return [c](Rgba p) {
      const double k = (p.r * c.r + p.g * c.g + p.b * c.b) /
                       static_cast<double>(c.r * c.r + c.g * c.g + c.b * c.b);
      return k >= 0.5 && k <= 1.05 && std::abs(p.r - k * c.r) < 14 &&
             std::abs(p.g - k * c.g) < 14 && std::abs(p.b - k * c.b) < 14;
    };
  };
  for (Rgba c : {kWarp0, Rgba{0, 114, 178, 255}, Rgba{240, 228, 66, 255}, Rgba{86, 180, 233, 255}})
    EXPECT_GT(Count(img, dimmed(c)), 5000) << int(c.r) << "," << int(c.g) << "," << int(c.b);
}

}  // namespace
}  // namespace ws

namespace ws {
namespace {

struct Box {
  int pixels = 0, x0 = 1 << 30, x1 = -1, y0 = 1 << 30, y1 = -1;
};

// The 4-connected groups of pixels within 3 of `c` left of `x_end`, of at least 20 pixels.
std::vector<Box> Boxes(const Image& img, Rgba c, int x_end) {
  std::vector<char> seen(static_cast<std::size_t>(img.width() * img.height()), 0);
  auto at = [&](int x, int y) -> char& {
    return seen[static_cast<std::size_t>(y * img.width() + x)];
  };
  std::vector<Box> out;
  for (int y = 0; y < img.height(); ++y) {
    for (int x = 0; x < x_end; ++x) {
      if (at(x, y) || !Near(img.At(x, y), c, 3)) continue;
      Box b;
      std::vector<std::pair<int, int>> stack = {{x, y}};
      at(x, y) = 1;
      while (!stack.empty()) {
        const auto [px, py] = stack.back();
        stack.pop_back();
        ++b.pixels;
        b.x0 = std::min(b.x0, px), b.x1 = std::max(b.x1, px);
        b.y0 = std::min(b.y0, py), b.y1 = std::max(b.y1, py);
        for (const auto& [dx, dy] : {std::pair{1, 0}, {-1, 0}, {0, 1}, {0, -1}}) {
          const int qx = px + dx, qy = py + dy;
          if (qx < 0 || qy < 0 || qx >= x_end || qy >= img.height() || at(qx, qy) ||
              !Near(img.At(qx, qy), c, 3))
            continue;
          at(qx, qy) = 1;
          stack.push_back({qx, qy});
        }
      }
      if (b.pixels >= 20) out.push_back(b);
    }
  }
  return out;
}

TEST(GuiViews, TheShippedMultiGpuCaptureShowsEachGpusThreeMeasuredSteps) {
  REQUIRE_XVFB();
  // The multi-GPU view's button (scripted: --show-shipped) opens assets/traces/
  // multi-gpu-overlap.wstrace: two H200s, three time steps each. In the timeline (the left half):
  // per GPU a lane of 3 compute boxes (warp 0's orange, ~126 of a 393 us axis: wide), and above
  // each its 3 sends (blue) over its 3 receives (green), one neighbour each.
  const Image img =
      Shot("multigpu", {"--lesson", "multi-gpu", "--variant", "overlap", "--show-shipped"});
  ASSERT_FALSE(img.empty());
  const int half = img.width() / 2;
  std::vector<Box> compute;
  for (const Box& b : Boxes(img, kWarp0, half))
    if (b.x1 - b.x0 >= 30) compute.push_back(b);  // not the key's swatch, not text
  ASSERT_EQ(compute.size(), 6u);
  std::sort(compute.begin(), compute.end(),
            [](const Box& a, const Box& b) { return std::tie(a.y0, a.x0) < std::tie(b.y0, b.x0); });
  const int lane_gap = compute[3].y0 - compute[0].y0;  // GPU 1's lane below GPU 0's
  EXPECT_GT(lane_gap, 10);
  for (int i : {1, 2}) EXPECT_EQ(compute[i].y0, compute[0].y0);
  for (int i : {4, 5}) EXPECT_EQ(compute[i].y0, compute[3].y0);
  const Rgba blue = {0, 114, 178, 255}, green = {0, 158, 115, 255};
  for (const Rgba c : {blue, green}) {
    int lanes[2] = {0, 0};
    for (const Box& b : Boxes(img, c, half)) {
      if (b.y1 < compute[0].y0 && b.y0 > compute[0].y0 - lane_gap / 2) ++lanes[0];
      if (b.y1 < compute[3].y0 && b.y0 > compute[0].y1) ++lanes[1];
    }
    EXPECT_EQ(lanes[0], 3) << int(c.g);
    EXPECT_EQ(lanes[1], 3) << int(c.g);
  }
}

}  // namespace
}  // namespace ws
