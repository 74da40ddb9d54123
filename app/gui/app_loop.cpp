// The desktop app's frame loop (app_loop.h): idle waiting, the scripted runs' input, drawing a
// frame and carrying out its exports (screenshots, panels, 2x), and the end of a scripted run or
// lecture walk (with --layout-json, what the panels showed). Index:
//   [SECTION] Exports and the layout file
//   [SECTION] The frame loop: waiting, scripted input, drawing and exports, the end
#include "gui/app_loop.h"

#include <glad/gl.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cfloat>
#include <iostream>
#include <nlohmann/json.hpp>

#include "gui/frame_capture.h"
#include "gui/theme.h"
#include "warpscope/trace/file_io.h"
#include "warpscope/trace/printed_text.h"

namespace ws {
namespace {

// [SECTION] Exports and the layout file -----------------------------------------------------------

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

Status WriteLayout(const std::filesystem::path& path, const Ui& ui, const ImGuiIO& io,
                   const LecturePlayer* player) {
  nlohmann::json j;
  // Presentation mode: whether the lecture bar held its caption whole in the last frame.
  if (player != nullptr) j["lecture_bar_whole"] = player->bar_whole();
  j["display"] = {io.DisplaySize.x, io.DisplaySize.y};
  j["framebuffer_scale"] = io.DisplayFramebufferScale.x;
  j["status_bar_height"] = ui.frame_height();
  j["status_backend"] = ui.status_backend();
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
  st["what_if"] = session.what_if;
  st["what_if_error"] = session.what_if_error;
  if (session.run && session.run->what_if) st["what_if_where"] = session.run->what_if->where;
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
      // The selected site: where it is, as the source view marks it.
      if (run->has_launch() && session.sel.site >= 0 &&
          static_cast<std::size_t>(session.sel.site) < run->main_launch().sites.size()) {
        const SiteInfo& s = run->main_launch().sites[static_cast<std::size_t>(session.sel.site)];
        st["site"] = {{"file", s.file}, {"line", s.line}, {"op", ToString(s.op)}};
      }
      const PrintedText printed = ProgramStdout(*run->program);  // valid UTF-8, and a note
      st["stdout"] = printed.text;
      st["stdout_note"] = printed.note;
      for (const LaunchTrace& t : run->launches)
        st["launches"].push_back({{"kernel", t.kernel},
                                  {"block", {t.block.x, t.block.y, t.block.z}},
                                  {"sites", t.sites.size()}});
    }
  }
  return WriteFileAtomically(path, JsonText(j, 2) + "\n");
}

// [SECTION] The frame loop ------------------------------------------------------------------------

// Set when the system asks for the window to be redrawn (uncovered, resized).
bool g_refresh = true;

// Idle costs nothing: with nothing moving and no input for a second, the loop sleeps until an
// event arrives, waking every kIdleWait only to look at the program's files and for a run
// that finished (IdleTick), and draws nothing unless something changed. A window the system
// asks to redraw (uncovered, resized) is drawn. Returns false when there is no frame to draw.
bool WaitForFrame(AppLoop& l) {
  if (l.scripted) {
    glfwPollEvents();
  } else if (l.walk != nullptr) {
    glfwWaitEventsTimeout(1.0 / 60.0);
  } else if (glfwGetTime() - l.last_input < 1.0) {
    glfwWaitEventsTimeout(l.ui.InputFrameWait());
  } else if (l.ui.NeedsFrames()) {
    glfwWaitEventsTimeout(l.ui.FrameWait());
  } else {
    glfwWaitEventsTimeout(kIdleWait);
  }
  if (!l.scripted) {
    // Input arrived (ImGui's GLFW callbacks queue it as events): draw for a second more, for
    // hover highlights and tooltips that appear after a delay.
    const bool input = ImGui::GetCurrentContext()->InputEventsQueue.Size > 0;
    if (input || std::exchange(g_refresh, false)) {
      l.last_input = glfwGetTime();
    } else if (!l.ui.NeedsFrames() && l.walk == nullptr && glfwGetTime() - l.last_input >= 1.0 &&
               !l.ui.IdleTick()) {
      return false;  // nothing changed: no frame
    }
  }
  return true;
}

// Scripted slider moves and key presses (tests), and the keys the lecture walk presses.
void FeedScriptedInput(AppLoop& l, int frame) {
  for (const ParamDrag& d : l.opt.drags) {
    if (frame != d.frame) continue;
    if (std::string err = l.ui.SetParam(d.name, d.value); !err.empty()) {
      std::cerr << "warpscope: " << err << "\n";
      l.exit_code = 2;
    } else if (l.opt.wait_each_drag) {
      l.ui.WaitForRun(120);
    }
  }
  for (const auto& [key, at] : l.presses) {
    if (frame == at) l.io.AddKeyEvent(key, true);
    if (frame == at + 1) l.io.AddKeyEvent(key, false);
  }
  if (l.walk != nullptr) {
    if (l.walk_key != ImGuiKey_None)
      l.io.AddKeyEvent(std::exchange(l.walk_key, ImGuiKey_None), false);
    l.walk_key = static_cast<ImGuiKey>(l.walk->KeyToPress());
    if (l.walk_key != ImGuiKey_None) l.io.AddKeyEvent(l.walk_key, true);
  }
}

// What a scripted run does at given frames: the shipped capture and the sweep at frame 2, settled
// runs before exports and the screenshot, the focus after the dock layout is built.
void ScriptFrame(AppLoop& l, int frame) {
  const AppOptions& opt = l.opt;
  Ui& ui = l.ui;
  if (frame == 2 && opt.show_shipped) {
    ui.WaitForRun(120);  // the lesson's own run first, as a user would see it
    if (ui.session().run) ui.session().open_shipped = ui.session().run->variant;
  }
  if (frame == 2 && !opt.sweep.empty()) {
    if (std::string err = ui.StartSweep(opt.sweep); !err.empty()) {
      std::cerr << "warpscope: " << err << "\n";
      l.exit_code = 2;
    }
  }
  // A lecture export draws each frame from a settled state: a run or sweep under way is waited
  // for, so which frames show "updating..." (and so the order in which text first asks the
  // font atlas for its glyphs, which places them) does not depend on the machine's speed.
  if (l.walk != nullptr && !opt.export_dir.empty()) {
    ui.WaitForRun(600);
    ui.WaitForSweep(600);
  }
  const std::string shot_panel = opt.panel;
  // A scripted screenshot shows the finished run, never one still under way.
  if (l.scripted && frame == opt.frames) {
    ui.WaitForRun(120);
    if (!opt.sweep.empty() && !ui.WaitForSweep(600)) {
      std::cerr << "warpscope: the sweep took over 600 s\n";
      l.exit_code = 1;
    }
    if (!opt.timing_csv.empty()) ui.session().export_timing_csv = opt.timing_csv;
  }
  if (l.scripted && frame == opt.frames && !opt.screenshot.empty()) {
    l.pending.push_back({shot_panel, opt.scale_2x, opt.screenshot, 0});
  }
  // Frame 1 builds the dock layout; focus after that, or docking takes the focus back.
  if (frame == 2) {
    if (!opt.focus.empty()) ui.FocusAtStart(opt.focus);
    if (!opt.panel.empty()) ui.FocusAtStart(opt.panel);
  }
}

// Draws the frame (on screen, or offscreen at framebuffer scale 2 for a 2x export) and carries
// out the exports due now; those not due yet stay pending.
void DrawFrame(AppLoop& l) {
  ImGuiIO& io = l.io;
  // A 2x export lays the whole frame out again at framebuffer scale 2 and never shows it.
  bool frame_2x = false;
  for (const auto& r : l.pending) frame_2x |= (r.delay_frames <= 0 && r.scale_2x);

  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  // Scripted runs: no pointer (Xvfb's sits mid-screen and would hover a tooltip into the shot).
  if (l.scripted) io.AddMousePosEvent(-FLT_MAX, -FLT_MAX);
  const float fb_scale = io.DisplayFramebufferScale.x * (frame_2x ? 2.0f : 1.0f);
  if (frame_2x) io.DisplayFramebufferScale = ImVec2(fb_scale, fb_scale);
  ImGui::NewFrame();
  l.ui.Draw();
  for (auto& r : l.ui.TakeExportRequests()) l.pending.push_back(std::move(r));
  if (l.walk != nullptr) {
    for (auto& r : l.walk->AfterDraw()) l.pending.push_back(std::move(r));
  }
  ImGui::Render();

  std::vector<ExportRequest> later;
  if (frame_2x) {
    const Image shot = RenderOffscreen(ImGui::GetDrawData());
    for (auto& r : l.pending) {
      if (r.delay_frames <= 0 && r.scale_2x) {
        if (!SaveExport(r, shot, fb_scale, l.ui) && l.scripted) l.exit_code = 1;
      } else {
        later.push_back(std::move(r));
      }
    }
  } else {
    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(l.win, &fb_w, &fb_h);
    glViewport(0, 0, fb_w, fb_h);
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    glClearColor(bg.x, bg.y, bg.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    Image shot;
    for (auto& r : l.pending) {
      if (r.delay_frames <= 0 && !r.scale_2x) {
        if (shot.empty()) {
          glReadBuffer(GL_BACK);
          shot = ReadPixels(fb_w, fb_h, {0, 0, fb_w, fb_h});
        }
        if (!SaveExport(r, shot, fb_scale, l.ui) && l.scripted) l.exit_code = 1;
      } else {
        --r.delay_frames;
        later.push_back(std::move(r));
      }
    }
    glfwSwapBuffers(l.win);
  }
  l.pending = std::move(later);
}

// True when the loop ends after this frame: the lecture walk is done (its record written), or a
// scripted run has drawn its frames and saved its exports (and written --layout-json).
bool Finished(AppLoop& l, int frame) {
  const AppOptions& opt = l.opt;
  if (l.walk != nullptr) {
    if (!l.walk->done() || !l.pending.empty()) return false;
    if (Status s = l.walk->Finish(opt.walk_json); !s.ok()) {
      std::cerr << "warpscope: " << s.message() << "\n";
      l.exit_code = 1;
    } else if (!opt.export_dir.empty()) {
      std::cout << "warpscope: wrote the notes of " << l.player->lecture().steps.size()
                << " steps to " << opt.export_dir.string() << std::endl;
    }
    if (l.walk->failed()) l.exit_code = 1;
    return true;
  }
  if (l.scripted && frame >= opt.frames && l.pending.empty()) {
    if (!opt.layout_json.empty()) {
      if (Status s = WriteLayout(opt.layout_json, l.ui, l.io, l.player); !s.ok()) {
        std::cerr << "warpscope: " << s.message() << "\n";
        l.exit_code = 1;
      }
    }
    return true;
  }
  return false;
}

}  // namespace

int RunFrameLoop(AppLoop& l) {
  glfwSetWindowRefreshCallback(l.win, [](GLFWwindow*) { g_refresh = true; });
  l.last_input = glfwGetTime();
  for (int frame = 1; !glfwWindowShouldClose(l.win) && !l.ui.quit_requested(); ++frame) {
    if (!WaitForFrame(l)) {
      --frame;
      continue;  // nothing changed: no frame
    }
    if (l.ui.TakeUiScaleChanged()) theme::Apply(l.ui.ui_scale(), l.settings.light_theme);
    FeedScriptedInput(l, frame);
    ScriptFrame(l, frame);
    DrawFrame(l);
    if (Finished(l, frame)) break;
  }
  return l.exit_code;
}

}  // namespace ws
