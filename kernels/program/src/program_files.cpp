// ProgramFileSetOf (program.h): which files `run --file` compiles, and which holds main().
#include <algorithm>
#include <fstream>
#include <sstream>

#include "warpscope/program/program.h"

namespace ws {
namespace {

bool IsSource(const std::filesystem::path& p) {
  const std::string e = p.extension().string();
  return e == ".cu" || e == ".cpp" || e == ".cc" || e == ".cxx";
}

// Does the file define main()? (A plain text test: `int main(` at the start of a line.)
bool DefinesMain(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  std::istringstream lines(s.str());
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string type, name;
    words >> type;
    if (type != "int" && type != "auto") continue;
    std::getline(words >> std::ws, name);
    if (name.rfind("main", 0) == 0) {
      const std::size_t at = name.find_first_not_of(" \t", 4);
      if (at != std::string::npos && name[at] == '(') return true;
    }
  }
  return false;
}

}  // namespace

Result<ProgramFileSet> ProgramFileSetOf(const std::vector<std::filesystem::path>& given) {
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& g : given) {
    if (std::filesystem::is_directory(g, ec)) {
      std::vector<std::filesystem::path> in_folder;
      for (const auto& e : std::filesystem::directory_iterator(g, ec)) {
        if (e.is_regular_file(ec) && IsSource(e.path())) in_folder.push_back(e.path());
      }
      if (in_folder.empty())
        return Status::Error(g.string() + " is a folder with no .cu, .cpp, .cc or .cxx file");
      std::sort(in_folder.begin(), in_folder.end());
      files.insert(files.end(), in_folder.begin(), in_folder.end());
    } else if (std::filesystem::is_regular_file(g, ec)) {
      files.push_back(g);
    } else {
      return Status::Error("cannot read " + g.string() + ": no such file or folder");
    }
  }
  if (files.empty()) return Status::Error("no program file given");
  std::size_t main = 0;
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (DefinesMain(files[i])) {
      main = i;
      break;
    }
  }
  ProgramFileSet set;
  set.main = files[main];
  for (std::size_t i = 0; i < files.size(); ++i) {
    const bool same = std::filesystem::equivalent(files[i], files[main], ec);
    if (i != main && !same) set.others.push_back(files[i]);
  }
  return set;
}

}  // namespace ws
