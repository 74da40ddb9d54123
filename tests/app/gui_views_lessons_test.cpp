// One test per view, as gui_views_test.cpp (whose helpers, gui_views_util.h, these share): the
// views that only their own lesson draws (device, latency, float sums, blocks on SMs, transfers,
// multi-GPU), and shipped or corrupt traces opened in the app.
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

TEST(GuiViews, AShippedGpuTraceOpensLikeALiveRun) {
  REQUIRE_XVFB();
  // The H100 captures in assets/: the banks view shows the tile's column reads (its worst shared
  // site) as the emulator's run does. 2,048 requests of the 1024x1024 transpose's 32x32 tiles: 32
  // lanes on one bank as written (32-way, 32 x 2,048 = 65,536 wavefronts), one bank each once
  // the tile is padded to 33 columns (1-way, 2,048 wavefronts). The 16-bank model of compute
  // 1.x halves the worst degree: 16 lanes of a half-warp on one bank.
  const std::string dir = std::string(WARPSCOPE_SOURCE_DIR) + "/assets/traces/";
  nlohmann::json c, p;
  const Image coalesced = Shot("banks", {dir + "transpose-coalesced.wstrace"}, &c);
  const Image padded = Shot("banks", {dir + "transpose-padded.wstrace"}, &p);
  EXPECT_EQ(c.value("requests", ""), "2048");
  EXPECT_EQ(c.value("worst_degree", ""), "32");
  EXPECT_EQ(c.value("wavefronts", ""), "65536");
  EXPECT_EQ(c.value("worst_degree_16_banks", ""), "16");
  EXPECT_EQ(p.value("requests", ""), "2048");
  EXPECT_EQ(p.value("worst_degree", ""), "1");
  EXPECT_EQ(p.value("wavefronts", ""), "2048");
  // Smoke test of the heatmap: yellow (32 words a bank) as written, dark blue (1) padded.
  const Rgba top = {253, 231, 37, 255}, one = {63, 50, 117, 255};
  EXPECT_GT(CountNear(coalesced, top, 3), 1000);
  EXPECT_GT(CountNear(padded, one, 3), 10000);
}

// The app started with a what-if (--what-if) shows the swizzled records in the banks view and
// says so: the swizzle lesson's as-written tile, Swizzle<5,0,5>: 2,048 column reads of one
// wavefront each (32 as written), no conflicts. The float4 tile under Swizzle<3,0,3> on its
// chunks: 512 requests of 4 wavefronts (a quarter-warp at a time), worst 1-way, no conflicts;
// as written 28 of each request's 32 wavefronts are conflicts (8-way per quarter).
TEST(GuiViews, TheBanksViewShowsAWhatIfAndSaysSo) {
  REQUIRE_XVFB();
  nlohmann::json w, f, g;
  Shot("banks",
       {"--lesson", "swizzle", "--variant", "as-written", "--what-if", "tile:swizzle=5,0,5"}, &w);
  EXPECT_EQ(w.value("what_if", ""), "Swizzle<5,0,5> on tile");
  EXPECT_EQ(w.value("requests", ""), "2048");
  EXPECT_EQ(w.value("wavefronts", ""), "2048");
  EXPECT_EQ(w.value("conflicts", ""), "0");
  Shot("banks", {"--lesson", "swizzle", "--variant", "float4-columns"}, &f);
  EXPECT_EQ(f.value("what_if", "?"), "");
  EXPECT_EQ(f.value("wavefronts", ""), "16384");
  EXPECT_EQ(f.value("conflicts", ""), "14336");
  EXPECT_EQ(f.value("worst_degree", ""), "8");
  Shot("banks",
       {"--lesson", "swizzle", "--variant", "float4-columns", "--what-if", "chunks:swizzle=3,0,3"},
       &g);
  EXPECT_EQ(g.value("what_if", ""), "Swizzle<3,0,3> on chunks");
  EXPECT_EQ(g.value("wavefronts", ""), "2048");
  EXPECT_EQ(g.value("conflicts", ""), "0");
  EXPECT_EQ(g.value("worst_degree", ""), "1");
}

// The Goals panel (`--assignment`): the bank-conflict assignment on its own starting program
// (the 32 x 32 tile read by columns: 32-way, so its first goal is not met; the stores are
// coalesced, 4 sectors; the output is right; no races), and on the padded solution, all met.
TEST(GuiViews, TheGoalsPanelShowsEachGoalsFigureAndWhetherItIsMet) {
  REQUIRE_XVFB();
  const std::string dir = std::string(WARPSCOPE_SOURCE_DIR);
  nlohmann::json start, solved;
  Shot("goals", {"--assignment", dir + "/assets/assignments/transpose-banks.toml"}, &start);
  EXPECT_EQ(start.value("title", ""), "Remove the transpose's bank conflicts");
  EXPECT_EQ(start.value("goal_0", ""), "not met");
  EXPECT_EQ(start.value("value_0", ""), "32");
  EXPECT_EQ(start.value("goal_1", ""), "met");
  EXPECT_EQ(start.value("value_1", ""), "4");
  EXPECT_EQ(start.value("goal_2", ""), "met");
  EXPECT_EQ(start.value("goal_3", ""), "met");
  EXPECT_EQ(start.value("all_met", ""), "no");
  Shot("goals",
       {"--assignment", dir + "/assets/assignments/transpose-banks.toml",
        dir + "/tests/assignments/transpose-banks.solution.cu"},
       &solved);
  EXPECT_EQ(solved.value("goal_0", ""), "met");
  EXPECT_EQ(solved.value("value_0", ""), "1");
  EXPECT_EQ(solved.value("all_met", ""), "yes");
}

// A goal's number (1-9) in the Goals panel selects its site as a click does, here a store in a
// header whose kernel is launch 2 of 3 (tests/assignments/in-header: zero, scale, zero; the views
// show the last). Pressing 1 shows launch 2 (scale), selects the store at kern.cuh:3 and brings
// the coalescing view forward.
TEST(GuiViews, AGoalsNumberShowsItsLaunchAndSelectsItsSite) {
  REQUIRE_XVFB();
  TempDir t("goal-launch");
  const std::string in = std::string(WARPSCOPE_SOURCE_DIR) + "/tests/assignments/in-header";
  const auto r =
      RunApp({"--assignment", in + "/in-header.toml", "--frames", "40", "--press", "1@20",
              "--config-dir", (t / "cfg").string(), "--size", "1280x800", "--screenshot",
              (t / "shot.png").string(), "--layout-json", (t / "layout.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream file(t / "layout.json");
  const auto j = nlohmann::json::parse(file, nullptr, false);
  ASSERT_TRUE(j.is_object());
  const auto& s = j["session"];
  EXPECT_EQ(s.value("launch", -1), 1);
  EXPECT_EQ(s.value("kernel", ""), "scale");
  ASSERT_TRUE(s.contains("site")) << s.dump(2);
  EXPECT_EQ(s["site"].value("file", ""), "kern.cuh");
  EXPECT_EQ(s["site"].value("line", 0), 3);
  EXPECT_EQ(s["site"].value("op", ""), "store");
  EXPECT_TRUE(j["panels"]["coalescing"].value("visible", false));
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
  // 12 blocks of 256 threads on a cc1.0 (768 threads an SM: 3 blocks): 2 SMs hold 6 at once and
  // deal two rounds (12 / 6), 4 SMs hold all 12 in one. Boxes take the colour of their round:
  // round 0 warp 0's (230,159,0), round 1 warp 1's (0,114,178), drawn nowhere else in the view.
  const Rgba blue = {0, 114, 178, 255};
  nlohmann::json s2, s4;
  const Image two = Shot("sms", {"--lesson", "scalability", "--set", "sms=2"}, &s2);
  const Image four = Shot("sms", {"--lesson", "scalability", "--set", "sms=4"}, &s4);
  EXPECT_EQ(s2.value("sms", ""), "2");
  EXPECT_EQ(s2.value("blocks", ""), "12");
  EXPECT_EQ(s2.value("blocks_per_sm", ""), "3");
  EXPECT_EQ(s2.value("rounds", ""), "2");
  EXPECT_EQ(s2.value("waves", ""), "2");
  EXPECT_EQ(s4.value("sms", ""), "4");
  EXPECT_EQ(s4.value("rounds", ""), "1");
  EXPECT_EQ(s4.value("waves", ""), "1");
  // Smoke test of the drawing: round 1's blue only where there is a round 1.
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
