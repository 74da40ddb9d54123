// What the views share: the lesson run they draw (from the emulator, a GPU or, later, a trace
// file) and what the user selected. Views only read the run; the app's lesson panel makes runs.
#pragma once

#include <memory>
#include <string>

#include "warpscope/kernels/lesson_api.h"

namespace ws {

struct Session {
  std::shared_ptr<const LessonRun> run;  // the last successful run; null before the first
  std::string error;                     // why the last run failed (shown by the lesson panel)
  int selected_site = -1;                // index into run->main_launch().sites, -1: none
  std::uint64_t generation = 0;          // grows with every new run, so views can refresh
};

}  // namespace ws
