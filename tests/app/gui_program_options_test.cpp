// The app takes a program's options as warpscope-cli run --file does (--file, --arg, -D, -I,
// --timeout, --backend), shows each in a field of the program panel, and passes them to the
// program; a wrong or unknown option exits 2 with a message. And whatever bytes the program
// prints, the app's --layout-json is written (trace/printed_text.h). The program is
// tests/programs/prints_bytes.cu.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "gui_test_util.h"

namespace ws {
namespace {

namespace fs = std::filesystem;
using test::RunApp;
using test::TempDir;

#if !defined(WARPSCOPE_HAVE_PROGRAMS)  // then no program opens: the tests that open one skip
#define REQUIRE_PROGRAMS() \
  GTEST_SKIP() << "this build has no clang 14 C++ API (libclang-14-dev): it cannot open programs"
#else
#define REQUIRE_PROGRAMS() REQUIRE_XVFB()
#endif

const std::string kProgram = WARPSCOPE_SOURCE_DIR "/tests/programs/prints_bytes.cu";

// The app's --layout-json after `args` and 3 frames (with the run finished: --frames waits).
nlohmann::json Layout(const TempDir& t, std::vector<std::string> args, test::RunResult* r) {
  args.insert(args.end(), {"--config-dir", (t / "cfg").string(), "--size", "1280x800",
                           "--layout-json", (t / "layout.json").string(), "--frames", "3"});
  *r = RunApp(args);
  std::ifstream in(t / "layout.json");
  return nlohmann::json::parse(in, nullptr, false);
}

// Every option reaches the program or its run: argv[1] and the two -D values are in what it
// printed (its own line "SEED 7 COUNT 256": the file says 12345 and 4096), and the fields hold
// what was given. Its random bytes, NUL and escape codes did not stop the layout file (nlohmann
// throws on invalid UTF-8): the note counts those shown as U+FFFD.
TEST(GuiProgramOptions, TheAppTakesTheClisProgramOptions) {
  REQUIRE_PROGRAMS();
  TempDir t("gui-program-options");
  fs::create_directories(t / "inc");
  test::RunResult r;
  const nlohmann::json j =
      Layout(t,
             {"--file", kProgram, "--arg", "hello42", "-D", "SEED=7", "-D", "COUNT=256", "-I",
              (t / "inc").string(), "--timeout", "7", "--backend", "emu"},
             &r);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(j.is_object()) << r.err;
  const auto& s = j["session"];
  EXPECT_EQ(s["error"], "");
  const std::string out = s["stdout"];
  EXPECT_NE(out.find("argv[1] = hello42\nSEED 7 COUNT 256\n"), std::string::npos)
      << out.substr(0, 200);
  EXPECT_NE(s["stdout_note"].get<std::string>().find("not UTF-8 shown as U+FFFD"),
            std::string::npos)
      << s["stdout_note"];
  const auto& state = j["panels"]["lesson"]["state"];
  EXPECT_EQ(state["program_args"], "hello42");
  EXPECT_EQ(state["program_defines"], "SEED=7 COUNT=256");
  EXPECT_EQ(state["program_includes"], (t / "inc").string());
  EXPECT_EQ(state["program_timeout_s"], "7");
  EXPECT_EQ(state["program_backend"], "emu");
}

// A -D naming a `// warpscope: param` slider moves the slider (examples/transpose.cu's TILE_DIM,
// 16 in the file, 8..32 step 8: 8 x 8 blocks); another stays in the Defines field.
TEST(GuiProgramOptions, ADefineNamingASliderMovesIt) {
  REQUIRE_PROGRAMS();
  TempDir t("gui-program-define-slider");
  test::RunResult r;
  const nlohmann::json j = Layout(
      t, {WARPSCOPE_SOURCE_DIR "/examples/transpose.cu", "-D", "TILE_DIM=8", "-D", "UNUSED=1"}, &r);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(j.is_object()) << r.err;
  ASSERT_EQ(j["session"]["launches"].size(), 3u);
  EXPECT_EQ(j["session"]["launches"][0]["block"], nlohmann::json::array({8, 8, 1}));
  EXPECT_EQ(j["panels"]["lesson"]["state"]["program_defines"], "UNUSED=1");
}

// --timeout reaches the run: the program that never ends (prints_bytes spin) is stopped at 1 s,
// and the app says so with the limit, in the words of docs/PROGRAMS.md.
TEST(GuiProgramOptions, TheTimeLimitStopsAProgramThatNeverEnds) {
  REQUIRE_PROGRAMS();
  TempDir t("gui-program-timeout");
  test::RunResult r;
  const nlohmann::json j = Layout(t, {kProgram, "--arg", "spin", "--timeout", "1"}, &r);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(j.is_object()) << r.err;
  EXPECT_NE(j["session"]["error"].get<std::string>().find("ran longer than the limit of 1.00 s"),
            std::string::npos)
      << j["session"]["error"];
}

// Each refused before a window opens (no display needed), with status 2 and a message naming the
// option: unknown, a program's option without a program, a -D that is not NAME=VALUE, a -I that
// is not a folder, a time limit outside the CLI's 0.1..3600 s, an argument with a space (the
// field cannot hold it as one).
TEST(GuiProgramOptions, AWrongOrUnknownOptionExitsTwoWithAMessage) {
  TempDir t("gui-program-bad-options");
  const std::string cfg = (t / "cfg").string();
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  for (const Case& c : {
           Case{{"--no-such-option"}, "--no-such-option"},
           Case{{"--arg=x"}, "-I, -D, --arg and --timeout are a program's"},
           Case{{kProgram, "-D", "1X=2"}, "-D 1X=2: expected NAME=VALUE"},
           Case{{kProgram, "-I", (t / "missing").string()}, "missing: no such folder"},
           Case{{kProgram, "--timeout", "0"}, "--timeout"},
           Case{{kProgram, "--arg", "two words"}, "--arg 'two words'"},
           Case{{"--file", kProgram, kProgram}, "--file"},
       }) {
    std::vector<std::string> args = c.args;
    args.insert(args.end(), {"--config-dir", cfg});
    const test::RunResult r = RunApp(args, /*with_display=*/false);
    EXPECT_EQ(r.exit_code, 2) << c.args[0] << ": " << r.err;
    EXPECT_NE(r.err.find(c.says), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace ws
