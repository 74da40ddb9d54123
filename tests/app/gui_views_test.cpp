// One test per view (the memory views, the lesson panel, timing, occupancy, playback; the views
// only their own lesson draws, and traces, are in gui_views_lessons_test.cpp): the app opens the
// view on a fixed lesson and parameter set, saves it with
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
#include "gui_views_util.h"
#include "warpscope/viz/image.h"

namespace ws {
namespace {

using test::Count;
using test::CountNear;
using test::kWarp0;
using test::Near;
using test::PanelState;
using test::RunApp;
using test::Shot;
using test::TempDir;

constexpr Rgba kIdle = {70, 70, 74, 255};

TEST(GuiViews, GridGreysTheThreadsOutsideThePicture) {
  REQUIRE_XVFB();
  // 76x62 pixels in 16x16 blocks: 5x4 blocks = 80x64 = 5,120 threads (160 warps), of which
  // 76 x 62 = 4,712 have a pixel and 5,120 - 4,712 = 408 are idle (4 columns and 2 rows).
  // 64x64: 4x4 blocks, 4,096 threads, every one with a pixel.
  nlohmann::json some_state, none_state;
  const Image some =
      Shot("grid", {"--lesson", "picture", "--set", "width=76", "--set", "height=62"}, &some_state);
  const Image none =
      Shot("grid", {"--lesson", "picture", "--set", "width=64", "--set", "height=64"}, &none_state);
  EXPECT_EQ(some_state.value("blocks", ""), "20");
  EXPECT_EQ(some_state.value("threads", ""), "5120");
  EXPECT_EQ(some_state.value("warps", ""), "160");
  EXPECT_EQ(some_state.value("active_threads", ""), "4712");
  EXPECT_EQ(some_state.value("idle_threads", ""), "408");
  EXPECT_EQ(none_state.value("threads", ""), "4096");
  EXPECT_EQ(none_state.value("idle_threads", ""), "0");
  // Smoke test of the drawing: the idle threads are grey, and only where there are some (a few
  // pixels of the same grey are the panel's frame); warp 0 (the first two rows of every block)
  // is drawn in both.
  EXPECT_GT(CountNear(some, kIdle, 1), 1000);
  EXPECT_LT(CountNear(none, kIdle, 1), 100);
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
  // The emulator's times are its own logical ones, not placed (only the GPU's lane log places
  // its accesses' times).
  EXPECT_EQ(paused.value("time_placed", ""), "false");
}

}  // namespace
}  // namespace ws
