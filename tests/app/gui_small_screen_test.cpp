// A small screen at a large UI scale (1280x720 at 150 %: 37 lines of text, a laptop driving a
// projector): the selected view's main figure, its conflict or sector label, and a lecture's
// caption are whole, without scrolling sideways. Read from what the app says it drew (the
// panels' rectangles and Panel::Shown(), --layout-json), not from pixels.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <vector>

#include "gui_test_util.h"

namespace ws::test {
namespace {

// The app at 1280x720 and 150 % with `args`, after its frames: its --layout-json.
nlohmann::json SmallScreen(std::vector<std::string> args) {
  static int n = 0;
  TempDir t("small-" + std::to_string(++n));
  args.insert(args.end(), {"--config-dir", (t / "cfg").string(), "--size", "1280x720", "--ui-scale",
                           "150", "--screenshot", (t / "shot.png").string(), "--layout-json",
                           (t / "layout.json").string()});
  const RunResult r = RunApp(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(t / "layout.json");
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  EXPECT_TRUE(j.is_object());
  return j.is_object() ? j : nlohmann::json::object();
}

TEST(GuiSmallScreen, TheBanksViewKeepsItsConflictWholeAndItsHeatmapReadable) {
  REQUIRE_XVFB();
  const nlohmann::json j =
      SmallScreen({"--lesson", "transpose", "--variant", "coalesced", "--focus", "banks"});
  const nlohmann::json& banks = j["panels"]["banks"];
  ASSERT_TRUE(banks.value("visible", false)) << j.dump();
  // Every view is a tab of one node beside the lesson column (34 % of the width) under the
  // playback strip: about 840 of 1,280 pixels across and most of the height, where the default
  // layout left the views a third of it (a bottom row of barriers and timing).
  EXPECT_GE(banks["width"].get<double>(), 1280 * 0.6);
  EXPECT_GE(banks["height"].get<double>(), 720 * 0.6);
  const nlohmann::json& s = banks["state"];
  // The tile read by columns: 32 lanes in one bank.
  EXPECT_EQ(s.value("label", ""), "32-way conflict");
  EXPECT_EQ(s.value("label_whole", ""), "1") << s.dump();
  // The heatmap over the wiring, each bank's cell at least 14 px wide (the side-by-side halves
  // left it about 9: (45 % of ~800 px, less the row labels) / 32).
  EXPECT_EQ(s.value("stacked", ""), "1");
  EXPECT_GE(std::stoi(s.value("heatmap_cell_px", "0")), 14) << s.dump();
}

TEST(GuiSmallScreen, TheCoalescingViewKeepsItsSectorsAndItsBytesWhole) {
  REQUIRE_XVFB();
  const nlohmann::json j =
      SmallScreen({"--lesson", "transpose", "--variant", "naive", "--focus", "coalescing"});
  const nlohmann::json& c = j["panels"]["coalescing"];
  ASSERT_TRUE(c.value("visible", false)) << j.dump();
  const nlohmann::json& s = c["state"];
  EXPECT_NE(s.value("label", "").find("sector"), std::string::npos) << s.dump();
  EXPECT_EQ(s.value("label_whole", ""), "1") << s.dump();
  // "N bytes moved for M asked (...)": under the label when it does not fit beside it.
  EXPECT_EQ(s.value("detail_whole", ""), "1") << s.dump();
}

TEST(GuiSmallScreen, ALecturesCaptionIsWholeInItsBar) {
  REQUIRE_XVFB();
  // Step 2's caption (164 characters) wraps to two lines at this size: with the title's row,
  // more than the 2.7 lines the bar used to have.
  const nlohmann::json j =
      SmallScreen({"--lecture", WARPSCOPE_SOURCE_DIR "/assets/lectures/optimizing-cuda.toml",
                   "--windowed", "--step", "2"});
  ASSERT_TRUE(j.contains("lecture_bar_whole")) << j.dump();
  EXPECT_TRUE(j["lecture_bar_whole"].get<bool>());
}

#if WARPSCOPE_HAVE_PROGRAMS
// A program's Kernels view on the small screen: the narrow table (name, time, worst figure,
// launches), so that which kernel is slow and why needs no sideways scroll.
TEST(GuiSmallScreen, TheKernelsViewKeepsWhichKernelIsSlowAndWhy) {
  REQUIRE_XVFB();
  const nlohmann::json j =
      SmallScreen({WARPSCOPE_SOURCE_DIR "/examples/transpose.cu", "--focus", "kernels"});
  const nlohmann::json& s = j["panels"]["kernels"]["state"];
  EXPECT_EQ(s.value("compact", ""), "1") << s.dump();
  EXPECT_EQ(s.value("row0", ""), "transposeNaive");
  EXPECT_EQ(s.value("row0.worst", ""), "sectors");
}
#endif

}  // namespace
}  // namespace ws::test
