// A lesson is one folder: kernels/lessons/NAME/ holds its kernel and lesson.h, and nothing outside
// the folder names it. These tests read the source tree (WARPSCOPE_SOURCE_DIR) as a newcomer
// would grep it.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "warpscope/kernels/catalog.h"

namespace ws {
namespace {

namespace fs = std::filesystem;
const fs::path kRoot = WARPSCOPE_SOURCE_DIR;

std::string Read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool IsCode(const fs::path& p) {
  const std::string e = p.extension().string();
  return e == ".h" || e == ".cpp" || e == ".cu" || e == ".cuh";
}

// Every code file under `dirs` (relative to the root).
std::vector<fs::path> CodeFiles(const std::vector<std::string>& dirs) {
  std::vector<fs::path> files;
  for (const std::string& d : dirs) {
    for (const auto& e : fs::recursive_directory_iterator(kRoot / d)) {
      if (e.is_regular_file() && IsCode(e.path())) files.push_back(e.path());
    }
  }
  return files;
}

// Where `quoted` ("id" with its quotes) is used as a lesson name in `text`: compared with == or
// != on either side, or passed first to a call whose name holds "Lesson" (FindLesson("id"),
// RunLesson("id", ...), SelectLesson("id", ...)). Returns the use, or "" when there is none.
// (Plain string search: std::regex trips a GCC 12 warning under the sanitizer build.)
std::string LessonNameUse(const std::string& text, const std::string& quoted) {
  auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\n'; };
  auto is_word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t at = text.find(quoted); at != std::string::npos;
       at = text.find(quoted, at + 1)) {
    std::size_t before = at;
    while (before > 0 && is_space(text[before - 1])) --before;
    std::size_t after = at + quoted.size();
    while (after < text.size() && is_space(text[after])) ++after;
    const std::string context = text.substr(at >= 40 ? at - 40 : 0, 40 + quoted.size() + 4);
    if (before >= 2 &&
        (text.compare(before - 2, 2, "==") == 0 || text.compare(before - 2, 2, "!=") == 0))
      return context;
    if (after + 2 <= text.size() &&
        (text.compare(after, 2, "==") == 0 || text.compare(after, 2, "!=") == 0))
      return context;
    if (before >= 1 && text[before - 1] == '(') {
      std::size_t name = before - 1;
      while (name > 0 && is_word(text[name - 1])) --name;
      if (text.substr(name, before - 1 - name).find("Lesson") != std::string::npos) return context;
    }
  }
  return {};
}

// Every lesson in the build, hidden ones too.
std::vector<const LessonInfo*> AllLessons() {
  std::vector<const LessonInfo*> v;
  for (const LessonInfo& l : Lessons()) v.push_back(&l);
  v.push_back(FindLesson("fault"));  // hidden: not in Lessons()
  return v;
}

TEST(LessonFolders, NoLessonIdIsComparedOrLookedUpOutsideItsFolder) {
  // Outside kernels/lessons/: the app, the views, the model, the runners and the benchmarks.
  const std::vector<fs::path> files =
      CodeFiles({"app", "viz", "trace", "kernels/src", "kernels/emu", "kernels/cuda",
                 "kernels/include", "bench"});
  ASSERT_GT(files.size(), 50u);
  int checked = 0;
  for (const LessonInfo* l : AllLessons()) {
    ASSERT_NE(l, nullptr);
    const std::string quoted = "\"" + l->id + "\"";
    for (const fs::path& f : files) {
      const std::string use = LessonNameUse(Read(f), quoted);
      EXPECT_EQ(use, "") << fs::relative(f, kRoot) << " names the lesson " << l->id;
      ++checked;
    }
  }
  EXPECT_GT(checked, 500);
}

TEST(LessonFolders, TheNameSearchFindsComparisonsAndLookUps) {
  // The search itself, on snippets: what it must find and what it must leave.
  EXPECT_NE(LessonNameUse("if (id == \"scalability\") x();", "\"scalability\""), "");
  EXPECT_NE(LessonNameUse("lesson_ != \"fp-order\"", "\"fp-order\""), "");
  EXPECT_NE(LessonNameUse("\"latency\" == lesson", "\"latency\""), "");
  EXPECT_NE(LessonNameUse("FindLesson(\"occupancy\")", "\"occupancy\""), "");
  EXPECT_NE(LessonNameUse("ui.SelectLesson( \"transpose\", \"\", {})", "\"transpose\""), "");
  EXPECT_EQ(LessonNameUse("Panel(\"occupancy\", \"Occupancy\")", "\"occupancy\""), "");
  EXPECT_EQ(LessonNameUse("p.at(\"latency\")", "\"latency\""), "");
  EXPECT_EQ(LessonNameUse("label = \"transpose_256\";", "\"transpose\""), "");
}

TEST(LessonFolders, TheViewsIncludeNothingOfTheKernelsAndParseNoJson) {
  for (const fs::path& f : CodeFiles({"viz"})) {
    const std::string text = Read(f);
    EXPECT_EQ(text.find("warpscope/kernels/"), std::string::npos)
        << fs::relative(f, kRoot) << " includes the kernels";
    EXPECT_EQ(text.find("nlohmann"), std::string::npos)
        << fs::relative(f, kRoot) << " reads JSON: views read typed figures";
  }
  // The build agrees: ws_viz links the model, not the lesson catalogue.
  const std::string cmake = Read(kRoot / "viz/CMakeLists.txt");
  EXPECT_EQ(cmake.find("ws_kernels"), std::string::npos);
}

TEST(LessonFolders, EachFolderIsOneLessonFileAndItsKernel) {
  std::set<std::string> ids;
  int folders = 0;
  for (const auto& e : fs::directory_iterator(kRoot / "kernels/lessons")) {
    ASSERT_TRUE(e.is_directory()) << e.path() << ": lessons live in folders";
    ++folders;
    const std::string name = e.path().filename().string();
    std::set<std::string> files;
    for (const auto& f : fs::directory_iterator(e.path())) files.insert(f.path().filename());
    // lesson.h, and the kernel the student reads (models and calculators have none).
    EXPECT_TRUE(files == std::set<std::string>{"lesson.h"} ||
                files == (std::set<std::string>{"lesson.h", name + ".cuh"}))
        << name << " holds " << files.size() << " files";
  }
  const std::vector<const LessonInfo*> all = AllLessons();
  EXPECT_EQ(static_cast<std::size_t>(folders), all.size()) << "one lesson per folder";
  for (const LessonInfo* l : all) {
    EXPECT_TRUE(ids.insert(l->id).second) << "two lessons are called " << l->id;
    if (l->runs_kernel()) {
      EXPECT_FALSE(l->source.empty())
          << l->id << ": its kernel " << l->source_file << " is not embedded";
    }
    if (l->kind != LessonKind::kGpuOnly) {
      EXPECT_NE(l->emulator_cost, nullptr) << l->id << " declares no emulator cost";
    }
    EXPECT_FALSE(l->variants.empty()) << l->id;
    for (const VariantSpec& v : l->variants) {
      for (const std::string& p : v.ignores)
        EXPECT_NE(l->FindParam(p), nullptr) << l->id << "/" << v.name << " ignores " << p;
    }
  }
}

// The kernel a student reads is the slides' plain CUDA (float*, __shared__ float tile[N][N], a
// __constant__ array filled by cudaMemcpyToSymbol, a cudaTextureObject_t read by tex2D<float>):
// the build turns it into the recording API (warpscope-rewrite --lesson-form). No lesson's file
// names the API itself.
TEST(LessonFolders, KernelsAreWrittenAsTheSlidesPrintThem) {
  int plain = 0;
  for (const LessonInfo* l : AllLessons()) {
    if (l->source.empty()) continue;
    ++plain;
    EXPECT_EQ(l->source.find("warpscope/kernels/ws_cuda.h"), std::string::npos)
        << l->id << " (" << l->source_file << ")";
    for (const char* word :
         {"Global<", "SharedArray<", "DynamicShared<", "Constant<", "ConstantArray<", "Texture2D<"})
      EXPECT_EQ(l->source.find(word), std::string::npos) << l->id << " still says " << word;
  }
  // Among them the two that were written against the API until issue 49's ninth session.
  int found = 0;
  for (const LessonInfo* l : AllLessons()) {
    if (l->id == "constant") {
      ++found;
      EXPECT_NE(l->source.find("__constant__ float coeffs[64];"), std::string::npos);
    } else if (l->id == "texture-2d") {
      ++found;
      EXPECT_NE(l->source.find("tex2D<float>(image, x + dx, y + dy)"), std::string::npos);
    }
  }
  EXPECT_EQ(found, 2);
  EXPECT_GT(plain, 2);
}

TEST(LessonFolders, TheCatalogueFollowsTheDeclaredOrder) {
  int last = -1;
  for (const LessonInfo& l : Lessons()) {
    EXPECT_GT(l.order, last) << l.id << " is out of order";
    last = l.order;
  }
  // The seeds' order: memory access patterns first, the app opens on transpose.
  ASSERT_GE(Lessons().size(), 4u);
  EXPECT_EQ(Lessons()[0].id, "offset-copy");
  EXPECT_EQ(Lessons()[3].id, "transpose");
  EXPECT_EQ(FirstLesson().id, "transpose");
}

}  // namespace
}  // namespace ws
