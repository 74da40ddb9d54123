// Two runs side by side (the compare view, a lecture step's `compare`): what differs between
// run A (pinned) and run B (current), in words and numbers, as a teacher would say it:
// "global stores: 32 -> 4 sectors per request", "shared loads: 32-way -> 1-way bank conflicts".
#pragma once

#include <string>
#include <vector>

#include "warpscope/trace/lesson_run.h"

namespace ws {

// "transpose naive (width=256 height=256 tile=32), emulator"
std::string DescribeRun(const LessonRun& run);

// One line per figure that differs (the same figures are left out): per memory space and
// operation, sectors per request (global, constant, texture) and the worst bank conflict
// (shared); shared memory per block; barriers; the time when both have one of the same kind;
// whether the output checked. Empty when nothing differs.
std::vector<std::string> CompareRuns(const LessonRun& a, const LessonRun& b);

}  // namespace ws
