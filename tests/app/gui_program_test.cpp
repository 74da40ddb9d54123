// The user's own program in the app: opened from the command line, its launches listed, a slider
// from its `// warpscope: param` comment, a save that runs it again, and failures that end in a
// message while the app keeps running. The app reports what it shows in its --layout-json file.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "gui_test_util.h"

namespace ws {
namespace {

namespace fs = std::filesystem;
using test::RunApp;
using test::TempDir;

#if !defined(WARPSCOPE_HAVE_PROGRAMS)  // then no program opens: every test here skips
#undef REQUIRE_XVFB
#define REQUIRE_XVFB() \
  GTEST_SKIP() << "this build has no clang 14 C++ API (libclang-14-dev): it cannot open programs"
#endif

std::string Example(const std::string& name) {
  std::ifstream in(std::string(WARPSCOPE_SOURCE_DIR "/examples/") + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void Write(const fs::path& p, const std::string& text) {
  std::ofstream(p) << text;
}

// Opens `program` (with `extra` arguments; default: 3 frames, then exit) and returns the
// "session" the app reported.
nlohmann::json Open(const TempDir& t, const fs::path& program,
                    std::vector<std::string> extra = {"--frames", "3"}) {
  std::vector<std::string> args = {
      program.string(), "--config-dir",  (t / "cfg").string(),        "--size",
      "1280x800",       "--layout-json", (t / "layout.json").string()};
  args.insert(args.end(), extra.begin(), extra.end());
  const auto r = RunApp(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(t / "layout.json");
  const auto j = nlohmann::json::parse(in, nullptr, false);
  return j.is_object() ? j["session"] : nlohmann::json();
}

TEST(GuiProgram, OpensAProgramAndListsEveryLaunch) {
  REQUIRE_XVFB();
  TempDir t("gui-program");
  const nlohmann::json s = Open(t, WARPSCOPE_SOURCE_DIR "/examples/transpose.cu");
  ASSERT_TRUE(s.is_object());
  EXPECT_EQ(s["program"], "transpose.cu");
  ASSERT_EQ(s["launches"].size(), 3u);
  EXPECT_EQ(s["launches"][0]["kernel"], "transposeNaive");
  EXPECT_EQ(s["launches"][1]["kernel"], "transposeCoalesced");
  EXPECT_EQ(s["launches"][2]["kernel"], "transposePadded");
  // The views show the last launch until the user picks another.
  EXPECT_EQ(s["launch"], 2);
  EXPECT_EQ(s["kernel"], "transposePadded");
  // TILE_DIM 16 in the file: 16x16 blocks; naive has 2 sites, the shared ones 4.
  EXPECT_EQ(s["launches"][0]["block"], nlohmann::json::array({16, 16, 1}));
  EXPECT_EQ(s["launches"][0]["sites"], 2);
  EXPECT_EQ(s["launches"][1]["sites"], 4);
  EXPECT_NE(s["stdout"].get<std::string>().find("transposePadded: transposed 256x256 correctly"),
            std::string::npos);
  EXPECT_EQ(s["error"], "");
}

TEST(GuiProgram, ASliderFromTheParamCommentRecompiles) {
  REQUIRE_XVFB();
  TempDir t("gui-program-slider");
  // `#define TILE_DIM 16  // warpscope: param TILE_DIM 8..32 step 8`, moved to 32 at frame 3.
  const nlohmann::json s = Open(t, WARPSCOPE_SOURCE_DIR "/examples/transpose.cu",
                                {"--drag", "TILE_DIM=32@3", "--frames", "6"});
  ASSERT_EQ(s["launches"].size(), 3u);
  EXPECT_EQ(s["launches"][0]["block"], nlohmann::json::array({32, 32, 1}));
}

TEST(GuiProgram, SetTakesAProgramsSliderFromTheCommandLine) {
  REQUIRE_XVFB();
  TempDir t("gui-program-set");
  const nlohmann::json s = Open(t, WARPSCOPE_SOURCE_DIR "/examples/transpose.cu",
                                {"--set", "TILE_DIM=8", "--frames", "3"});
  ASSERT_EQ(s["launches"].size(), 3u);
  EXPECT_EQ(s["launches"][0]["block"], nlohmann::json::array({8, 8, 1}));
  // Off the slider's step (8..32 step 8): refused with the range, exit status 2.
  const auto r = RunApp({WARPSCOPE_SOURCE_DIR "/examples/transpose.cu", "--config-dir",
                         (t / "cfg2").string(), "--set", "TILE_DIM=12", "--frames", "2"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("TILE_DIM must be in 8..32 in steps of 8, not 12"), std::string::npos)
      << r.err;
}

TEST(GuiProgram, ACompileErrorShowsAtItsLineAndTheAppGoesOn) {
  REQUIRE_XVFB();
  TempDir t("gui-program-error");
  std::string text = Example("transpose.cu");
  const std::string good = "int index_out = yIndex + height * xIndex;";
  ASSERT_NE(text.find(good), std::string::npos);
  text.replace(text.find(good), good.size(), "int index_out = yIndex + height * xIndx;");
  Write(t / "transpose.cu", text);
  const nlohmann::json s = Open(t, t / "transpose.cu");
  ASSERT_EQ(s["compile_errors"].size(), 1u) << s.dump();
  // Line 17 of the example, the `x` of xIndx in column 39 (4 spaces, then 34 characters).
  EXPECT_EQ(s["compile_errors"][0]["line"], 17);
  EXPECT_EQ(s["compile_errors"][0]["column"], 39);
  EXPECT_NE(s["compile_errors"][0]["message"].get<std::string>().find(
                "use of undeclared identifier 'xIndx'"),
            std::string::npos);
  EXPECT_NE(s["error"].get<std::string>().find("transpose.cu:17:39: error:"), std::string::npos)
      << s["error"];
}

TEST(GuiProgram, AnIndexOutOfRangeIsAMessageAndEarlierLaunchesStay) {
  REQUIRE_XVFB();
  TempDir t("gui-program-oob");
  Write(t / "oob.cu",
        "__global__ void ok(float* a) { a[threadIdx.x] = 1.0f; }\n"
        "__global__ void bad(float* a) { a[threadIdx.x + 1] = 2.0f; }\n"
        "int main() {\n"
        "  float* d; cudaMalloc(&d, 32 * sizeof(float));\n"
        "  ok<<<1, 32>>>(d);\n"
        "  bad<<<1, 32>>>(d);\n"
        "  return 0;\n"
        "}\n");
  const nlohmann::json s = Open(t, t / "oob.cu");
  ASSERT_EQ(s["launches"].size(), 1u) << s.dump();  // `ok` ran; `bad` stopped at thread 31
  EXPECT_EQ(s["launches"][0]["kernel"], "ok");
  const std::string e = s["error"].get<std::string>();
  EXPECT_NE(e.find("line 2: column 33: a store of 4 bytes"), std::string::npos) << e;
  EXPECT_NE(e.find("index 32 of d, which holds 32 elements"), std::string::npos) << e;
  EXPECT_NE(e.find("thread (31,0,0) of block (0,0,0)"), std::string::npos) << e;
}

// A trace of a program (warpscope-cli capture --file) opens with its launches and the source as
// captured; nothing is compiled or run: the program file named in it is gone by then.
TEST(GuiProgram, ATraceOfAProgramShowsItsSourceAndRunsNothing) {
  REQUIRE_XVFB();
  TempDir t("gui-program-trace");
  const std::string text = Example("picture.cu");
  Write(t / "picture.cu", text);
  const std::string cmd = std::string(WARPSCOPE_CLI) + " capture --file " +
                          (t / "picture.cu").string() + " -o " + (t / "p.wstrace").string() +
                          " > /dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  fs::remove(t / "picture.cu");
  const nlohmann::json s = Open(t, t / "p.wstrace");
  EXPECT_EQ(s["from_trace"], true);
  EXPECT_EQ(s["program"], "picture.cu");
  EXPECT_EQ(s["source_file"], "picture.cu");
  EXPECT_EQ(s["source_bytes"], text.size());
  ASSERT_EQ(s["launches"].size(), 1u);
  EXPECT_EQ(s["launches"][0]["kernel"], "PictureKernel");
  EXPECT_EQ(s["compile_errors"].size(), 0u);
  EXPECT_EQ(s["error"], "");
}

// Saving the file in an editor runs it again: the edit benchmark's own loop (the app watches the
// file, as in use), twice, on a program whose comment it changes.
TEST(GuiProgram, SavingTheFileRunsItAgain) {
  REQUIRE_XVFB();
  TempDir t("gui-program-save");
  const auto r = RunApp({"--config-dir", (t / "cfg").string(), "--size", "1280x800", "--bench-edit",
                         WARPSCOPE_SOURCE_DIR "/examples/picture.cu", "--bench-reps", "2",
                         "--bench-json", (t / "edit.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(t / "edit.json");
  const auto j = nlohmann::json::parse(in, nullptr, false);
  ASSERT_TRUE(j.is_object());
  ASSERT_EQ(j["save_to_redraw_ms"]["samples"].size(), 2u);
  for (const auto& ms : j["save_to_redraw_ms"]["samples"]) EXPECT_GT(ms.get<double>(), 0.0);
  EXPECT_EQ(j["launches"], 1);
}

}  // namespace
}  // namespace ws
