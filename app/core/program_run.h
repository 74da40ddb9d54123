// A user's program run (kernels/program) as the views draw it: a LessonRun whose `program` part
// holds the file, what it printed and which of its launches the views show.
#pragma once

#include <filesystem>

#include "warpscope/program/program.h"
#include "warpscope/trace/lesson_run.h"

namespace ws {

// The launches the program made (all of them, also when it failed later) and its output. The
// output check is the program's own: "exited with status 0", or how it failed.
LessonRun LessonRunOfProgram(ProgramRun run, const std::filesystem::path& path);

}  // namespace ws
