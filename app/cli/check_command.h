// `warpscope-cli check`: an assignment's goals against submissions (check_command.cpp).
#pragma once

#include <string>
#include <vector>

namespace ws::cli {

// Prints each submission's goals with their figures; returns 0 only when every submission met
// every goal, 1 when one did not, 2 for a bad assignment file or a missing submission.
int CheckCommand(const std::string& assignment, const std::vector<std::string>& submissions,
                 const std::string& backend, double timeout_s, bool json);

}  // namespace ws::cli
