#include "gui/bench_mode.h"

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <unistd.h>
#include <algorithm>
#include <cfloat>

#include <chrono>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

#include "gui/ui.h"
#include "warpscope/kernels/catalog.h"
#include "warpscope/trace/file_io.h"

namespace ws {
namespace {

using Clock = std::chrono::steady_clock;

double Ms(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

// One whole frame, finished on the GPU (glFinish), as the user would see it.
void Frame(Ui& ui, GLFWwindow* window) {
  glfwPollEvents();
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::GetIO().AddMousePosEvent(-FLT_MAX, -FLT_MAX);
  ImGui::NewFrame();
  ui.Draw();
  (void)ui.TakeExportRequests();
  ImGui::Render();
  int w = 0, h = 0;
  glfwGetFramebufferSize(window, &w, &h);
  glViewport(0, 0, w, h);
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];  // as the app's frame loop
  glClearColor(bg.x, bg.y, bg.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  glFinish();
  glfwSwapBuffers(window);
}

double Median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

}  // namespace

int RunBenchMode(Ui& ui, GLFWwindow* window, const std::filesystem::path& out) {
  nlohmann::json j;
  j["note"] =
      "slider_to_redraw_ms: from setting a parameter (as a slider drag does) to the end of the "
      "first finished frame that shows the new run, frames paced as the app paces them after "
      "input (a run's end wakes the loop); median of 5. frame_ms: median whole-frame time with "
      "the grid view in front.";
  for (int i = 0; i < 5; ++i) Frame(ui, window);
  for (const LessonInfo& info : Lessons()) {
    if (std::string err = ui.SelectLesson(info.id, "", {}, "emu"); !err.empty()) {
      std::cerr << "warpscope: " << err << "\n";
      return 1;
    }
    ui.WaitForRun(120);
    for (int i = 0; i < 3; ++i) Frame(ui, window);
    // The first slider (not a choice) with a neighbouring value the lesson accepts (transpose's
    // tile 32 has no 40, and 24 does not divide the width): one step up, else one down, else
    // double or half.
    const ParamSpec* p = nullptr;
    long long other = 0;
    for (const ParamSpec& s : info.params) {
      if (!s.choices.empty()) continue;
      for (const long long v : {s.default_value + s.step, s.default_value - s.step,
                                s.default_value * 2, s.default_value / 2}) {
        if (v < s.min || v > s.max || !ui.SetParam(s.name, v).empty()) continue;
        ui.WaitForRun(120);
        Frame(ui, window);
        const bool ok = ui.session().error.empty();
        ui.SetParam(s.name, s.default_value);
        ui.WaitForRun(120);
        Frame(ui, window);
        if (ok) {
          p = &s;
          other = v;
          break;
        }
      }
      if (p != nullptr) break;
    }
    if (p == nullptr) continue;
    std::vector<double> samples;
    for (int rep = 0; rep < 5; ++rep) {
      const long long value = rep % 2 == 0 ? other : p->default_value;
      const std::uint64_t before = ui.session().generation;
      const auto t0 = Clock::now();
      ui.SetParam(p->name, value);
      double ms = -1;
      // Paced as the app's loop paces itself for the second after input (app_loop.cpp,
      // WaitForFrame): a frame, then a wait for an event of at most InputFrameWait(), which
      // the run's end cuts short (SetRunFinishedHook).
      for (int f = 0; f < 100000; ++f) {
        Frame(ui, window);
        if (ui.session().generation != before) {
          ms = Ms(t0, Clock::now());
          break;
        }
        glfwWaitEventsTimeout(ui.InputFrameWait());
      }
      samples.push_back(ms);
    }
    j["slider_to_redraw_ms"][info.id] = {{"param", p->name},
                                         {"from", p->default_value},
                                         {"to", other},
                                         {"median", Median(samples)},
                                         {"samples", samples}};
    std::cout << info.id << ": " << p->name << " " << p->default_value << " <-> " << other
              << ": median " << Median(samples) << " ms" << std::endl;
  }
  // Frame time: the grid view in front, at the first lesson's (transpose's) default 256x256,
  // at 512x512 (256K threads) and at 1024x1024 (1M threads).
  ui.FindPanel("grid")->RequestFocus();
  const LessonInfo& first = FirstLesson();
  if (first.FindParam("width") == nullptr || first.FindParam("height") == nullptr) {
    std::cerr << "warpscope: the first lesson, " << first.id << ", has no width and height\n";
    return 1;
  }
  for (const auto& [w, label] : {std::pair{256LL, "transpose_256x256_65536_threads"},
                                 std::pair{512LL, "transpose_512x512_262144_threads"},
                                 std::pair{1024LL, "transpose_1024x1024_1048576_threads"}}) {
    ui.SelectLesson(first.id, "", {{"width", w}, {"height", w}}, "emu");
    ui.WaitForRun(120);
    for (int i = 0; i < 5; ++i) Frame(ui, window);
    std::vector<double> frames;
    for (int i = 0; i < 60; ++i) {
      const auto t0 = Clock::now();
      Frame(ui, window);
      frames.push_back(Ms(t0, Clock::now()));
    }
    j["frame_ms"][label] = {{"median", Median(frames)},
                            {"fps", 1000.0 / std::max(1e-6, Median(frames))}};
    std::cout << "frame time, grid view, " << label << ": median " << Median(frames) << " ms ("
              << 1000.0 / Median(frames) << " fps)" << std::endl;
  }
  if (Status s = WriteFileAtomically(out, j.dump(2) + "\n"); !s.ok()) {
    std::cerr << "warpscope: " << s.message() << "\n";
    return 1;
  }
  return 0;
}

int RunEditBench(Ui& ui, GLFWwindow* window, const std::filesystem::path& program,
                 const std::filesystem::path& out, int reps) {
  std::ifstream in(program, std::ios::binary);
  if (!in) {
    std::cerr << "warpscope: cannot read " << program << "\n";
    return 1;
  }
  std::stringstream text;
  text << in.rdbuf();
  std::error_code ec;
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path(ec) /
      ("warpscope-edit-bench-" + std::to_string(static_cast<long long>(getpid())));
  std::filesystem::create_directories(dir, ec);
  const std::filesystem::path copy = dir / program.filename();
  auto save = [&](int n) {
    // Written in place (not renamed over), as most editors save.
    std::ofstream f(copy, std::ios::binary | std::ios::trunc);
    f << text.str() << "\n// edit " << n << "\n";
  };
  save(0);
  if (std::string err = ui.OpenProgram(copy.string()); !err.empty()) {
    std::cerr << "warpscope: " << err << "\n";
    return 1;
  }
  ui.WaitForRun(120);
  for (int i = 0; i < 3; ++i) Frame(ui, window);
  if (!ui.session().error.empty() || !ui.session().compile_errors.empty()) {
    std::cerr << "warpscope: " << program << " does not run: " << ui.session().error << "\n";
    return 1;
  }
  std::vector<double> samples;
  for (int rep = 1; rep <= reps; ++rep) {
    const std::uint64_t before = ui.session().generation;
    // File times have a granularity; make sure this save is seen as a change.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const auto t0 = Clock::now();
    save(rep);
    double ms = -1;
    // Paced as the app's loop paces itself (app.cpp): idle, it looks at the file every
    // kIdleWait without drawing; while a run is under way it draws every FrameWait().
    bool draw = false;
    while (Ms(t0, Clock::now()) < 60000) {
      if (draw || ui.session().running) {
        Frame(ui, window);
        draw = false;
        if (ui.session().generation != before) {
          ms = Ms(t0, Clock::now());
          break;
        }
        std::this_thread::sleep_for(std::chrono::duration<double>(ui.FrameWait()));
      } else {
        std::this_thread::sleep_for(std::chrono::duration<double>(kIdleWait));
        draw = ui.IdleTick();
      }
    }
    samples.push_back(ms);
    std::cout << program.filename().string() << ": save " << rep << " redrawn after " << ms << " ms"
              << std::endl;
  }
  std::filesystem::remove_all(dir, ec);
  nlohmann::json j;
  j["note"] =
      "save_to_redraw_ms: from saving the program (one comment changed, so the rewrite and the "
      "compile are not cached) to the end of the first frame showing its new run.";
  j["program"] = program.filename().string();
  j["save_to_redraw_ms"] = {{"median", Median(samples)}, {"samples", samples}};
  const LessonRun* run = ui.session().run.get();
  j["launches"] = run != nullptr ? run->launches.size() : 0;
  if (Status s = WriteFileAtomically(out, j.dump(2) + "\n"); !s.ok()) {
    std::cerr << "warpscope: " << s.message() << "\n";
    return 1;
  }
  std::cout << program.filename().string() << ": save-to-redraw median " << Median(samples) << " ms"
            << std::endl;
  return 0;
}

}  // namespace ws
