// What the program tests share: running a program's text and reading an example.
#pragma once

#include <cstdio>
#include <string>

#include "warpscope/program/program.h"

namespace ws::test {

// Runs `text` as the program "test.cu" (its own #include "..." files from examples/).
inline ProgramRun RunText(const std::string& text, ProgramOptions o = {}) {
  return RunProgramText("test.cu", WARPSCOPE_SOURCE_DIR "/examples", text, o);
}

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

}  // namespace ws::test
