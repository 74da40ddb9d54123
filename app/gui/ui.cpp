// The app's user interface (see ui.h): the panels and the session they share, the runs the
// lesson panel makes, shortcuts and playback, exports and notices, which views a lesson brings to
// the front; the frame. The menus, status bar, dock layouts and the Open and About windows are in
// ui_menus.cpp. Index:
//   [SECTION] Runs: the lesson, its exercises, parameters, sweeps
//   [SECTION] Input and idle: shortcuts, playback, whether frames are needed
//   [SECTION] Exports, notices and panels
//   [SECTION] Following the lesson: the views it brings to the front
//   [SECTION] The frame
//   [SECTION] Opening files
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

// [SECTION] Runs ----------------------------------------------------------------------------------

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

// [SECTION] Input and idle ------------------------------------------------------------------------

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

double Ui::InputFrameWait() const {
  return !Animating() && session_.running ? 0.05 : 1.0 / 60.0;
}

bool Ui::IdleTick() {
  const std::uint64_t generation = session_.generation;
  const std::string error = session_.error;
  lesson_panel()->Poll();
  return NeedsFrames() || session_.generation != generation || session_.error != error;
}

// [SECTION] Exports, notices and panels -----------------------------------------------------------

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

// [SECTION] Following the lesson ------------------------------------------------------------------

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

// [SECTION] The frame -----------------------------------------------------------------------------

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
  if (!session_.focus_panel.empty()) {
    if (Panel* p = FindPanel(session_.focus_panel)) p->RequestFocus();
    session_.focus_panel.clear();
  }
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

// [SECTION] Opening files -------------------------------------------------------------------------

std::string Ui::OpenTrace(const std::string& path) {
  return lesson_panel()->OpenTrace(path);
}

void Ui::SetProgramIncludes(const std::vector<std::string>& dirs) {
  lesson_panel()->SetProgramIncludes(dirs);
}

std::string Ui::SetProgramRunOptions(const std::vector<std::string>& defines,
                                     const std::vector<std::string>& args, double timeout_s,
                                     const std::string& backend) {
  return lesson_panel()->SetProgramRunOptions(defines, args, timeout_s, backend);
}

std::string Ui::OpenProgram(const std::string& path) {
  return lesson_panel()->OpenProgram(path);
}

std::string Ui::OpenFile(const std::string& path) {
  return std::filesystem::path(path).extension() == ".wstrace" ? OpenTrace(path)
                                                               : OpenProgram(path);
}

}  // namespace ws
