// The views draw a lesson from its typed figures, never from its parameters by name (a renamed
// parameter would silently blank a view). Only the timing view reads parameters: it plots
// against whichever one the user picks, by the name the user picked.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

namespace {

TEST(ViewsReadFigures, NoViewReadsAParameterByName) {
  const std::filesystem::path viz = std::filesystem::path(WARPSCOPE_SOURCE_DIR) / "viz";
  // A run's parameters read: run.params / run->params / p.params, not assigned in whole.
  const std::regex read(R"((\.|->)params\b(?!\s*=[^=]))");
  int files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(viz)) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".cpp" && ext != ".h") continue;
    ++files;
    if (entry.path().filename() == "timing_panel.cpp") continue;
    std::ifstream in(entry.path());
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
      EXPECT_FALSE(std::regex_search(line, read))
          << entry.path().string() << ":" << n << " reads a parameter: " << line;
    }
  }
  EXPECT_GT(files, 30);  // the views were found
}

}  // namespace
