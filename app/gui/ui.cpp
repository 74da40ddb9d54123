#include "gui/ui.h"

#include "gui/device_panel.h"
#include "gui/lesson_panel.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>
#include <implot.h>

#include <cstring>
#include <ctime>

namespace ws {
namespace {

constexpr double kMessageSeconds = 8.0;
// Views that only their own lesson draws.
constexpr const char* kLessonOnlyViews[] = {"occupancy", "latency",   "sums",
                                            "sms",       "transfers", "multigpu"};

}  // namespace

Ui::Ui(Settings* settings, std::filesystem::path config_dir, DeviceQuery devices, GlInfo gl)
    : settings_(settings),
      config_dir_(std::move(config_dir)),
      devices_(std::move(devices)),
      gl_(std::move(gl)),
      backend_label_(DefaultBackendLabel(devices_)),
      panels_(MakeViewPanels(&session_)) {
  // The lesson panel runs kernels, so it lives in the app, not among the views.
  for (auto& p : panels_) {
    if (p->id() == "lesson") p = std::make_unique<LessonPanel>(&session_, devices_);
  }
  panels_.push_back(std::make_unique<DevicePanel>(&session_, devices_, lesson_panel()));
  // A build with the CUDA runner on a machine where it cannot run says why, once, in one line.
  if (devices_.cuda_built && devices_.gpus.empty())
    Notify("No GPU: " + devices_.why_no_gpu + ". Lessons run on the CPU emulator.", false);
}

void Ui::SetSchedule(const Schedule& schedule) {
  lesson_panel()->SetSchedule(schedule, false);
}

std::string Ui::SelectExercise(const std::string& name) {
  return lesson_panel()->SelectExercise(name);
}

LessonPanel* Ui::lesson_panel() {
  return static_cast<LessonPanel*>(FindPanel("lesson"));
}

std::string Ui::SelectLesson(const std::string& lesson, const std::string& variant,
                             const Params& overrides, const std::string& backend) {
  return lesson_panel()->Select(lesson, variant, overrides, backend);
}

std::string Ui::SetParam(const std::string& name, long long value) {
  return lesson_panel()->SetParam(name, value);
}

bool Ui::WaitForRun(double seconds) {
  return lesson_panel()->WaitIdle(seconds);
}

std::string Ui::StartSweep(const std::string& param) {
  const LessonRun* run = session_.run.get();
  const LessonInfo* info = run != nullptr ? run->info : nullptr;
  const ParamSpec* spec = info != nullptr ? info->FindParam(param) : nullptr;
  if (spec == nullptr || run->program || run->capture) {
    return "--sweep " + param + ": the lesson shown has no parameter of that name";
  }
  session_.RequestSweep(*spec, info->variants.size());
  return "";
}

bool Ui::WaitForSweep(double seconds) {
  return lesson_panel()->WaitSweep(seconds);
}

// Saves the lesson, variant and parameters of each new run, so the next start opens on them.
void Ui::RememberLesson() {
  if (lecture_mode_) return;  // a lecture's steps are not "the last lesson"
  if (session_.generation == remembered_generation_ || !session_.run) return;
  remembered_generation_ = session_.generation;
  // A trace file or the user's own program is not "the last lesson".
  if (session_.run->capture || session_.run->program) return;
  const LessonRun& run = *session_.run;
  if (settings_->lesson == run.lesson && settings_->variant == run.variant &&
      settings_->params == run.params && settings_->backend == run.backend)
    return;
  settings_->lesson = run.lesson;
  settings_->variant = run.variant;
  settings_->params = run.params;
  settings_->backend = run.backend;
  if (Status s = SaveSettings(config_dir_, *settings_); !s.ok()) Notify(s.message(), true);
}

// Keys that work anywhere except while typing: PageUp/PageDown previous/next lesson, P play or
// pause the playback, Ctrl+Left/Right step it, F12 screenshot (in Draw), Ctrl+Q quit.
void Ui::HandleShortcuts() {
  if (ImGui::GetIO().WantTextInput) return;
  if (ImGui::IsKeyPressed(ImGuiKey_PageDown, false)) lesson_panel()->StepLesson(+1);
  if (ImGui::IsKeyPressed(ImGuiKey_PageUp, false)) lesson_panel()->StepLesson(-1);
  if (ImGui::IsKeyPressed(ImGuiKey_P, false)) {
    session_.playing = !session_.playing;
    if (session_.playing && session_.step < 0) session_.SelectStep(0);
    next_step_at_ = ImGui::GetTime() + session_.seconds_per_step;
  }
  if (ImGui::IsKeyChordPressed(ImGuiMod_Ctrl | ImGuiKey_RightArrow))
    session_.SelectStep(session_.step + 1);
  if (ImGui::IsKeyChordPressed(ImGuiMod_Ctrl | ImGuiKey_LeftArrow) && session_.step > 0)
    session_.SelectStep(session_.step - 1);
}

void Ui::AdvancePlayback() {
  if (!session_.playing) return;
  const double now = ImGui::GetTime();
  if (now < next_step_at_) return;
  next_step_at_ = now + session_.seconds_per_step;
  const int steps = static_cast<int>(session_.block_view().steps.size());
  if (session_.step + 1 >= steps) {
    session_.playing = false;  // stop on the last step
    return;
  }
  session_.SelectStep(session_.step + 1);
}

bool Ui::Animating() const {
  return session_.playing || session_.sweep.active || session_.sweep.requested ||
         !exports_.empty() || lecture_layout_pending_ || ui_scale_changed_ ||
         (!message_.empty() && ImGui::GetTime() < message_until_ + 0.1);
}

bool Ui::NeedsFrames() const {
  return Animating() || session_.running;
}

double Ui::FrameWait() const {
  return !Animating() && session_.running ? 0.1 : 1.0 / 60.0;
}

bool Ui::IdleTick() {
  const std::uint64_t generation = session_.generation;
  const std::string error = session_.error;
  lesson_panel()->Poll();
  return NeedsFrames() || session_.generation != generation || session_.error != error;
}

std::vector<ExportRequest> Ui::TakeExportRequests() {
  return std::exchange(exports_, {});
}

bool Ui::TakeUiScaleChanged() {
  return std::exchange(ui_scale_changed_, false);
}

void Ui::Notify(std::string message, bool error) {
  message_ = std::move(message);
  message_is_error_ = error;
  message_until_ = ImGui::GetTime() + kMessageSeconds;
}

Panel* Ui::FindPanel(const std::string& id) {
  for (auto& p : panels_) {
    if (p->id() == id) return p.get();
  }
  return nullptr;
}

std::string Ui::PanelIds() const {
  std::string ids;
  for (const auto& p : panels_) ids += (ids.empty() ? "" : ", ") + p->id();
  return ids;
}

Result<std::filesystem::path> Ui::NextScreenshotPath(const std::string& panel_id) const {
  const std::filesystem::path dir =
      settings_->screenshot_dir.empty() ? DefaultScreenshotDir() : settings_->screenshot_dir;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    return Status::Error("cannot create the screenshot folder " + dir.string() + ": " +
                         ec.message());
  const std::string name = ScreenshotFileName(panel_id, std::time(nullptr));
  std::filesystem::path path = dir / name;
  // Two shots in one second: add -2, -3, ... rather than overwrite.
  for (int n = 2; std::filesystem::exists(path); ++n) {
    path = dir / (name.substr(0, name.size() - 4) + "-" + std::to_string(n) + ".png");
  }
  return path;
}

void Ui::RequestScreenshot(const std::string& panel_id, int delay_frames) {
  auto path = NextScreenshotPath(panel_id);
  if (!path) {
    Notify(path.status().message(), true);
    return;
  }
  exports_.push_back({panel_id, settings_->export_2x, *path, delay_frames});
}

void Ui::SetLectureLayout(std::vector<std::string> panels, std::string arrangement) {
  lecture_panels_ = std::move(panels);
  lecture_arrangement_ = std::move(arrangement);
  lecture_layout_pending_ = true;
}

void Ui::SetLectureMode(std::function<void()> bar, std::function<void()> overlay) {
  lecture_mode_ = true;
  // The arrow keys step the lecture: they must not also walk ImGui's keyboard focus from widget
  // to widget (a highlight that would land wherever focus happened to be, slide after slide).
  ImGui::GetIO().ConfigFlags &= ~ImGuiConfigFlags_NavEnableKeyboard;
  lecture_bar_ = std::move(bar);
  lecture_overlay_ = std::move(overlay);
}

void Ui::FocusAtStart(const std::string& panel_id) {
  if (Panel* p = FindPanel(panel_id)) p->RequestFocus();
  start_focus_.push_back(panel_id);  // kept in front of the lesson's own view (FollowLessonView)
}

// Each lesson brings its own view to the front when the user switches to it (the coalescing
// strip for transpose, the SM timeline for scalability), so the big central area never shows
// another lesson's empty view.
void Ui::FollowLessonView() {
  if (lecture_mode_) return;  // each step lays its panels out itself
  // A view that only one lesson draws (occupancy, latency, float sums, blocks on SMs, transfers)
  // is open while its lesson is, unless the user opened it (View menu): otherwise its tab would
  // crowd the others and show nothing.
  if (ImGui::GetFrameCount() == 1) {
    for (const char* id : kLessonOnlyViews) {
      if (Panel* p = FindPanel(id)) p->open = false;
    }
  }
  if (ImGui::GetFrameCount() < 3) return;  // the dock layout is built first (frame 1)
  const std::string lesson = session_.run ? session_.run->lesson : "";
  if (lesson == followed_lesson_) return;
  followed_lesson_ = lesson;
  const LessonInfo* info = session_.run ? session_.run->info : nullptr;
  const std::string front = info != nullptr ? info->front_panel : "";
  for (const char* id : kLessonOnlyViews) {
    Panel* p = FindPanel(id);
    if (p == nullptr || id == front) continue;
    if (auto_opened_.erase(id) > 0) p->open = false;
  }
  if (Panel* p = FindPanel(front)) {
    if (!p->open) auto_opened_.insert(front);
    p->RequestFocus();
  }
  // --focus / --panel at start win over the lesson's view.
  for (const std::string& id : std::exchange(start_focus_, {})) FindPanel(id)->RequestFocus();
}

// Playback reaching a warp meeting (a shuffle, a vote) brings the warp-shuffle view to the front,
// once per stretch of such steps: the arrows are what the step is about.
void Ui::FollowWarpOps() {
  bool on_warp_op = false;
  if (session_.step >= 0 && session_.run && session_.run->has_launch()) {
    const BlockView& v = session_.block_view();
    on_warp_op = session_.step < static_cast<int>(v.steps.size()) &&
                 v.steps[static_cast<std::size_t>(session_.step)].warp_op;
  }
  if (on_warp_op && !followed_warp_op_) {
    if (Panel* p = FindPanel("shuffles")) p->RequestFocus();
  }
  followed_warp_op_ = on_warp_op;
}

void Ui::Draw() {
  session_.export_folder =
      (settings_->screenshot_dir.empty() ? DefaultScreenshotDir() : settings_->screenshot_dir)
          .string();
  lesson_panel()->Poll();
  RememberLesson();
  FollowLessonView();
  FollowWarpOps();
  HandleShortcuts();
  AdvancePlayback();
  DrawMainMenu();
  DrawStatusBar();
  if (lecture_bar_) lecture_bar_();
  DrawDockSpace();
  for (auto& p : panels_) {
    // Wait two frames so that the Export menu item's highlight is gone from the picture.
    if (p->Draw()) RequestScreenshot(p->id(), 2);
  }
  if (lecture_overlay_) lecture_overlay_();
  if (show_about_) DrawAboutWindow();
  if (ImGui::IsKeyChordPressed(ImGuiMod_Ctrl | ImGuiKey_O)) {
    show_open_ = true;
    open_program_ = false;
  }
  if (ImGui::IsKeyChordPressed(ImGuiMod_Ctrl | ImGuiMod_Shift | ImGuiKey_O)) {
    show_open_ = true;
    open_program_ = true;
  }
  if (show_open_) DrawOpenWindow();
  if (show_shortcuts_) {
    if (ImGui::Begin("Keyboard shortcuts", &show_shortcuts_, ImGuiWindowFlags_AlwaysAutoResize)) {
      ImGui::TextUnformatted(
          "Ctrl+Shift+O        open a program (.cu)\n"
          "Ctrl+O              open a trace (.wstrace)\n"
          "PageDown / PageUp   next / previous lesson\n"
          "P                   play / pause the playback\n"
          "Ctrl+Right / Left   next / previous step\n"
          "F12                 save a screenshot\n"
          "Ctrl+Q              quit");
    }
    ImGui::End();
  }
  // F12: the frame being drawn right now is the one saved (no menu is open in it).
  if (ImGui::IsKeyPressed(ImGuiKey_F12, false)) RequestScreenshot("", 0);
  if (ImGui::IsKeyChordPressed(ImGuiMod_Ctrl | ImGuiKey_Q)) quit_requested_ = true;
}

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

void Ui::DrawStatusBar() {
  ImGuiViewport* vp = ImGui::GetMainViewport();
  const float height = ImGui::GetFrameHeight();
  frame_height_ = height;
  const ImGuiWindowFlags flags =
      ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_MenuBar;
  if (ImGui::BeginViewportSideBar("##status", vp, ImGuiDir_Down, height, flags)) {
    if (ImGui::BeginMenuBar()) {
      ImGui::Text("Backend: %s", backend_label_.c_str());
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
  // The host draws no background of its own (glClear already painted the frame in the window
  // colour, and the panels cover it): with software OpenGL one full-window fill is ~3 ms a frame
  // at 1600x1000.
  ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0, 0, 0, 0));
  ImGui::PushStyleColor(ImGuiCol_DockingEmptyBg, ImVec4(0, 0, 0, 0));
  ImGui::DockSpaceOverViewport(id, ImGui::GetMainViewport(),
                               ImGuiDockNodeFlags_PassthruCentralNode);
  ImGui::PopStyleColor(2);
}

// Left: the lesson and its source; right: the playback strip over the big views in tabs, over
// barriers and shuffles beside timing and hazards.
void Ui::BuildDefaultLayout(unsigned int dockspace_id) {
  ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::DockBuilderRemoveNode(dockspace_id);
  ImGui::DockBuilderAddNode(dockspace_id, ImGuiDockNodeFlags_DockSpace);
  ImGui::DockBuilderSetNodeSize(dockspace_id, vp->WorkSize);
  ImGuiID right = 0;
  ImGuiID left = ImGui::DockBuilderSplitNode(dockspace_id, ImGuiDir_Left, 0.38f, nullptr, &right);
  ImGuiID left_bottom = 0;
  ImGuiID left_top = ImGui::DockBuilderSplitNode(left, ImGuiDir_Up, 0.48f, nullptr, &left_bottom);
  ImGuiID right_bottom = 0;
  ImGuiID right_top =
      ImGui::DockBuilderSplitNode(right, ImGuiDir_Up, 0.62f, nullptr, &right_bottom);
  ImGuiID views = 0;
  // The playback strip: a tab bar, its menu row and one row of buttons, however large the UI
  // scale makes them (14 % of the views' height at 1600x1000 and 100 %).
  const float strip = ImGui::GetFrameHeightWithSpacing() * 3.3f + ImGui::GetStyle().WindowPadding.y;
  const ImGuiID playback = ImGui::DockBuilderSplitNode(
      right_top, ImGuiDir_Up, std::clamp(strip / (vp->WorkSize.y * 0.62f), 0.1f, 0.35f), nullptr,
      &views);
  ImGuiID bottom_right = 0;
  ImGuiID bottom_left =
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

std::string Ui::OpenTrace(const std::string& path) {
  return lesson_panel()->OpenTrace(path);
}

void Ui::SetProgramIncludes(const std::vector<std::string>& dirs) {
  lesson_panel()->SetProgramIncludes(dirs);
}

std::string Ui::OpenProgram(const std::string& path) {
  return lesson_panel()->OpenProgram(path);
}

std::string Ui::OpenFile(const std::string& path) {
  return std::filesystem::path(path).extension() == ".wstrace" ? OpenTrace(path)
                                                               : OpenProgram(path);
}

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
  }
  ImGui::End();
}

void Ui::DrawAboutWindow() {
  ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 30, 0), ImGuiCond_Appearing);
  if (ImGui::Begin("About Warpscope", &show_about_, ImGuiWindowFlags_NoDocking)) {
    ImGui::Text("Warpscope %s", WARPSCOPE_VERSION);
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
