// The desktop app's frame loop (app_loop.cpp): what it keeps from frame to frame, and the loop
// itself. RunApp (app.cpp) sets it up.
#pragma once

#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <utility>
#include <vector>

#include "gui/app.h"
#include "gui/lecture_mode.h"
#include "gui/lecture_walk.h"
#include "gui/ui.h"

namespace ws {

// What the frame loop keeps from frame to frame.
struct AppLoop {
  const AppOptions& opt;
  Ui& ui;
  Settings& settings;
  GLFWwindow* win;
  ImGuiIO& io;
  LecturePlayer* player;  // presentation mode, else null
  LectureWalk* walk;      // a scripted walk of the lecture (--export, --walk-json), else null
  bool scripted;          // --frames, --export or --walk-json
  std::vector<std::pair<ImGuiKey, int>> presses;  // scripted keys and the frame of each
  std::vector<ExportRequest> pending;             // exports not carried out yet
  int exit_code = 0;
  ImGuiKey walk_key = ImGuiKey_None;  // the key the lecture walk holds down (up next frame)
  double last_input = 0;              // glfwGetTime() of the last input: a second of frames
};

// Draws frames until the window closes, the user quits, or a scripted run (or lecture walk) is
// done. Returns the exit code: 0, 1 (an export or write failed) or 2 (a scripted input was wrong).
int RunFrameLoop(AppLoop& l);

}  // namespace ws
