// The shipped assignments grade what they claim: a submission that is fast but wrong (a copy
// instead of a transpose, a tree that skips a step), and that exits 0 as if it were right, meets
// every figure goal and misses the output goal, while the solution meets them all; and a marker
// the assignment's own starting program lacks is the assignment's mistake, found before any
// submission runs.
#include <gtest/gtest.h>

#include "check_util.h"
#include "cli_util.h"
#include "core/assignment.h"

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using ws::test::kAssignments;
using ws::test::kSolutions;

using ws::test::Cli;
using ws::test::Out;
using ws::test::Slurp;

// `text` with each (from, to) replaced once; a `from` that is not there fails the test.
std::string Edit(std::string text, const std::vector<std::pair<std::string, std::string>>& edits) {
  for (const auto& [from, to] : edits) {
    const std::size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
  }
  return text;
}

struct WrongButFast {
  std::string assignment;  // its name in assets/assignments
  std::string from;        // the program the wrong one is made from
  std::vector<std::pair<std::string, std::string>> edits;
  std::string solution;  // in tests/assignments
};

// Each a kernel that does less than the task and a main() that exits 0 whatever its own check
// found (as a student who silences a failing check would), so only the output's values tell:
// - transpose-coalesce: the start's store made a copy, odata[y][x] = idata[y][x]: coalesced (4
//   sectors), no races; 65,280 of 65,536 elements wrong (all but the 256 on the diagonal).
// - transpose-banks: the padded solution reading its own element back, tile[ty][tx]: 1-way,
//   stores 4 sectors, no races; a copy of each tile in the transposed tile's place, wrong too.
// - block-transpose-race: the fixed kernel writing back its own element: no race, 3,072 of the
//   4,096 elements wrong (all but a 4 x 4 tile's diagonal, 4 of 16 in each of the 256 tiles).
// - reduction: the sequential tree stopping at s = 2, leaving word 1 unadded: conflict free, fewer
//   requests than the solution, and the sum short.
std::vector<WrongButFast> Cases() {
  return {
      {"transpose-coalesce",
       "transpose-coalesce.cu",
       {{"odata[x * height + y] = idata[y * width + x];",
         "odata[y * width + x] = idata[y * width + x];"},
        {"return wrong != 0;", "return 0;"}},
       "transpose-coalesce.solution.cu"},
      {"transpose-banks",
       "transpose-banks.solution.cu",
       {{"float v = tile[threadIdx.x][threadIdx.y];", "float v = tile[threadIdx.y][threadIdx.x];"},
        {"return wrong != 0;", "return 0;"}},
       "transpose-banks.solution.cu"},
      {"block-transpose-race",
       "block-transpose-race.solution.cu",
       {{"A_elements[baseIdx] = blockA[threadIdx.x][threadIdx.y];",
         "A_elements[baseIdx] = blockA[threadIdx.y][threadIdx.x];"}},
       "block-transpose-race.solution.cu"},
      {"reduction",
       "reduction.solution.cu",
       {{"s > 0; s >>= 1", "s > 1; s >>= 1"}, {"return got != want;", "return 0;"}},
       "reduction.solution.cu"},
  };
}

// Every shipped assignment has a case below, and an output goal that reads the output's values
// (`contains`), not only the exit status.
TEST(CheckGrading, EveryShippedAssignmentChecksTheOutputsValues) {
  std::set<std::string> shipped, covered;
  for (const auto& e : fs::directory_iterator(kAssignments)) {
    if (e.path().extension() != ".toml") continue;
    shipped.insert(e.path().stem().string());
    auto a = ws::LoadAssignment(e.path());
    ASSERT_TRUE(a.ok()) << a.status().message();
    bool reads_values = false;
    for (const ws::Goal& g : a->goals)
      reads_values |= g.figure == ws::GoalFigure::kOutput && !g.contains.empty();
    EXPECT_TRUE(reads_values) << e.path() << ": its output goal needs `contains`";
  }
  for (const WrongButFast& c : Cases()) covered.insert(c.assignment);
  EXPECT_EQ(covered, shipped);
}

TEST(CheckGrading, AWrongButFastSubmissionMissesOnlyTheOutputGoal) {
  const fs::path dir = fs::current_path() / "ws_check_wrong_but_fast";
  for (const WrongButFast& c : Cases()) {
    SCOPED_TRACE(c.assignment);
    fs::remove_all(dir);
    fs::create_directories(dir);
    const fs::path base = fs::exists(kSolutions / c.from) ? kSolutions : kAssignments;
    std::ofstream(dir / "1-solution.cu") << Slurp(kSolutions / c.solution);
    std::ofstream(dir / "2-wrong.cu") << Edit(Slurp(base / c.from), c.edits);
    const Out r = Cli("check --json " + (kAssignments / (c.assignment + ".toml")).string() + " " +
                      dir.string());
    SKIP_WITHOUT_SANDBOX(r);
    ASSERT_EQ(r.code, 1) << r.out;
    const auto j = nlohmann::json::parse(r.out);
    ASSERT_EQ(j["submissions"].size(), 2u);
    EXPECT_TRUE(j["submissions"][0]["met"]) << j["submissions"][0].dump(2);
    const auto& wrong = j["submissions"][1];
    EXPECT_EQ(wrong["failure"], "");  // it ran to the end, and exited 0
    for (const auto& g : wrong["goals"]) {
      const bool output = g["figure"] == "output";
      EXPECT_EQ(g["met"].get<bool>(), !output) << g["text"];
      if (output) {  // why: the line its own check prints lacks what the goal names
        EXPECT_NE(g["text"].get<std::string>().find("its output must contain"), std::string::npos)
            << g["text"];
      }
    }
  }
  fs::remove_all(dir);
}

// A site misspelt in the assignment ("tile-reed" for the program's `// goal: tile-read`): check
// says so naming the file, the goal's line, the marker and the starting program, exits 2, and
// runs no submission (nothing of a verdict is printed).
TEST(CheckGrading, AMarkerTheStartingProgramLacksIsTheAssignmentsMistake) {
  const fs::path dir = fs::temp_directory_path() / "ws_check_misspelt";
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "start.cu") << Slurp(kAssignments / "transpose-banks.cu");
  std::ofstream(dir / "a.toml") << "title = \"A\"\nprogram = \"start.cu\"\n\n"
                                   "[[goal]]\nfigure = \"output\"\n\n"            // lines 4-6
                                   "[[goal]]\nfigure = \"bank_conflict_ways\"\n"  // lines 7-8
                                   "site = \"tile-reed\"\nat_most = 1\n";         // lines 9-10
  const Out r = Cli("check " + (dir / "a.toml").string() + " " +
                    (kSolutions / "transpose-banks.solution.cu").string());
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.out,
            "warpscope-cli: a.toml:9: goal 2: site: the starting program start.cu has no marker "
            "`// goal: tile-reed` (nor has a header it includes): a misspelt site, or a marker "
            "missing from the program? Every submission would miss this goal\n");
  // A marker in a header the starting program includes is found there (tests/assignments/
  // in-header: kern.cuh's `// goal: store`), and one only mentioned in a comment is not one.
  EXPECT_TRUE(ws::LoadAssignment(kSolutions / "in-header" / "in-header.toml").ok());
  std::ofstream(dir / "mention.cu") << "// Keep `// goal: store` on the store.\nint main() {}\n";
  std::ofstream(dir / "b.toml") << "title = \"B\"\nprogram = \"mention.cu\"\n\n[[goal]]\n"
                                   "figure = \"requests\"\nsite = \"store\"\nat_most = 1\n";
  auto b = ws::LoadAssignment(dir / "b.toml");
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.status().message().find("b.toml:6: goal 1: site: the starting program mention.cu "
                                      "has no marker `// goal: store`"),
            std::string::npos)
      << b.status().message();
  fs::remove_all(dir);
}

}  // namespace
