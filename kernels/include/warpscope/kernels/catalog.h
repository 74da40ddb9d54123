// The lesson catalogue: ids, variants, parameters and text, and the one call that runs a lesson
// on a backend ("emu" or "cuda") and returns its trace.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "warpscope/kernels/lesson_api.h"

namespace ws {

struct LessonInfo {
  std::string id, title;
  std::vector<VariantSpec> variants;  // the first is the default
  std::vector<ParamSpec> params;
  std::string explanation;  // 3-6 sentences: what to look at, what to change
  std::string source_file;  // the kernel file the student reads, e.g. "transpose.cuh"
  std::string_view source;  // its text, exactly as compiled
  bool hidden = false;      // for tests: runs by id, but is not in Lessons()
  bool needs_gpu = false;   // measures a GPU; on the emulator the app shows a shipped capture
};

// Why `lesson` (needs_gpu) does not run on the emulator, in one sentence.
std::string NeedsGpuMessage(const LessonInfo& lesson);

// The lessons a student picks from (hidden ones left out).
const std::vector<LessonInfo>& Lessons();
// Any lesson by id, hidden ones included (the "fault" lesson: a kernel that faults on purpose).
const LessonInfo* FindLesson(const std::string& id);

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

// The text of `line` (1-based) in a lesson's source, trimmed.
std::string SourceLine(std::string_view source, std::uint32_t line);

}  // namespace ws
