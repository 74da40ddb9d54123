// GUI tests: start the real app under xvfb-run (Mesa's software OpenGL), have it save
// screenshots, and check the pixels. Skipped, saying why, where xvfb-run is missing.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "gui/theme.h"
#include "gui_test_util.h"
#include "warpscope/viz/image.h"

namespace ws {
namespace {

namespace fs = std::filesystem;
using test::RunApp;
using test::RunResult;
using test::TempDir;

nlohmann::json ReadJson(const fs::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in, nullptr, false);
}

bool Near(Rgba a, theme::Colour b, int tol = 2) {
  return std::abs(a.r - b.r) <= tol && std::abs(a.g - b.g) <= tol && std::abs(a.b - b.b) <= tol;
}

std::string Str(Rgba c) {
  return "(" + std::to_string(c.r) + "," + std::to_string(c.g) + "," + std::to_string(c.b) + ")";
}

// A pixel in the panel's title strip: left of its close button, right of its tabs.
// A pixel of a panel's title strip right of its tabs, left of the close button (the views' dock
// node holds seven tabs that fill its width up to about 40 pixels from the right edge).
Rgba TitleStripPixel(const Image& img, const nlohmann::json& panel) {
  const int x = static_cast<int>(panel["x"].get<float>() + panel["width"].get<float>() - 30);
  const int y = static_cast<int>(panel["y"].get<float>() + 4);
  return img.At(x, y);
}

TEST(Gui, ScreenshotHasTheWindowSizeContentAndTitleBars) {
  REQUIRE_XVFB();
  TempDir t("shot");
  // 1600 wide: the views' tab bar (eight tabs) leaves some of its title strip bare to sample;
  // at 1280 ImGui shrinks the tabs to fill it.
  RunResult r = RunApp({"--config-dir", (t / "cfg").string(), "--size", "1600x1000", "--lesson",
                        "picture", "--focus", "grid", "--screenshot", (t / "a.png").string(),
                        "--layout-json", (t / "layout.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Saved " + (t / "a.png").string()), std::string::npos) << r.out;
  auto img = LoadPng(t / "a.png");
  ASSERT_TRUE(img.ok()) << img.status().message();
  EXPECT_EQ(img->width(), 1600);
  EXPECT_EQ(img->height(), 1000);
  // Not blank: text, tabs and the grid preview's eight warp colours give hundreds of colours.
  EXPECT_GT(img->DistinctColours(), 100);

  const nlohmann::json layout = ReadJson(t / "layout.json");
  ASSERT_FALSE(layout.is_discarded());
  const auto& grid = layout["panels"]["grid"];
  const auto& timing = layout["panels"]["timing"];
  ASSERT_TRUE(grid["visible"].get<bool>());
  ASSERT_TRUE(timing["visible"].get<bool>());
  // The focused panel's title strip has the active title colour, the others the plain one.
  Rgba g = TitleStripPixel(*img, grid);
  EXPECT_TRUE(Near(g, theme::kTitleBarActive)) << "grid title strip is " << Str(g);
  Rgba tm = TitleStripPixel(*img, timing);
  EXPECT_TRUE(Near(tm, theme::kTitleBar)) << "timing title strip is " << Str(tm);
  // The main menu bar runs along the top.
  EXPECT_TRUE(Near(img->At(640, 4), theme::kMenuBar)) << Str(img->At(640, 4));

  // The grid is drawn by the cell-grid shader: warp 0's orange (230, 159, 0) must cover many
  // pixels inside the grid panel (1/8 of the picture kernel's 76x62 threads, several px each).
  int orange = 0;
  for (int y = static_cast<int>(grid["y"].get<float>()); y < 1000; ++y) {
    for (int x = static_cast<int>(grid["x"].get<float>()); x < 1600; ++x) {
      orange += Near(img->At(x, y), theme::Colour{230, 159, 0}, 3) ? 1 : 0;
    }
  }
  EXPECT_GT(orange, 2000);
}

TEST(Gui, F12SavesTheSameImageAsScreenshotFlag) {
  REQUIRE_XVFB();
  TempDir t("f12");
  // Same state: each run starts from a fresh config folder (a saved imgui.ini rounds the dock
  // splits to whole pixels, which moves some text by a pixel against a first run).
  RunResult a = RunApp({"--config-dir", (t / "cfg-a").string(), "--size", "1024x700", "--frames",
                        "5", "--screenshot", (t / "flag.png").string()});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  // Same state, second run: press F12 at frame 5 and let the app run one more frame.
  RunResult b = RunApp({"--config-dir", (t / "cfg-b").string(), "--size", "1024x700", "--frames",
                        "6", "--press", "F12@5", "--screenshot-dir", (t / "shots").string()});
  ASSERT_EQ(b.exit_code, 0) << b.err;
  std::vector<fs::path> shots;
  for (const auto& e : fs::directory_iterator(t / "shots")) shots.push_back(e.path());
  ASSERT_EQ(shots.size(), 1u);
  EXPECT_EQ(shots[0].filename().string().rfind("warpscope-", 0), 0u);
  EXPECT_NE(b.out.find("Saved " + shots[0].string()), std::string::npos) << b.out;
  auto flag = LoadPng(t / "flag.png");
  auto f12 = LoadPng(shots[0]);
  ASSERT_TRUE(flag.ok() && f12.ok());
  ASSERT_EQ(flag->width(), f12->width());
  ASSERT_EQ(flag->height(), f12->height());
  int differing = 0;
  for (int y = 0; y < flag->height(); ++y) {
    for (int x = 0; x < flag->width(); ++x) differing += flag->At(x, y) == f12->At(x, y) ? 0 : 1;
  }
  EXPECT_EQ(differing, 0);
}

TEST(Gui, PanelExportIsThatPanelsRectangle) {
  REQUIRE_XVFB();
  TempDir t("panel");
  RunResult r = RunApp({"--config-dir", (t / "cfg").string(), "--size", "1600x1000", "--panel",
                        "coalescing", "--screenshot", (t / "p.png").string(), "--layout-json",
                        (t / "layout.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto layout = ReadJson(t / "layout.json");
  const auto& p = layout["panels"]["coalescing"];
  ASSERT_TRUE(p["visible"].get<bool>());  // --panel brought its tab to the front
  auto img = LoadPng(t / "p.png");
  ASSERT_TRUE(img.ok());
  EXPECT_EQ(img->width(), static_cast<int>(p["width"].get<float>() + 0.5f));
  EXPECT_EQ(img->height(), static_cast<int>(p["height"].get<float>() + 0.5f));
  EXPECT_LT(img->width(), 1600);
  // Its own title strip (focused) is at the top of the exported image.
  Rgba strip = img->At(img->width() - 30, 4);
  EXPECT_TRUE(Near(strip, theme::kTitleBarActive)) << Str(strip);
}

TEST(Gui, Export2xDoublesTheResolution) {
  REQUIRE_XVFB();
  TempDir t("2x");
  RunResult r = RunApp({"--config-dir", (t / "cfg").string(), "--size", "800x600", "--2x",
                        "--screenshot", (t / "big.png").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto img = LoadPng(t / "big.png");
  ASSERT_TRUE(img.ok());
  EXPECT_EQ(img->width(), 1600);
  EXPECT_EQ(img->height(), 1200);
  EXPECT_GT(img->DistinctColours(), 100);
  // The menu bar is twice as tall: still menu-bar colour at y = 30 (1x bar is ~23 px high).
  EXPECT_TRUE(Near(img->At(800, 30), theme::kMenuBar)) << Str(img->At(800, 30));
}

TEST(Gui, UiScaleFromSettingsPersistsAcrossRuns) {
  REQUIRE_XVFB();
  TempDir t("scale");
  fs::create_directories(t / "cfg");
  RunResult r1 = RunApp({"--config-dir", (t / "cfg").string(), "--size", "1024x700", "--screenshot",
                         (t / "s1.png").string(), "--layout-json", (t / "l1.json").string()});
  ASSERT_EQ(r1.exit_code, 0) << r1.err;
  std::ofstream(t / "cfg" / "settings.json") << R"({"ui_scale_percent": 200})";
  RunResult r2 = RunApp({"--config-dir", (t / "cfg").string(), "--size", "1024x700", "--screenshot",
                         (t / "s2.png").string(), "--layout-json", (t / "l2.json").string()});
  ASSERT_EQ(r2.exit_code, 0) << r2.err;
  const float h1 = ReadJson(t / "l1.json")["status_bar_height"].get<float>();
  const float h2 = ReadJson(t / "l2.json")["status_bar_height"].get<float>();
  // Frame height = font size + 2 * frame padding; both double at 200 %.
  EXPECT_NEAR(h2 / h1, 2.0, 0.1) << h1 << " -> " << h2;
}

TEST(Gui, NoDisplayPrintsOneClearLineAndFails) {
  TempDir t("nodisplay");
  RunResult r = RunApp({"--config-dir", (t / "cfg").string()}, /*with_display=*/false);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("needs a display"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("xvfb-run -a warpscope --screenshot"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(Gui, UnwritableScreenshotPathLeavesNothing) {
  REQUIRE_XVFB();
  TempDir t("unwritable");
  std::ofstream(t / "plain") << "x";
  const fs::path target = t / "plain" / "shot.png";  // a path under a regular file
  RunResult r = RunApp(
      {"--config-dir", (t / "cfg").string(), "--size", "640x480", "--screenshot", target.string()});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("cannot write " + target.string()), std::string::npos) << r.err;
  for (const auto& e : fs::directory_iterator(t.path())) {
    EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << e.path();
  }
  EXPECT_FALSE(fs::exists(target));
}

TEST(Gui, OldOpenGlIsNamedInTheMessage) {
  REQUIRE_XVFB();
  TempDir t("oldgl");
  // Mesa can be told to offer an older OpenGL; a 3.3 core context is then refused.
  RunResult r =
      RunApp({"--config-dir", (t / "cfg").string(), "--screenshot", (t / "x.png").string()}, true,
             {"MESA_GL_VERSION_OVERRIDE=3.0", "MESA_GLSL_VERSION_OVERRIDE=130"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("needs OpenGL 3.3"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("3.0"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(t / "x.png"));
}

TEST(Gui, KernelSourceShowsTheSitesFigures) {
  REQUIRE_XVFB();
  TempDir t("source");
  RunResult r = RunApp({"--config-dir", (t / "cfg").string(), "--size", "1280x800", "--lesson",
                        "transpose", "--variant", "coalesced", "--panel", "source", "--screenshot",
                        (t / "s.png").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto img = LoadPng(t / "s.png");
  ASSERT_TRUE(img.ok());
  // The site lines are tinted: (80, 90, 110) at alpha 90/255 over the background (30, 32, 38) is
  // (48, 52, 63). They carry
  // their figures in yellow (242, 204, 102): both must be on screen after the view scrolled to the
  // kernel's first site.
  int tint = 0, yellow = 0;
  for (int y = 0; y < img->height(); ++y) {
    for (int x = 0; x < img->width(); ++x) {
      const Rgba c = img->At(x, y);
      tint += Near(c, theme::Colour{48, 52, 63}, 2) ? 1 : 0;
      yellow += Near(c, theme::Colour{242, 204, 102}, 10) ? 1 : 0;
    }
  }
  EXPECT_GT(tint, 1000) << "site line tint";
  EXPECT_GT(yellow, 50) << "margin figures";
}

TEST(Gui, UnknownLessonIsRefused) {
  REQUIRE_XVFB();
  TempDir t("badlesson");
  RunResult r = RunApp({"--config-dir", (t / "cfg").string(), "--lesson", "nope", "--screenshot",
                        (t / "x.png").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown lesson 'nope'"), std::string::npos) << r.err;
}

TEST(Gui, UnknownPanelListsTheKnownOnes) {
  REQUIRE_XVFB();
  TempDir t("badpanel");
  RunResult r = RunApp({"--config-dir", (t / "cfg").string(), "--panel", "nope", "--screenshot",
                        (t / "x.png").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown panel 'nope'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("coalescing"), std::string::npos) << r.err;
}

// A layout saved before a view existed (the Cluster view came in 2026-12): the app docks the view
// with the others where ImGui would float it at a default size over the layout. Run 1 saves a
// layout; its Cluster window's entry is taken out of imgui.ini; run 2 shows the Cluster view where
// run 1 showed it, in the views' dock node (before the fix: 117 x 946 pixels at 60, 60, floating).
TEST(Gui, AViewNewToASavedLayoutIsDockedWithTheViews) {
  REQUIRE_XVFB();
  TempDir t("newview");
  const std::vector<std::string> args = {
      "--config-dir", (t / "cfg").string(), "--size", "1600x1000", "--panel", "cluster"};
  auto with = [&](const char* png, const char* json) {
    std::vector<std::string> a = args;
    a.insert(a.end(), {"--screenshot", (t / png).string(), "--layout-json", (t / json).string()});
    return a;
  };
  RunResult r1 = RunApp(with("1.png", "1.json"));
  ASSERT_EQ(r1.exit_code, 0) << r1.err;
  const fs::path ini = t / "cfg" / "imgui.ini";
  std::string text;
  {
    std::ifstream in(ini);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  const std::size_t at = text.find("[Window][cluster]");
  ASSERT_NE(at, std::string::npos) << text;
  const std::size_t end = text.find("\n\n", at);
  ASSERT_NE(end, std::string::npos);
  text.erase(at, end + 2 - at);
  ASSERT_EQ(text.find("[Window][cluster]"), std::string::npos);
  std::ofstream(ini) << text;
  RunResult r2 = RunApp(with("2.png", "2.json"));
  ASSERT_EQ(r2.exit_code, 0) << r2.err;
  const auto a = ReadJson(t / "1.json")["panels"]["cluster"];
  const auto b = ReadJson(t / "2.json")["panels"]["cluster"];
  ASSERT_TRUE(b["visible"].get<bool>());
  for (const char* k : {"x", "y", "width", "height"})
    EXPECT_NEAR(b[k].get<float>(), a[k].get<float>(), 1.0f) << k;
  EXPECT_GT(b["width"].get<float>(), 800.0f);  // the views' node: 62 % of 1,600 pixels
}

// The status bar names the device a trace was recorded on, beside the backend a new run takes
// here: a trace from a GPU opened on a machine without one said "Backend: CPU emulator" alone.
// The shipped H100 capture (assets/traces/scalability-h100.wstrace), then no trace.
TEST(Gui, TheStatusBarNamesTheTracesDeviceBesideThisMachinesBackend) {
  REQUIRE_XVFB();
  TempDir t("status");
  RunResult r =
      RunApp({WARPSCOPE_SOURCE_DIR "/assets/traces/scalability-h100.wstrace", "--config-dir",
              (t / "cfg").string(), "--size", "1600x1000", "--frames", "5", "--screenshot",
              (t / "a.png").string(), "--layout-json", (t / "a.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string traced = ReadJson(t / "a.json").value("status_backend", "");
  EXPECT_EQ(traced.rfind("Trace from NVIDIA H100", 0), 0u) << traced;
  EXPECT_NE(traced.find(" | runs here: "), std::string::npos) << traced;
  RunResult plain =
      RunApp({"--config-dir", (t / "cfg2").string(), "--size", "1600x1000", "--frames", "5",
              "--screenshot", (t / "b.png").string(), "--layout-json", (t / "b.json").string()});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  const std::string here = ReadJson(t / "b.json").value("status_backend", "");
  EXPECT_EQ(here.rfind("Backend: ", 0), 0u) << here;
}

}  // namespace
}  // namespace ws
