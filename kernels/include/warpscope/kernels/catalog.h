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

// ResolveLesson, then runs the lesson and checks its output. `variant` empty: the default one.
Result<LessonRun> RunLesson(const std::string& id, const std::string& variant,
                            const Params& overrides, const std::string& backend,
                            const RunOptions& options);

}  // namespace ws
