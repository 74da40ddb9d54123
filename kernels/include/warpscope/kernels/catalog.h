// The lesson catalogue: every lesson folder's declaration (kernels/lessons/NAME/lesson.h), in
// teaching order, and the one call that runs a lesson on a backend ("emu" or "cuda") and returns
// its run. Nothing here names a lesson: each declares its kind and special cases itself.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "warpscope/kernels/lesson_api.h"

namespace ws {

// Why `lesson` (needs_gpu) does not run on the emulator, in one sentence.
std::string NeedsGpuMessage(const LessonInfo& lesson);

// The lessons a student picks from (hidden ones left out), in teaching order.
const std::vector<LessonInfo>& Lessons();
// Any lesson by id, hidden ones included (the "fault" lesson: a kernel that faults on purpose).
const LessonInfo* FindLesson(const std::string& id);
// The lesson the app shows the first time it starts (the one declared opens_first).
const LessonInfo& FirstLesson();

// A lesson request with its names checked and its defaults filled in.
struct LessonRequest {
  const LessonInfo* info = nullptr;
  std::string variant;  // the default one when none was asked for
  Params params;        // every parameter: the overrides, else the defaults
};
// Checks every name and value (the message names what is allowed) and fills in defaults.
Result<LessonRequest> ResolveLesson(const std::string& id, const std::string& variant,
                                    const Params& overrides);

// A parameter's value as written on a command line or in a lecture file: a whole number, or
// one of the parameter's named choices (occupancy's device=cc1.3; spaces do not count, so
// "64MB" is the choice "64 MB"). `info` null (a program's sliders): whole numbers only.
Result<long long> ParseParamValue(const LessonInfo* info, const std::string& name,
                                  const std::string& text);

// The app's and warpscope-cli's "--set NAME=VALUE" arguments, each through ParseParamValue.
// A parameter that the chosen variant does not use is kept (another variant may), and `notes`
// gets one line saying so ("layout does nothing in the global variant (...)").
Result<Params> ParseSetArguments(const LessonInfo* info, const std::string& variant,
                                 const std::vector<std::string>& arguments,
                                 std::vector<std::string>* notes);

// ResolveLesson, then runs the lesson and checks its output. `variant` empty: the default one.
Result<LessonRun> RunLesson(const std::string& id, const std::string& variant,
                            const Params& overrides, const std::string& backend,
                            const RunOptions& options);

}  // namespace ws
