// What the program tests share: running a program's text and reading an example.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "warpscope/program/program.h"

namespace ws::test {

// Runs `text` as the program "test.cu" (its own #include "..." files from examples/).
inline ProgramRun RunText(const std::string& text, ProgramOptions o = {}) {
  return RunProgramText("test.cu", WARPSCOPE_SOURCE_DIR "/examples", text, o);
}

// Rows of an `int**` matrix, each its own managed buffer: 4 rows of 32 ints, one warp summing
// d[r][threadIdx.x] over the rows (prints 6: 0 + 1 + 2 + 3).
inline constexpr const char* kPointerRowsProgram = R"(#include <cstdio>
__global__ void sum(int** d, int* out) {
  int s = 0;
  for (int r = 0; r < 4; ++r) s += d[r][threadIdx.x];
  out[threadIdx.x] = s;
}
int main() {
  int** d;
  int* out;
  cudaMallocManaged(&d, 4 * sizeof(int*));
  for (int r = 0; r < 4; ++r) {
    cudaMallocManaged(&d[r], 32 * sizeof(int));
    for (int c = 0; c < 32; ++c) d[r][c] = r;
  }
  cudaMallocManaged(&out, 32 * sizeof(int));
  sum<<<1, 32>>>(d, out);
  cudaDeviceSynchronize();
  printf("%d\n", out[5]);  // 0 + 1 + 2 + 3
}
)";

// The text of examples/NAME ("" when it cannot be read).
inline std::string ReadExample(const std::string& name) {
  FILE* f = std::fopen((std::string(WARPSCOPE_SOURCE_DIR "/examples/") + name).c_str(), "rb");
  std::string text;
  if (f == nullptr) return text;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
  std::fclose(f);
  return text;
}

// A folder of files for one test (removed at the end).
class Folder {
 public:
  explicit Folder(const std::string& name)
      : path_(std::filesystem::temp_directory_path() /
              ("warpscope-course-" + name + "-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~Folder() { std::filesystem::remove_all(path_); }
  void Write(const std::string& name, const std::string& text) const {
    std::filesystem::create_directories((path_ / name).parent_path());
    std::ofstream(path_ / name, std::ios::binary) << text;
  }
  ProgramRun Run(const std::string& main, ProgramOptions o = {}) const {
    std::ifstream in(path_ / main, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return RunProgramText(main, path_, s.str(), o);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// The launch's site at `line` (and `column` when given), or null.
inline const SiteInfo* SiteAt(const LaunchTrace& t, std::uint32_t line, std::uint32_t column = 0,
                              std::size_t* index = nullptr) {
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    if (t.sites[i].line == line && (column == 0 || t.sites[i].column == column)) {
      if (index != nullptr) *index = i;
      return &t.sites[i];
    }
  }
  return nullptr;
}

}  // namespace ws::test
