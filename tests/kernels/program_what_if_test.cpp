// A what-if on a user's program (examples/transpose.cu, unmodified) against a real run of the code
// it proposes: the test writes the proposal into the program's text and runs that.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "program_test_util.h"
#include "warpscope/trace/what_if.h"

namespace ws {
namespace {

std::string Example() {
  std::ifstream in(WARPSCOPE_SOURCE_DIR "/examples/transpose.cu");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs `text` keeping every block, showing the launch of `kernel`.
LessonRun RunShowing(const std::string& text, const std::string& kernel) {
  ProgramOptions o;
  o.keep_all_threads_up_to = 1u << 18;
  LessonRun run = test::RunText(text, o);
  EXPECT_TRUE(run.program->ok()) << run.program->failure << run.program->stderr_text;
  for (std::size_t i = 0; i < run.launches.size(); ++i) {
    if (run.launches[i].kernel.rfind(kernel, 0) == 0) run.program->launch = i;
  }
  EXPECT_EQ(run.main_launch().kernel.rfind(kernel, 0), 0u);
  return run;
}

// Line `line` (1-based) of `text` with `from` replaced by `to` (once).
std::string ReplaceOnLine(std::string text, std::uint32_t line, const std::string& from,
                          const std::string& to) {
  std::size_t at = 0;
  for (std::uint32_t l = 1; l < line; ++l) at = text.find('\n', at) + 1;
  const std::size_t hit = text.find(from, at);
  EXPECT_NE(hit, std::string::npos) << from;
  EXPECT_LT(hit, text.find('\n', at)) << "'" << from << "' is not on line " << line;
  return text.replace(hit, from.size(), to);
}

void ExpectSameFigures(const LessonRun& a, const LessonRun& b) {
  const LaunchTrace &x = a.main_launch(), &y = b.main_launch();
  ASSERT_EQ(x.sites.size(), y.sites.size());
  for (std::size_t i = 0; i < x.sites.size(); ++i) {
    SCOPED_TRACE("line " + std::to_string(x.sites[i].line) + ": " + x.sites[i].code);
    EXPECT_EQ(x.stats.sites[i].requests, y.stats.sites[i].requests);
    EXPECT_EQ(x.stats.sites[i].sectors, y.stats.sites[i].sectors);
    EXPECT_EQ(x.stats.sites[i].wavefronts, y.stats.sites[i].wavefronts);
    EXPECT_EQ(x.stats.sites[i].bank_conflict_max, y.stats.sites[i].bank_conflict_max);
  }
}

// transposeCoalesced's 16x16 tile (TILE_DIM 16 in the example), read by columns: a warp is two
// rows of 16 threads, lane l reading word 16 (l % 16) + ty: the even lanes of a row all in bank
// ty, the odd ones in bank 16 + ty, 8 words each: 8-way as written (the real run says so too).
// Swizzle<4,0,4> keeps column j of row i at j ^ (i & 15): the first row's lanes meet banks
// 16 (tx & 1) + (ty ^ tx), the second row's (ty + 1 = ty ^ 1) the same values with the 16 on
// the other lanes, so the warp meets all 32 banks once: 1-way (the padded 16x17 tile is 2-way,
// request_test's TileColumnReadUnderBothModels). The test writes the index expressions
// the what-if proposes into the two lines that use the tile, runs that program, and asks for the
// same figures at every site. The output must still be right: a swizzle only moves elements.
TEST(ProgramWhatIf, SwizzleOfTheExamplesTileEqualsARunOfTheCodeItProposes) {
  const std::string text = Example();
  const LessonRun run = RunShowing(text, "transposeCoalesced");
  auto w = ParseWhatIf("tile:swizzle=4,0,4", run);
  ASSERT_TRUE(w.ok()) << w.status().message();
  EXPECT_EQ(w->array.rows, 16u);  // from `tile[TILE_DIM][TILE_DIM]`, TILE_DIM 16
  EXPECT_EQ(w->array.cols, 16u);
  auto what_if = ApplyWhatIf(run, *w);
  ASSERT_TRUE(what_if.ok()) << what_if.status().message();
  const auto load = [](const LessonRun& r) {
    const LaunchTrace& t = r.main_launch();
    for (std::size_t i = 0; i < t.sites.size(); ++i)
      if (t.sites[i].space == MemorySpace::kShared && t.sites[i].op == AccessOp::kLoad)
        return t.stats.sites[i].bank_conflict_max;
    return 0u;
  };
  EXPECT_EQ(load(run), 8u);
  EXPECT_EQ(load(*what_if), 1u);
  std::string edited = text;
  for (std::uint16_t s : w->array.sites) {
    const SiteInfo& site = run.main_launch().sites[s];
    edited = ReplaceOnLine(edited, site.line, AccessText(site, "tile"), ProposedCode(*w, site));
  }
  EXPECT_NE(edited.find("tile[threadIdx.x][threadIdx.y ^ (threadIdx.x & 15)]"), std::string::npos);
  const LessonRun real = RunShowing(edited, "transposeCoalesced");
  EXPECT_NE(real.program->stdout_text.find("transposeCoalesced"), std::string::npos);
  EXPECT_EQ(real.program->stdout_text.find("FAIL"), std::string::npos) << real.program->stdout_text;
  ExpectSameFigures(*what_if, real);
}

// Pad +1 proposes the declaration `tile[TILE_DIM][TILE_DIM + 1]`: written in, the program runs
// with those figures.
TEST(ProgramWhatIf, PadOfTheExamplesTileEqualsARunOfTheDeclarationItProposes) {
  const std::string text = Example();
  const LessonRun run = RunShowing(text, "transposeCoalesced");
  auto w = ParseWhatIf("tile:pad=1", run);
  ASSERT_TRUE(w.ok()) << w.status().message();
  auto what_if = ApplyWhatIf(run, *w);
  ASSERT_TRUE(what_if.ok()) << what_if.status().message();
  const std::string code = what_if->what_if->code;
  ASSERT_EQ(code.rfind("__shared__ float tile[TILE_DIM][TILE_DIM + 1];", 0), 0u) << code;
  const std::string declared = "__shared__ float tile[TILE_DIM][TILE_DIM];";
  std::string edited = text;
  edited.replace(edited.find(declared), declared.size(), code.substr(0, code.find(';') + 1));
  const LessonRun real = RunShowing(edited, "transposeCoalesced");
  ExpectSameFigures(*what_if, real);
  const LaunchTrace& t = real.main_launch();
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    if (t.sites[i].space == MemorySpace::kShared && t.sites[i].op == AccessOp::kLoad) {
      EXPECT_EQ(t.stats.sites[i].bank_conflict_max, 2u);  // 16x17: the two rows collide once
    }
  }
}

}  // namespace
}  // namespace ws

namespace ws {
namespace {

// The what-if written into the program as a slider: at 1 (as written into the file) the run has
// the what-if's figures; at -D WS_SWIZZLE=0 / WS_PAD=0 the program's own. The output stays right.
TEST(ProgramWhatIf, WrittenAsASliderTheProgramRunsEitherWay) {
  const std::string text = Example();
  const LessonRun run = RunShowing(text, "transposeCoalesced");
  for (const char* spec : {"tile:swizzle=4,0,4", "tile:pad=1"}) {
    SCOPED_TRACE(spec);
    auto w = ParseWhatIf(spec, run);
    ASSERT_TRUE(w.ok()) << w.status().message();
    auto what_if = ApplyWhatIf(run, *w);
    ASSERT_TRUE(what_if.ok());
    auto edited = WriteWhatIf(*w, run);
    ASSERT_TRUE(edited.ok()) << edited.status().message();
    const bool swizzle = std::string(spec).find("swizzle") != std::string::npos;
    EXPECT_NE(edited->find(swizzle ? "#define WS_SWIZZLE 1  // warpscope: param WS_SWIZZLE 0..1"
                                   : "#define WS_PAD 1  // warpscope: param WS_PAD 0..8"),
              std::string::npos)
        << *edited;
    if (swizzle)
      EXPECT_NE(
          edited->find("tile[threadIdx.x][(threadIdx.y) ^ (WS_SWIZZLE * ((threadIdx.x) & 15))]"),
          std::string::npos);
    else
      EXPECT_NE(edited->find("__shared__ float tile[TILE_DIM][TILE_DIM + WS_PAD];"),
                std::string::npos);
    const LessonRun on = RunShowing(*edited, "transposeCoalesced");
    EXPECT_EQ(on.program->stdout_text.find("FAIL"), std::string::npos) << on.program->stdout_text;
    ExpectSameFigures(*what_if, on);
    ProgramOptions o;
    o.keep_all_threads_up_to = 1u << 18;
    o.defines = {swizzle ? "WS_SWIZZLE=0" : "WS_PAD=0"};
    LessonRun off = test::RunText(*edited, o);
    ASSERT_TRUE(off.program->ok()) << off.program->failure;
    off.program->launch = run.program->launch;
    ExpectSameFigures(run, off);
  }
  // A lesson has variants, not a source to write; a Morton layout is not a slider.
  auto morton = ParseWhatIf("tile:morton", run);
  ASSERT_TRUE(morton.ok());
  EXPECT_EQ(WriteWhatIf(*morton, run).status().message(),
            "a morton what-if is not written as a slider; pad and swizzle are (its code: see the "
            "what-if's code line)");
}

}  // namespace
}  // namespace ws
