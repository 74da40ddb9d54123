#include "gui/app.h"

#include <glad/gl.h>
#define GLFW_INCLUDE_NONE
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <imgui_internal.h>
#include <implot.h>

#include <algorithm>
#include <cfloat>
#include <iostream>
#include <nlohmann/json.hpp>

#include "gui/bench_mode.h"
#include "gui/frame_capture.h"
#include "gui/gl_window.h"
#include "gui/lecture_mode.h"
#include "gui/lecture_walk.h"
#include "gui/lesson_panel.h"
#include "gui/theme.h"
#include "gui/ui.h"
#include "warpscope/kernels/catalog.h"
#include "warpscope/trace/file_io.h"
#include "warpscope/viz/source_panel.h"

namespace ws {
namespace {

ImGuiKey KeyByName(const std::string& name) {
  for (int k = ImGuiKey_NamedKey_BEGIN; k < ImGuiKey_NamedKey_END; ++k) {
    if (name == ImGui::GetKeyName(static_cast<ImGuiKey>(k))) return static_cast<ImGuiKey>(k);
  }
  return ImGuiKey_None;
}

// Carries out one export from the frame just drawn. Returns false (and says why) on failure.
bool SaveExport(const ExportRequest& req, const Image& frame, float fb_scale, Ui& ui) {
  Image img = frame;
  if (!req.panel_id.empty()) {
    Panel* p = ui.FindPanel(req.panel_id);
    if (p == nullptr || !p->rect().visible) {
      const std::string msg = "cannot export panel '" + req.panel_id + "': it is not visible";
      ui.Notify(msg, true);
      std::cerr << "warpscope: " << msg << "\n";
      return false;
    }
    const PanelRect& r = p->rect();
    const float inset = std::min(req.inset_top, r.height * 0.5f);
    img = frame.Crop({static_cast<int>(r.x * fb_scale + 0.5f),
                      static_cast<int>((r.y + inset) * fb_scale + 0.5f),
                      static_cast<int>(r.width * fb_scale + 0.5f),
                      static_cast<int>((r.height - inset) * fb_scale + 0.5f)});
  }
  if (Status s = SavePng(img, req.path); !s.ok()) {
    ui.Notify(s.message(), true);
    std::cerr << "warpscope: " << s.message() << "\n";
    return false;
  }
  const std::string msg = "Saved " + req.path.string() + " (" + std::to_string(img.width()) + "x" +
                          std::to_string(img.height()) + ")";
  ui.Notify(msg, false);
  std::cout << "warpscope: " << msg << std::endl;
  return true;
}

Status WriteLayout(const std::filesystem::path& path, const Ui& ui, const ImGuiIO& io) {
  nlohmann::json j;
  j["display"] = {io.DisplaySize.x, io.DisplaySize.y};
  j["framebuffer_scale"] = io.DisplayFramebufferScale.x;
  j["status_bar_height"] = ui.frame_height();
  for (const auto& p : ui.panels()) {
    const PanelRect& r = p->rect();
    j["panels"][p->id()] = {{"x", r.x},
                            {"y", r.y},
                            {"width", r.width},
                            {"height", r.height},
                            {"visible", r.visible},
                            {"title_bar_height", ui.frame_height()}};
    for (const auto& [name, value] : p->Shown()) j["panels"][p->id()]["state"][name] = value;
  }
  // What the views show (scripted tests read it): the run, a program's launches, the errors.
  const Session& session = ui.session();
  nlohmann::json& st = j["session"];
  st["error"] = session.error;
  st["compile_errors"] = nlohmann::json::array();
  for (const SourceNote& n : session.compile_errors)
    st["compile_errors"].push_back(
        {{"line", n.line}, {"column", n.column}, {"message", n.message}});
  if (const LessonRun* run = session.run.get()) {
    st["lesson"] = run->lesson;
    st["kernel"] = run->has_launch() ? run->main_launch().kernel : "";
    st["source_file"] = std::string(run->source_file());
    st["source_bytes"] = run->source().size();
    st["from_trace"] = run->capture.has_value();
    if (run->program) {
      st["program"] = run->program->file;
      st["launch"] = run->program->launch;
      st["stdout"] = run->program->stdout_text;
      for (const LaunchTrace& t : run->launches)
        st["launches"].push_back({{"kernel", t.kernel},
                                  {"block", {t.block.x, t.block.y, t.block.z}},
                                  {"sites", t.sites.size()}});
    }
  }
  return WriteFileAtomically(path, j.dump(2) + "\n");
}

}  // namespace

int RunApp(const AppOptions& opt) {
  const std::filesystem::path config_dir = opt.config_dir.empty() ? ConfigDir() : opt.config_dir;
  std::string warning;
  Settings settings = LoadSettings(config_dir, &warning);
  if (!warning.empty()) std::cerr << "warpscope: " << warning << "\n";
  if (!opt.screenshot_dir.empty()) settings.screenshot_dir = opt.screenshot_dir;
  int ui_scale = settings.ui_scale_percent;
  if (opt.ui_scale) {
    ui_scale = *opt.ui_scale;
    if (std::string msg = ClampUiScale(&ui_scale); !msg.empty()) {
      std::cerr << "warpscope: " << msg << "\n";
      return 2;
    }
  }

  auto window = GlWindow::Create(opt.width, opt.height, "Warpscope");
  if (!window) {
    std::cerr << window.status().message() << "\n";
    return 1;
  }
  GLFWwindow* win = (*window)->handle();

  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImPlot::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.ConfigFlags |= ImGuiConfigFlags_DockingEnable | ImGuiConfigFlags_NavEnableKeyboard;
  const std::string ini_path = (config_dir / "imgui.ini").string();
  std::error_code ec;
  std::filesystem::create_directories(config_dir, ec);
  // A lecture lays its own panels out: the teacher's own layout is left as it was.
  io.IniFilename = ec || !opt.lecture.empty() ? nullptr : ini_path.c_str();
  const theme::Fonts fonts = theme::LoadFonts(!opt.export_dir.empty());
  SetCodeFont(fonts.mono);
  theme::Apply(ui_scale, settings.light_theme);
  ImGui_ImplGlfw_InitForOpenGL(win, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");

  const bool scripted = opt.frames > 0 || !opt.export_dir.empty() || !opt.walk_json.empty();
  Ui ui(&settings, config_dir, QueryDevices(), (*window)->gl());
  ui.SetUiScaleInEffect(ui_scale);
  if (!opt.panel.empty() && ui.FindPanel(opt.panel) == nullptr) {
    std::cerr << "warpscope: unknown panel '" << opt.panel << "'; panels are: " << ui.PanelIds()
              << "\n";
    return 2;
  }
  if (!opt.focus.empty() && ui.FindPanel(opt.focus) == nullptr) {
    std::cerr << "warpscope: unknown panel '" << opt.focus << "'; panels are: " << ui.PanelIds()
              << "\n";
    return 2;
  }
  std::unique_ptr<LecturePlayer> player;
  std::unique_ptr<LectureWalk> walk;
  ui.SetSchedule(opt.schedule);  // before the first run
  if (!opt.lecture.empty()) {
    std::vector<std::string> ids;
    for (const auto& p : ui.panels()) ids.push_back(p->id());
    auto lecture = LoadLecture(opt.lecture, ids);
    if (!lecture.ok()) {
      std::cerr << "warpscope: " << lecture.status().message() << "\n";
      return 2;
    }
    if (opt.lecture_step < 1 || opt.lecture_step > static_cast<int>(lecture->steps.size())) {
      std::cerr << "warpscope: --step " << opt.lecture_step << " is not a step of "
                << opt.lecture.filename().string() << " (it has " << lecture->steps.size() << ")\n";
      return 2;
    }
    // Presentation: the lecture's UI scale (175 % unless it says), unless --ui-scale; the
    // notes export keeps the scale of the window it is drawn in.
    if (!opt.ui_scale && opt.export_dir.empty()) {
      ui_scale = lecture->ui_scale > 0 ? lecture->ui_scale : 175;
      theme::Apply(ui_scale, settings.light_theme);
      ui.SetUiScaleInEffect(ui_scale);
    }
    player = std::make_unique<LecturePlayer>(std::move(lecture).value(), &ui);
    LecturePlayer* pl = player.get();
    // The scripted walk presses the same keys a teacher does.
    ui.SetLectureMode(
        [pl] {
          pl->HandleKeys();
          pl->Update();
          pl->DrawBar();
        },
        [pl] { pl->DrawNote(); });
    if (!opt.export_dir.empty() || !opt.walk_json.empty()) {
      if (!opt.export_dir.empty()) {
        std::filesystem::create_directories(opt.export_dir, ec);
        if (ec) {
          std::cerr << "warpscope: cannot create " << opt.export_dir.string() << ": "
                    << ec.message() << "\n";
          return 1;
        }
      }
      walk = std::make_unique<LectureWalk>(pl, &ui, opt.export_dir);
    } else if (!opt.windowed && opt.frames == 0) {
      if (GLFWmonitor* monitor = glfwGetPrimaryMonitor()) {
        const GLFWvidmode* mode = glfwGetVideoMode(monitor);
        glfwSetWindowMonitor(win, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
      }
    }
    player->Go(opt.lecture_step - 1);
  } else if (!opt.trace_file.empty()) {
    ui.SetProgramIncludes(opt.include_dirs);
    if (std::string err = ui.OpenFile(opt.trace_file.string()); !err.empty()) {
      std::cerr << "warpscope: " << err << "\n";
      return 2;
    }
    for (const auto& [name, value] : opt.sets) {  // a program's sliders (main.cpp checked)
      if (std::string err = ui.SetParam(name, value); !err.empty()) {
        std::cerr << "warpscope: --set " << err << "\n";
        return 2;
      }
    }
  } else if (!opt.lesson.empty()) {
    if (std::string err = ui.SelectLesson(opt.lesson, opt.variant, opt.sets, opt.backend);
        !err.empty()) {
      std::cerr << "warpscope: " << err << "\n";
      return 2;
    }
    if (std::string err = opt.exercise.empty() ? "" : ui.SelectExercise(opt.exercise);
        !err.empty()) {
      std::cerr << "warpscope: --exercise: " << err << "\n";
      return 2;
    }
  } else {
    // The last lesson and its parameters; if they no longer fit the catalogue, the defaults.
    std::string err = settings.lesson.empty() ? "none"
                                              : ui.SelectLesson(settings.lesson, settings.variant,
                                                                settings.params, opt.backend);
    if (!err.empty()) {
      if (err != "none") std::cerr << "warpscope: not restoring the last lesson (" << err << ")\n";
      if (err = ui.SelectLesson(FirstLesson().id, "", {}, opt.backend); !err.empty()) {
        std::cerr << "warpscope: " << err << "\n";
        return 2;
      }
    }
  }
  if (opt.frames > 0 && !ui.WaitForRun(120)) {
    std::cerr << "warpscope: the lesson run took over 120 s\n";
    return 1;
  }
  if (!opt.bench_json.empty()) {
    const int rc = opt.bench_edit.empty()
                       ? RunBenchMode(ui, win, opt.bench_json)
                       : RunEditBench(ui, win, opt.bench_edit, opt.bench_json, opt.bench_reps);
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImPlot::DestroyContext();
    ImGui::DestroyContext();
    return rc;
  }
  std::vector<std::pair<ImGuiKey, int>> presses;
  for (const KeyPress& kp : opt.presses) {
    const ImGuiKey key = KeyByName(kp.key);
    if (key == ImGuiKey_None) {
      std::cerr << "warpscope: unknown key '" << kp.key << "' (use ImGui key names such as F12)\n";
      return 2;
    }
    presses.emplace_back(key, kp.frame);
  }

  std::vector<ExportRequest> pending;
  int exit_code = 0;
  ImGuiKey walk_key = ImGuiKey_None;
  // Idle costs nothing: with nothing moving and no input for a second, the loop sleeps until an
  // event arrives, waking every kIdleWait only to look at the program's files and for a run
  // that finished (IdleTick), and draws nothing unless something changed. A window the system
  // asks to redraw (uncovered, resized) is drawn.
  static bool refresh = true;
  glfwSetWindowRefreshCallback(win, [](GLFWwindow*) { refresh = true; });
  double last_input = glfwGetTime();
  for (int frame = 1; !glfwWindowShouldClose(win) && !ui.quit_requested(); ++frame) {
    if (scripted) {
      glfwPollEvents();
    } else if (walk != nullptr || glfwGetTime() - last_input < 1.0) {
      glfwWaitEventsTimeout(1.0 / 60.0);
    } else if (ui.NeedsFrames()) {
      glfwWaitEventsTimeout(ui.FrameWait());
    } else {
      glfwWaitEventsTimeout(kIdleWait);
    }
    if (!scripted) {
      // Input arrived (ImGui's GLFW callbacks queue it as events): draw for a second more, for
      // hover highlights and tooltips that appear after a delay.
      const bool input = ImGui::GetCurrentContext()->InputEventsQueue.Size > 0;
      if (input || std::exchange(refresh, false)) {
        last_input = glfwGetTime();
      } else if (!ui.NeedsFrames() && walk == nullptr && glfwGetTime() - last_input >= 1.0 &&
                 !ui.IdleTick()) {
        --frame;
        continue;  // nothing changed: no frame
      }
    }
    if (ui.TakeUiScaleChanged()) theme::Apply(ui.ui_scale(), settings.light_theme);
    for (const ParamDrag& d : opt.drags) {
      if (frame != d.frame) continue;
      if (std::string err = ui.SetParam(d.name, d.value); !err.empty()) {
        std::cerr << "warpscope: " << err << "\n";
        exit_code = 2;
      } else if (opt.wait_each_drag) {
        ui.WaitForRun(120);
      }
    }
    for (const auto& [key, at] : presses) {
      if (frame == at) io.AddKeyEvent(key, true);
      if (frame == at + 1) io.AddKeyEvent(key, false);
    }
    if (walk != nullptr) {
      if (walk_key != ImGuiKey_None) io.AddKeyEvent(std::exchange(walk_key, ImGuiKey_None), false);
      walk_key = static_cast<ImGuiKey>(walk->KeyToPress());
      if (walk_key != ImGuiKey_None) io.AddKeyEvent(walk_key, true);
    }
    if (frame == 2 && opt.show_shipped) {
      ui.WaitForRun(120);  // the lesson's own run first, as a user would see it
      if (ui.session().run) ui.session().open_shipped = ui.session().run->variant;
    }
    if (frame == 2 && !opt.sweep.empty()) {
      if (std::string err = ui.StartSweep(opt.sweep); !err.empty()) {
        std::cerr << "warpscope: " << err << "\n";
        exit_code = 2;
      }
    }
    // A lecture export draws each frame from a settled state: a run or sweep under way is waited
    // for, so which frames show "updating..." (and so the order in which text first asks the
    // font atlas for its glyphs, which places them) does not depend on the machine's speed.
    if (walk != nullptr && !opt.export_dir.empty()) {
      ui.WaitForRun(600);
      ui.WaitForSweep(600);
    }
    const std::string shot_panel = opt.panel;
    // A scripted screenshot shows the finished run, never one still under way.
    if (scripted && frame == opt.frames) {
      ui.WaitForRun(120);
      if (!opt.sweep.empty() && !ui.WaitForSweep(600)) {
        std::cerr << "warpscope: the sweep took over 600 s\n";
        exit_code = 1;
      }
      if (!opt.timing_csv.empty()) ui.session().export_timing_csv = opt.timing_csv;
    }
    if (scripted && frame == opt.frames && !opt.screenshot.empty()) {
      pending.push_back({shot_panel, opt.scale_2x, opt.screenshot, 0});
    }
    // Frame 1 builds the dock layout; focus after that, or docking takes the focus back.
    if (frame == 2) {
      if (!opt.focus.empty()) ui.FocusAtStart(opt.focus);
      if (!opt.panel.empty()) ui.FocusAtStart(opt.panel);
    }
    // A 2x export lays the whole frame out again at framebuffer scale 2 and never shows it.
    bool frame_2x = false;
    for (const auto& r : pending) frame_2x |= (r.delay_frames <= 0 && r.scale_2x);

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    // Scripted runs: no pointer (Xvfb's sits mid-screen and would hover a tooltip into the shot).
    if (scripted) io.AddMousePosEvent(-FLT_MAX, -FLT_MAX);
    const float fb_scale = io.DisplayFramebufferScale.x * (frame_2x ? 2.0f : 1.0f);
    if (frame_2x) io.DisplayFramebufferScale = ImVec2(fb_scale, fb_scale);
    ImGui::NewFrame();
    ui.Draw();
    for (auto& r : ui.TakeExportRequests()) pending.push_back(std::move(r));
    if (walk != nullptr) {
      for (auto& r : walk->AfterDraw()) pending.push_back(std::move(r));
    }
    ImGui::Render();

    std::vector<ExportRequest> later;
    if (frame_2x) {
      const Image shot = RenderOffscreen(ImGui::GetDrawData());
      for (auto& r : pending) {
        if (r.delay_frames <= 0 && r.scale_2x) {
          if (!SaveExport(r, shot, fb_scale, ui) && scripted) exit_code = 1;
        } else {
          later.push_back(std::move(r));
        }
      }
    } else {
      int fb_w = 0, fb_h = 0;
      glfwGetFramebufferSize(win, &fb_w, &fb_h);
      glViewport(0, 0, fb_w, fb_h);
      const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
      glClearColor(bg.x, bg.y, bg.z, 1.0f);
      glClear(GL_COLOR_BUFFER_BIT);
      ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
      Image shot;
      for (auto& r : pending) {
        if (r.delay_frames <= 0 && !r.scale_2x) {
          if (shot.empty()) {
            glReadBuffer(GL_BACK);
            shot = ReadPixels(fb_w, fb_h, {0, 0, fb_w, fb_h});
          }
          if (!SaveExport(r, shot, fb_scale, ui) && scripted) exit_code = 1;
        } else {
          --r.delay_frames;
          later.push_back(std::move(r));
        }
      }
      glfwSwapBuffers(win);
    }
    pending = std::move(later);
    if (walk != nullptr) {
      if (!walk->done() || !pending.empty()) continue;
      if (Status s = walk->Finish(opt.walk_json); !s.ok()) {
        std::cerr << "warpscope: " << s.message() << "\n";
        exit_code = 1;
      } else if (!opt.export_dir.empty()) {
        std::cout << "warpscope: wrote the notes of " << player->lecture().steps.size()
                  << " steps to " << opt.export_dir.string() << std::endl;
      }
      if (walk->failed()) exit_code = 1;
      break;
    }
    if (scripted && frame >= opt.frames && pending.empty()) {
      if (!opt.layout_json.empty()) {
        if (Status s = WriteLayout(opt.layout_json, ui, io); !s.ok()) {
          std::cerr << "warpscope: " << s.message() << "\n";
          exit_code = 1;
        }
      }
      break;
    }
  }

  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImPlot::DestroyContext();
  ImGui::DestroyContext();
  return exit_code;
}

}  // namespace ws
