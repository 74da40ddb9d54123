// What the check tests share (check_test.cpp, check_grading_test.cpp): where the shipped
// assignments and their solutions are, and the skip where the sandbox cannot run.
#pragma once

#include <filesystem>
#include <string>

#include "cli_util.h"

namespace ws::test {

inline const std::filesystem::path kAssignments =
    std::filesystem::path(WARPSCOPE_SOURCE_DIR) / "assets" / "assignments";
inline const std::filesystem::path kSolutions =
    std::filesystem::path(WARPSCOPE_SOURCE_DIR) / "tests" / "assignments";

}  // namespace ws::test

// `check` refuses to grade where the sandbox cannot run (no bwrap, no user namespaces), saying
// so in one line: then a test of its verdicts skips, with that line as its reason.
#define SKIP_WITHOUT_SANDBOX(res)                                                          \
  do {                                                                                     \
    if ((res).code == 2 && (res).out.find("not grading unsandboxed") != std::string::npos) \
      GTEST_SKIP() << (res).out;                                                           \
  } while (0)
