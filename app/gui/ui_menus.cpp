// The app's window furniture (split from ui.cpp): the main menu, the status bar, the dock space
// with its default and lecture layouts, and the Open and About windows. Index:
//   [SECTION] The main menu and the status bar
//   [SECTION] The dock space and its layouts
//   [SECTION] The Open and About windows
#include "gui/ui.h"

#include "core/shipped.h"
#include "gui/device_panel.h"
#include "gui/lesson_panel.h"
#include "warpscope/trace/build_info.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>
#include <implot.h>

#include <algorithm>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

namespace ws {

// [SECTION] The main menu and the status bar ------------------------------------------------------

void Ui::DrawMainMenu() {
  if (!ImGui::BeginMainMenuBar()) return;
  if (ImGui::BeginMenu("File")) {
    if (ImGui::MenuItem("Open program...", "Ctrl+Shift+O")) {
      show_open_ = true;
      open_program_ = true;
    }
    if (ImGui::MenuItem("Open trace...", "Ctrl+O")) {
      show_open_ = true;
      open_program_ = false;
    }
    if (ImGui::BeginMenu("Present a lecture")) {
      DrawShippedLaunchMenu("lectures", "--lecture");
      ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Open an assignment")) {
      DrawShippedLaunchMenu("assignments", "--assignment");
      ImGui::EndMenu();
    }
    if (ImGui::MenuItem("Save screenshot", "F12")) RequestScreenshot("", 2);
    if (ImGui::BeginMenu("Screenshot folder")) {
      const std::string current =
          (settings_->screenshot_dir.empty() ? DefaultScreenshotDir() : settings_->screenshot_dir)
              .string();
      ImGui::TextDisabled("Now: %s", current.c_str());
      if (ImGui::IsWindowAppearing()) {
        std::snprintf(screenshot_dir_edit_, sizeof screenshot_dir_edit_, "%s", current.c_str());
      }
      ImGui::SetNextItemWidth(ImGui::GetFontSize() * 24);
      if (ImGui::InputText("##dir", screenshot_dir_edit_, sizeof screenshot_dir_edit_,
                           ImGuiInputTextFlags_EnterReturnsTrue)) {
        settings_->screenshot_dir = screenshot_dir_edit_;
        if (Status s = SaveSettings(config_dir_, *settings_); !s.ok())
          Notify(s.message(), true);
        else
          Notify("Screenshots now go to " + settings_->screenshot_dir.string(), false);
      }
      ImGui::TextDisabled("Enter to apply");
      ImGui::EndMenu();
    }
    ImGui::Separator();
    if (ImGui::MenuItem("Quit", "Ctrl+Q")) quit_requested_ = true;
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Run")) {
    if (LessonPanel* lp = lesson_panel()) lp->DrawScheduleMenu();
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("View")) {
    for (auto& p : panels_) ImGui::MenuItem(p->title().c_str(), nullptr, &p->open);
    ImGui::Separator();
    if (ImGui::MenuItem("Reset layout")) reset_layout_ = true;
    ImGui::Separator();
    int scale = ui_scale_;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10);
    ImGui::SliderInt("UI scale", &scale, Settings::kMinUiScalePercent, Settings::kMaxUiScalePercent,
                     "%d %%", ImGuiSliderFlags_AlwaysClamp);
    ImGui::SetItemTooltip("Bigger text and widgets for a projector (100-300 %%)");
    // Apply on release: re-scaling while dragging would move the slider under the mouse.
    if (ImGui::IsItemDeactivatedAfterEdit() || (!ImGui::IsItemActive() && scale != ui_scale_)) {
      settings_->ui_scale_percent = (scale + 12) / 25 * 25;  // snap to 25 % steps
      ClampUiScale(&settings_->ui_scale_percent);
      ui_scale_ = settings_->ui_scale_percent;
      ui_scale_changed_ = true;
      if (Status s = SaveSettings(config_dir_, *settings_); !s.ok()) Notify(s.message(), true);
    }
    if (ImGui::MenuItem("Export at 2x (for print)", nullptr, &settings_->export_2x)) {
      if (Status s = SaveSettings(config_dir_, *settings_); !s.ok()) Notify(s.message(), true);
    }
    if (ImGui::MenuItem("Light theme", nullptr, &settings_->light_theme)) {
      ui_scale_changed_ = true;
      if (Status s = SaveSettings(config_dir_, *settings_); !s.ok()) Notify(s.message(), true);
    }
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Help")) {
    if (ImGui::MenuItem("Keyboard shortcuts")) show_shortcuts_ = true;
    if (ImGui::MenuItem("About Warpscope")) show_about_ = true;
    ImGui::EndMenu();
  }
  ImGui::EndMainMenuBar();
}

// The backend a new run takes here; where the views show a trace, what it was recorded on first
// (a trace from an H200 opened on a machine without a GPU said "Backend: CPU emulator" alone).
std::string Ui::StatusBackendText() const {
  const LessonRun* shown = session_.run.get();
  if (shown != nullptr && shown->capture)
    return "Trace from " + shown->device + " | runs here: " + backend_label_;
  return "Backend: " + backend_label_;
}

void Ui::DrawStatusBar() {
  ImGuiViewport* vp = ImGui::GetMainViewport();
  const float height = ImGui::GetFrameHeight();
  frame_height_ = height;
  const ImGuiWindowFlags flags =
      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_MenuBar;
  if (ImGui::BeginViewportSideBar("##status", vp, ImGuiDir_Down, height, flags)) {
    if (ImGui::BeginMenuBar()) {
      status_backend_ = StatusBackendText();
      ImGui::Text("%s", status_backend_.c_str());
      if (devices_.gpus.empty()) ImGui::SetItemTooltip("No GPU: %s", devices_.why_no_gpu.c_str());
      ImGui::Separator();
      // A program under way on the emulator: how far it has got, wherever the lesson panel is.
      if (const auto p = lesson_panel()->progress(); p && p->launch > 0 && session_.running) {
        ImGui::TextColored(ImVec4(0.95f, 0.75f, 0.3f, 1.0f), "Running %s",
                           ProgressText(*p).c_str());
        ImGui::Separator();
      }
      if (!message_.empty() && ImGui::GetTime() < message_until_) {
        const ImVec4 colour =
            message_is_error_ ? ImVec4(1.0f, 0.45f, 0.4f, 1.0f) : ImVec4(0.6f, 0.9f, 0.6f, 1.0f);
        ImGui::TextColored(colour, "%s", message_.c_str());
      }
      const std::string right = "OpenGL " + gl_.version.substr(0, gl_.version.find(' ')) +
                                " | UI " + std::to_string(ui_scale_) + " %";
      const float w = ImGui::CalcTextSize(right.c_str()).x;
      ImGui::SameLine(ImGui::GetWindowWidth() - w - ImGui::GetStyle().WindowPadding.x * 2);
      ImGui::TextDisabled("%s", right.c_str());
      ImGui::EndMenuBar();
    }
  }
  ImGui::End();
}

// [SECTION] The dock space and its layouts --------------------------------------------------------

void Ui::DrawDockSpace() {
  const ImGuiID id = ImGui::GetID("WarpscopeDockSpace");
  if (lecture_layout_pending_ && !lecture_panels_.empty()) {
    lecture_layout_pending_ = false;
    reset_layout_ = false;
    BuildLectureLayout(id);
  } else if (reset_layout_ || lecture_layout_pending_ || ImGui::DockBuilderGetNode(id) == nullptr) {
    reset_layout_ = false;
    lecture_layout_pending_ = false;
    BuildDefaultLayout(id);
  }
  if (!new_panels_docked_) {
    new_panels_docked_ = true;
    DockNewPanels();
  }
  // The host draws no background of its own (glClear already painted the frame in the window
  // colour, and the panels cover it): with software OpenGL one full-window fill is ~3 ms a frame
  // at 1600x1000.
  ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0, 0, 0, 0));
  ImGui::PushStyleColor(ImGuiCol_DockingEmptyBg, ImVec4(0, 0, 0, 0));
  ImGui::DockSpaceOverViewport(id, ImGui::GetMainViewport(),
                               ImGuiDockNodeFlags_PassthruCentralNode);
  ImGui::PopStyleColor(2);
}

// A layout saved before a view existed (the Cluster view, new in 2026-12) knows nothing of its
// window, which ImGui would float at a default size over the layout: each such panel is docked
// with the views (where a view the layout knows is docked), as the default layout docks it.
void Ui::DockNewPanels() {
  ImGuiID views = 0;
  for (const auto& p : panels_) {
    if (!IsViewPanel(p->id())) continue;
    const ImGuiWindowSettings* s =
        ImGui::FindWindowSettingsByID(ImHashStr(p->window_name().c_str()));
    if (s != nullptr && s->DockId != 0) {
      views = s->DockId;
      break;
    }
  }
  if (views == 0) return;
  for (const auto& p : panels_) {
    if (p->id() == "gallery") continue;
    if (ImGui::FindWindowSettingsByID(ImHashStr(p->window_name().c_str())) == nullptr)
      ImGui::DockBuilderDockWindow(p->window_name().c_str(), views);
  }
}

bool Ui::IsViewPanel(const std::string& id) {
  return id != "gallery" && id != "lesson" && id != "device" && id != "source" &&
         id != "barriers" && id != "shuffles" && id != "timing" && id != "sums" &&
         id != "hazards" && id != "playback";
}

bool Ui::CompactScreen() {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float font = ImGui::GetFontSize();
  return vp->WorkSize.y < font * kCompactLines || vp->WorkSize.x < font * kCompactColumns;
}

// Left: the lesson and its source; right: the playback strip over the big views in tabs, over
// barriers and shuffles beside timing and hazards (on a small screen, all in the views' tabs).
void Ui::BuildDefaultLayout(unsigned int dockspace_id) {
  ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::DockBuilderRemoveNode(dockspace_id);
  ImGui::DockBuilderAddNode(dockspace_id, ImGuiDockNodeFlags_DockSpace);
  ImGui::DockBuilderSetNodeSize(dockspace_id, vp->WorkSize);
  // A small screen for the UI scale (1280x720 at 150 %: 37 lines of text): a bottom row would
  // leave the views a strip, so every view is a tab of one node under the playback strip, which
  // keeps the selected view's figure whole.
  const bool compact = CompactScreen();
  ImGuiID right = 0;
  ImGuiID left = ImGui::DockBuilderSplitNode(dockspace_id, ImGuiDir_Left, compact ? 0.34f : 0.38f,
                                             nullptr, &right);
  ImGuiID left_bottom = 0;
  ImGuiID left_top = ImGui::DockBuilderSplitNode(left, ImGuiDir_Up, 0.48f, nullptr, &left_bottom);
  ImGuiID right_bottom = 0;
  const float top_share = compact ? 1.0f : 0.62f;
  ImGuiID right_top =
      compact ? right
              : ImGui::DockBuilderSplitNode(right, ImGuiDir_Up, top_share, nullptr, &right_bottom);
  ImGuiID views = 0;
  // The playback strip: a tab bar, its menu row and one row of buttons, however large the UI
  // scale makes them (14 % of the views' height at 1600x1000 and 100 %).
  const float strip = ImGui::GetFrameHeightWithSpacing() * 3.3f + ImGui::GetStyle().WindowPadding.y;
  const ImGuiID playback = ImGui::DockBuilderSplitNode(
      right_top, ImGuiDir_Up, std::clamp(strip / (vp->WorkSize.y * top_share), 0.1f, 0.35f),
      nullptr, &views);
  ImGuiID bottom_right = views, bottom_left = views;
  if (!compact)
    bottom_left =
        ImGui::DockBuilderSplitNode(right_bottom, ImGuiDir_Left, 0.5f, nullptr, &bottom_right);
  for (auto& p : panels_) {
    const std::string& id = p->id();
    if (id == "gallery") continue;  // floats over the layout when opened
    const ImGuiID node = id == "lesson" || id == "device"                    ? left_top
                         : id == "source"                                    ? left_bottom
                         : id == "barriers" || id == "shuffles"              ? bottom_left
                         : id == "timing" || id == "sums" || id == "hazards" ? bottom_right
                         : id == "playback"                                  ? playback
                                                                             : views;
    ImGui::DockBuilderDockWindow(p->window_name().c_str(), node);
  }
  ImGui::DockBuilderFinish(dockspace_id);
}

// A lecture step's panels: only they are open; `single` docks them as tabs of one node (the
// first in front), `columns` side by side, `rows` one over another, `main-side` the first on
// the left (62 %) and the others stacked on the right.
void Ui::BuildLectureLayout(unsigned int dockspace_id) {
  ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::DockBuilderRemoveNode(dockspace_id);
  ImGui::DockBuilderAddNode(dockspace_id, ImGuiDockNodeFlags_DockSpace);
  ImGui::DockBuilderSetNodeSize(dockspace_id, vp->WorkSize);
  std::vector<Panel*> shown;
  for (const std::string& id : lecture_panels_) {
    if (Panel* p = FindPanel(id)) shown.push_back(p);
  }
  for (auto& p : panels_) p->open = false;
  std::string how = lecture_arrangement_;
  if (how.empty()) how = shown.size() > 1 ? "main-side" : "single";
  const int n = static_cast<int>(shown.size());
  std::vector<ImGuiID> nodes(shown.size(), dockspace_id);
  if (how == "columns" || how == "rows") {
    const ImGuiDir dir = how == "columns" ? ImGuiDir_Left : ImGuiDir_Up;
    ImGuiID rest = dockspace_id;
    for (int i = 0; i + 1 < n; ++i) {
      ImGuiID next = 0;
      nodes[static_cast<std::size_t>(i)] =
          ImGui::DockBuilderSplitNode(rest, dir, 1.0f / static_cast<float>(n - i), nullptr, &next);
      rest = next;
    }
    if (n > 0) nodes[static_cast<std::size_t>(n - 1)] = rest;
  } else if (how == "main-side" && n > 1) {
    ImGuiID side = 0;
    nodes[0] = ImGui::DockBuilderSplitNode(dockspace_id, ImGuiDir_Left, 0.62f, nullptr, &side);
    for (int i = 1; i + 1 < n; ++i) {
      ImGuiID next = 0;
      nodes[static_cast<std::size_t>(i)] = ImGui::DockBuilderSplitNode(
          side, ImGuiDir_Up, 1.0f / static_cast<float>(n - i), nullptr, &next);
      side = next;
    }
    nodes[static_cast<std::size_t>(n - 1)] = side;
  }
  for (std::size_t i = 0; i < shown.size(); ++i) {
    ImGui::DockBuilderDockWindow(shown[i]->window_name().c_str(), nodes[i]);
    shown[i]->open = true;
  }
  ImGui::DockBuilderFinish(dockspace_id);
  // In one node the first is the tab in front; elsewhere each is alone in its node.
  for (auto it = shown.rbegin(); it != shown.rend(); ++it) (*it)->RequestFocus();
}

// [SECTION] The Open and About windows ------------------------------------------------------------

// File > Open program / Open trace: a path field (no native file dialog here), Enter or Open to
// load. A file that cannot be read leaves the current run on screen and says why.
void Ui::DrawOpenWindow() {
  ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 34, 0), ImGuiCond_Appearing);
  if (ImGui::Begin("Open###open", &show_open_, ImGuiWindowFlags_NoDocking)) {
    ImGui::TextWrapped(
        open_program_
            ? "Your own CUDA program (a .cu file with main()): every kernel launch is recorded, "
              "and saving the file runs it again."
            : "A .wstrace file written by `warpscope-cli capture` (on a GPU server, say):");
    if (ImGui::IsWindowAppearing()) ImGui::SetKeyboardFocusHere();
    ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 5);
    const bool enter = ImGui::InputText("##path", open_path_, sizeof open_path_,
                                        ImGuiInputTextFlags_EnterReturnsTrue);
    ImGui::SameLine();
    if (ImGui::Button("Open") || enter) {
      if (std::string err = open_program_ ? OpenProgram(open_path_) : OpenTrace(open_path_);
          !err.empty()) {
        Notify(err, true);
        open_error_ = err;
      } else {
        Notify(std::string("Opened ") + open_path_, false);
        open_error_.clear();
        show_open_ = false;
      }
    }
    if (!open_error_.empty())
      ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", open_error_.c_str());
    if (open_program_) DrawShippedExamples();
  }
  ImGui::End();
}

// Under the path field: the example programs shipped with Warpscope (ShippedFiles), a click
// puts one's path in the field. Read once.
void Ui::DrawShippedExamples() {
  static const std::vector<std::filesystem::path> files = ShippedFiles("examples", ".cu");
  if (files.empty()) return;
  ImGui::Separator();
  ImGui::TextWrapped("Examples shipped with Warpscope (%s):",
                     files.front().parent_path().string().c_str());
  for (const std::filesystem::path& f : files) {
    if (ImGui::Selectable(f.filename().string().c_str(), f.string() == open_path_))
      std::snprintf(open_path_, sizeof open_path_, "%s", f.string().c_str());
  }
}

// File > Present a lecture / Open an assignment: the shipped ones (ShippedFiles), each started
// as `warpscope --lecture FILE` (or --assignment) in a window of its own, so that what is open
// here stays as it is.
void Ui::DrawShippedLaunchMenu(const char* what, const char* flag) {
  const std::vector<std::filesystem::path> files = ShippedFiles(what, ".toml");
  if (files.empty()) ImGui::TextDisabled("none shipped with this build");
  for (const std::filesystem::path& f : files) {
    if (!ImGui::MenuItem(f.stem().string().c_str())) continue;
    if (std::string err = StartWarpscope({flag, f.string()}); !err.empty())
      Notify(err, true);
    else
      Notify("Opening " + f.filename().string() + " in a new window", false);
  }
  ImGui::Separator();
  ImGui::TextDisabled("%s", files.empty() ? "" : files.front().parent_path().string().c_str());
}

void Ui::DrawAboutWindow() {
  ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 30, 0), ImGuiCond_Appearing);
  if (ImGui::Begin("About Warpscope", &show_about_, ImGuiWindowFlags_NoDocking)) {
    ImGui::Text("Warpscope %s", Build().version);
    ImGui::Text("Commit %s, %s build", Build().commit, Build().build_type);
    ImGui::TextWrapped(
        "Makes GPU execution visible for teaching: what every thread of a lesson "
        "kernel did, drawn as grids, sectors, banks and timelines.");
    ImGui::Separator();
    ImGui::Text("Dear ImGui %s (docking), ImPlot %s", IMGUI_VERSION, IMPLOT_VERSION);
    ImGui::Text("GLFW %s", glfwGetVersionString());
    ImGui::TextWrapped("OpenGL %s on %s", gl_.version.c_str(), gl_.renderer.c_str());
    ImGui::Text("CUDA runner: %s", devices_.cuda_built ? "built in" : "not built");
    for (const GpuDevice& g : devices_.gpus) {
      ImGui::BulletText("GPU %d: %s (compute %d.%d, %d SMs)", g.index, g.name.c_str(), g.cc_major,
                        g.cc_minor, g.multiprocessors);
    }
    if (devices_.gpus.empty()) ImGui::TextWrapped("No GPU: %s", devices_.why_no_gpu.c_str());
    ImGui::Text("Settings: %s", config_dir_.string().c_str());
  }
  ImGui::End();
}

}  // namespace ws
