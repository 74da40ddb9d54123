// The lesson panel's exercises: the seeds' questions on this lesson as one-click presets
// (LessonInfo::presets). A row of buttons; the chosen one's question, this run's figures that
// answer it, and the worked answer under them.
#pragma once

#include <string>

#include "warpscope/trace/lesson_run.h"

namespace ws {

// The buttons ("Exercises: 4.7 a  4.7 b ..."). Returns the index of the one clicked, or -1.
int DrawExerciseButtons(const LessonInfo& info, int chosen);

// The chosen exercise's question, `run`'s answering figures (when `run` is the exercise's own)
// and the worked answer.
void DrawExercise(const LessonInfo& info, const Preset& preset, const LessonRun* run);

}  // namespace ws
