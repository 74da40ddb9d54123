// `warpscope-cli check`: an assignment's goals against submissions (check_command.cpp).
#pragma once

#include <string>
#include <vector>

namespace ws::cli {

struct CheckArgs {
  std::string assignment;
  std::vector<std::string> submissions;  // files, or folders of .cu files
  std::string backend = "emu";
  double timeout_s = 30;
  bool json = false;
  std::string report_dir;  // each submission's HTML report goes here ("" : none)
};

// Prints each submission's goals with their figures; returns 0 only when every submission met
// every goal, 1 when one did not, 2 for a bad assignment file, a missing submission, a refused
// sandbox or a report that could not be written.
int CheckCommand(const CheckArgs& args);

}  // namespace ws::cli
