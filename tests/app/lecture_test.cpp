#include "core/lecture.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "warpscope/kernels/catalog.h"

namespace ws {
namespace {

const std::vector<std::string> kPanels = {"lesson", "source", "coalescing", "banks", "timing"};

Result<Lecture> Parse(const std::string& text) {
  return ParseLecture(text, "class.toml", kPanels);
}

std::string Error(const std::string& text) {
  auto r = Parse(text);
  return r.ok() ? "(parsed)" : r.status().message();
}

TEST(Lecture, ReadsEveryFieldOfAStep) {
  auto r = Parse(R"toml(title = "Optimizing CUDA"
deck = "Optimizing CUDA (NVIDIA)"
ui_scale = 200
[[step]]
title = "Naive transpose"
lesson = "transpose"
variant = "naive"
params = { width = 128, height = 64 }
panels = ["coalescing", "source"]
arrangement = "columns"
select = { line = 17, op = "store", block = 2, warp = 1, request = 3 }
compare = { variant = "padded", params = { tile = 16 } }
caption = "32 sectors per store."
note = """Ask first."""
[[step]]
title = "Layouts"
lesson = "texture-2d"
variant = "texture"
params = { layout = "morton" }
schedule = "random:7"
select = { hazard = 2, access = "first" }
)toml");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->title, "Optimizing CUDA");
  EXPECT_EQ(r->ui_scale, 200);
  ASSERT_EQ(r->steps.size(), 2u);
  const LectureStep& s = r->steps[0];
  EXPECT_EQ(s.line, 4);  // the [[step]] header's line
  EXPECT_EQ(s.lesson, "transpose");
  EXPECT_EQ(s.variant, "naive");
  EXPECT_EQ(s.params, (Params{{"width", 128}, {"height", 64}}));
  EXPECT_EQ(s.panels, (std::vector<std::string>{"coalescing", "source"}));
  EXPECT_EQ(s.arrangement, "columns");
  EXPECT_EQ(s.select.line, 17);
  EXPECT_EQ(s.select.op, "store");
  EXPECT_EQ(s.select.block, 2);
  EXPECT_EQ(s.select.warp, 1);
  EXPECT_EQ(s.select.request, 3);
  EXPECT_TRUE(s.compare.on);
  EXPECT_EQ(s.compare.variant, "padded");
  EXPECT_EQ(s.compare.params, (Params{{"tile", 16}}));
  EXPECT_EQ(s.caption, "32 sectors per store.");
  EXPECT_EQ(s.note, "Ask first.");
  // A named choice is its index: texture-2d's layouts are row-major, morton, tiled.
  EXPECT_EQ(r->steps[1].params, (Params{{"layout", 1}}));
  EXPECT_FALSE(r->steps[1].compare.on);
  EXPECT_EQ(s.schedule.kind, Schedule::Kind::kInOrder);  // unsaid: in-order
  EXPECT_EQ(s.select.hazard, 0);
  EXPECT_EQ(r->steps[1].schedule.kind, Schedule::Kind::kRandom);
  EXPECT_EQ(r->steps[1].schedule.seed, 7u);
  EXPECT_EQ(r->steps[1].select.hazard, 2);
  EXPECT_EQ(r->steps[1].select.hazard_side, 0);
}

TEST(Lecture, ErrorsNameTheLineAndTheField) {
  const std::string head = "title = \"L\"\n[[step]]\ntitle = \"One\"\nlesson = \"transpose\"\n";
  EXPECT_EQ(Error(head + "variant = \"fast\"\n"),
            "class.toml:5: step 1 (\"One\"): variant: unknown variant 'fast' of transpose; "
            "variants are: naive, coalesced, padded");
  EXPECT_EQ(Error(head + "params = { tile = 12 }\n"),
            "class.toml:5: step 1 (\"One\"): params.tile: tile = 12 must be 8 plus a multiple "
            "of 8");
  EXPECT_EQ(Error(head + "panels = [\"coalescing\", \"bankz\"]\n"),
            "class.toml:5: step 1 (\"One\"): panels: unknown panel 'bankz'; panels are: lesson, "
            "source, coalescing, banks, timing");
  EXPECT_EQ(Error(head + "colour = 3\n"),
            "class.toml:5: step 1 (\"One\"): colour: unknown field; fields here are: title, "
            "caption, note, lesson, program, trace, variant, backend, params, panels, "
            "arrangement, select, compare, schedule, what_if");
  EXPECT_EQ(Error(head + "select = { line = -1 }\n"),
            "class.toml:5: step 1 (\"One\"): select.line: must be a whole number from 0 to "
            "1000000000");
  EXPECT_EQ(Error(head + "select = { hazard = 0 }\n"),
            "class.toml:5: step 1 (\"One\"): select.hazard: counts from 1 (the hazards view's "
            "first row), not 0");
  EXPECT_EQ(Error(head + "select = { hazard = 1, access = \"third\" }\n"),
            "class.toml:5: step 1 (\"One\"): select.access: must be \"first\" or \"second\"");
  EXPECT_EQ(
      Error(head + "schedule = \"sideways\"\n"),
      "class.toml:5: step 1 (\"One\"): schedule: " + ParseSchedule("sideways").status().message());
  EXPECT_EQ(
      Error("title = \"L\"\n[[step]]\ntitle = \"One\"\nlesson = \"transpos\"\n"),
      "class.toml:4: step 1 (\"One\"): lesson: unknown lesson 'transpos'; lessons are: " + [] {
        std::string ids;
        for (const LessonInfo& l : Lessons()) ids += (ids.empty() ? "" : ", ") + l.id;
        return ids;
      }());
  EXPECT_EQ(Error("title = \"L\"\n[[step]]\ntitle = \"One\"\n"),
            "class.toml:2: step 1 (\"One\"): lesson: a step needs one of lesson, program or trace");
  EXPECT_EQ(Error("title = \"L\"\n"),
            "class.toml:1: step: the lecture has no steps (each begins with [[step]])");
  // The TOML parser's own message, at its line.
  const std::string bad = Error("title = \"L\"\n[[step]]\ntitle = \"One\nlesson = 3\n");
  EXPECT_EQ(bad.rfind("class.toml:3: ", 0), 0u) << bad;
}

TEST(Lecture, RefusesAFileOverTheLimitWithoutReadingIt) {
  const auto dir = std::filesystem::temp_directory_path() / "ws-lecture-limit";
  std::filesystem::create_directories(dir);
  const auto big = dir / "big.toml";
  {
    std::ofstream out(big);
    out << "title = \"x\"\n# " << std::string(kMaxLectureBytes, 'x') << "\n";
  }
  auto r = LoadLecture(big, kPanels);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("is over the limit of 1048576 bytes"), std::string::npos)
      << r.status().message();
  auto missing = LoadLecture(dir / "none.toml", kPanels);
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("cannot read the lecture"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(Lecture, TheShippedLecturesParse) {
  // Every lecture in assets/lectures/ parses against the app's panels.
  const std::vector<std::string> panels = {
      "lesson",   "source",    "grid",     "coalescing", "banks",   "layout",
      "barriers", "shuffles",  "timing",   "occupancy",  "latency", "sums",
      "sms",      "transfers", "multigpu", "playback",   "gallery", "device",
      "compare",  "hazards",   "pipeline", "fragments"};
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(
           std::filesystem::path(WARPSCOPE_SOURCE_DIR) / "assets" / "lectures")) {
    if (e.path().extension() != ".toml") continue;
    auto r = LoadLecture(e.path(), panels);
    EXPECT_TRUE(r.ok()) << r.status().message();
    if (r.ok()) {
      EXPECT_GE(r->steps.size(), 5u) << e.path();
    }
    ++n;
  }
  EXPECT_EQ(n, 7);  // one per seed deck, and async-copies and tensor-cores (issue 53)
}

}  // namespace
}  // namespace ws
