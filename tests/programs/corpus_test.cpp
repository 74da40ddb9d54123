// The public-program corpus (tests/programs/corpus/corpus.json): each program, unmodified, with
// only its own arguments, -I and -D, runs on the emulator to the end, passes its own check, has its
// launches recorded and no hazard reported (none of them races); or, where the entry says so, fails
// with the message it must (a real bug, a feature refused by name). The programs are not in git
// (corpus README): without them every test skips and says why.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "warpscope/program/program.h"

namespace ws {
namespace {

const std::filesystem::path kCorpus = WARPSCOPE_SOURCE_DIR "/tests/programs/corpus";

nlohmann::json Manifest() {
  std::ifstream in(kCorpus / "corpus.json");
  return nlohmann::json::parse(in);
}

class Corpus : public ::testing::TestWithParam<std::string> {};

TEST_P(Corpus, RunsAsWritten) {
  nlohmann::json entry;
  for (const auto& e : Manifest()) {
    if (e.at("name") == GetParam()) entry = e;
  }
  ASSERT_FALSE(entry.is_null());
  const auto files = entry.at("files").get<std::vector<std::string>>();
  const std::filesystem::path main = kCorpus / files.at(0);
  if (!std::filesystem::exists(main))
    GTEST_SKIP() << "the corpus's programs are not in this checkout (fetched code is never "
                    "committed: tests/programs/corpus/README.md); "
                 << files[0] << " is missing";
  ProgramOptions o;
  for (std::size_t i = 1; i < files.size(); ++i) o.extra_files.push_back(kCorpus / files[i]);
  for (const auto& d : entry.value("include_dirs", std::vector<std::string>{}))
    o.include_dirs.push_back(kCorpus / d);
  o.defines = entry.value("defines", std::vector<std::string>{});
  o.args = entry.value("args", std::vector<std::string>{});
  // A program near the default limit on a 2-core machine says how long it may take.
  o.timeout = std::chrono::seconds(entry.value("timeout_s", 30));
  // As a user runs it: from its own folder (simpleTexture reads ./data/).
  std::filesystem::current_path(main.parent_path());
  const LessonRun run = RunProgramFile(main, o);
  if (entry.contains("expect_failure")) {
    EXPECT_FALSE(run.program->ok() && run.program->exit_code == 0);
    EXPECT_NE(run.program->failure.find(entry.at("expect_failure").get<std::string>()),
              std::string::npos)
        << run.program->failure;
    return;
  }
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  EXPECT_EQ(run.program->exit_code, 0) << run.program->stdout_text;
  if (entry.at("checks_output").is_string()) {
    EXPECT_NE(run.program->stdout_text.find(entry.at("checks_output").get<std::string>()),
              std::string::npos)
        << run.program->stdout_text;
  }
  EXPECT_GE(run.launches.size(), entry.value("min_launches", 1u));
  for (const LaunchTrace& t : run.launches) {
    EXPECT_EQ(t.hazards.groups.size(), 0u) << t.kernel << ": a hazard in a race-free program";
  }
}

std::vector<std::string> Names() {
  std::vector<std::string> names;
  for (const auto& e : Manifest()) names.push_back(e.at("name").get<std::string>());
  return names;
}

INSTANTIATE_TEST_SUITE_P(Programs, Corpus, ::testing::ValuesIn(Names()),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           std::string n;
                           for (char c : p.param)
                             n += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return n;
                         });

}  // namespace
}  // namespace ws
