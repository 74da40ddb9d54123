// The views draw a lesson from its typed figures, never from its parameters by name (a renamed
// parameter would silently blank a view). Only the timing view reads parameters: it plots
// against whichever one the user picks, by the name the user picked.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace {

bool Word(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// Whether `line` reads a run's parameters: `.params` or `->params` as a whole word, not assigned
// in whole (`run->params = ...`).
bool ReadsParams(const std::string& line) {
  for (std::size_t at = line.find("params"); at != std::string::npos;
       at = line.find("params", at + 1)) {
    const bool member =
        (at >= 1 && line[at - 1] == '.') || (at >= 2 && line[at - 2] == '-' && line[at - 1] == '>');
    const std::size_t end = at + 6;
    if (!member || (end < line.size() && Word(line[end]))) continue;
    std::size_t next = end;
    while (next < line.size() && line[next] == ' ') ++next;
    const bool assigned = next < line.size() && line[next] == '=' &&
                          (next + 1 >= line.size() || line[next + 1] != '=');
    if (!assigned) return true;
  }
  return false;
}

TEST(ViewsReadFigures, TheCheckFindsAReadAndNotAnAssignment) {
  EXPECT_TRUE(ReadsParams("    block_ = run.params.count(\"block\") ? 5.0"));
  EXPECT_TRUE(ReadsParams("const Params& p = run->params;"));
  EXPECT_TRUE(ReadsParams("if (x.params == y.params)"));
  EXPECT_FALSE(ReadsParams("  run->params = std::move(params);"));
  EXPECT_FALSE(ReadsParams("  ImGui::Text(\"params\"); run.params_seen = 1;"));
}

TEST(ViewsReadFigures, NoViewReadsAParameterByName) {
  const std::filesystem::path viz = std::filesystem::path(WARPSCOPE_SOURCE_DIR) / "viz";
  int files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(viz)) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".cpp" && ext != ".h") continue;
    ++files;
    // The timing view: its panel and its model (points, series) in timing_series.cpp.
    const std::string name = entry.path().filename().string();
    if (name == "timing_panel.cpp" || name == "timing_series.cpp") continue;
    std::ifstream in(entry.path());
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      EXPECT_FALSE(ReadsParams(line))
          << entry.path().string() << ":" << n << " reads a parameter: " << line;
    }
  }
  EXPECT_GT(files, 30);  // the views were found
}

}  // namespace
