// The app's frame: main menu, the dock space with the view panels, and the status bar. It turns
// what the user asks for (F12, menu items, a panel's Export PNG) into ExportRequests that the
// frame loop carries out after rendering.
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "core/settings.h"
#include "gui/frame_capture.h"
#include "gui/gl_window.h"
#include "warpscope/kernels/devices.h"
#include "warpscope/kernels/lesson_api.h"
#include "warpscope/viz/panel.h"
#include "warpscope/viz/session.h"

namespace ws {

// Idle, the app's loop wakes this often (seconds) to look at the program's files and for a
// finished run, drawing nothing unless something changed.
inline constexpr double kIdleWait = 0.05;

class Ui {
 public:
  Ui(Settings* settings, std::filesystem::path config_dir, DeviceQuery devices, GlInfo gl);

  void Draw();  // between ImGui::NewFrame() and ImGui::Render()

  std::vector<ExportRequest> TakeExportRequests();
  // Is anything moving (playback, a run or sweep under way, a status message to take down, an
  // export or layout change to carry out)? Then the loop draws at the display's rate; else it
  // sleeps until an event arrives (docs: "Idle costs nothing").
  bool NeedsFrames() const;
  // How long the loop may wait for events before the next frame while NeedsFrames(): a display
  // refresh when something animates, but a tenth of a second when only a run is under way (its
  // progress needs no more, and on software OpenGL each frame takes CPU from the run).
  double FrameWait() const;
  // The same for the second after input (hover highlights, tooltips that appear after a delay):
  // a display refresh, but a twentieth of a second while a run is under way and nothing else
  // moves. Input wakes the loop at once, and so does the run's end (SetRunFinishedHook).
  double InputFrameWait() const;
  // Between frames while idle, outside an ImGui frame: looks at the program's files and for a
  // finished run. True when a frame must be drawn to show what changed.
  bool IdleTick();
  bool quit_requested() const { return quit_requested_; }
  // True once after the user changed the UI scale or the theme; the loop re-applies the theme
  // before the next frame and the setting is already saved.
  bool TakeUiScaleChanged();
  // The UI scale in effect: the saved one, or this run's --ui-scale (which is not saved).
  void SetUiScaleInEffect(int percent) { ui_scale_ = percent; }
  int ui_scale() const { return ui_scale_; }
  // Lecture steps: shows only `panels`, the first the largest, arranged as `arrangement`
  // (single, columns, rows, main-side; "" : main-side for several, single for one). Applied
  // on the next frame; the lesson's own view no longer comes forward by itself.
  void SetLectureLayout(std::vector<std::string> panels, std::string arrangement);
  // Presentation mode: nothing is saved (settings, imgui.ini); `bar` draws the step bar over
  // the views, `overlay` anything over the panels (the speaker note).
  void SetLectureMode(std::function<void()> bar, std::function<void()> overlay);
  // Brings a panel to the front at start (--focus), over the lesson's own view.
  void FocusAtStart(const std::string& panel_id);

  // A line in the status bar (errors in red) for a few seconds.
  void Notify(std::string message, bool error);

  Panel* FindPanel(const std::string& id);
  // Selects and starts a lesson in the lesson panel; returns the error, if any.
  // The emulator's thread order for the runs that follow (--schedule; the Run menu).
  void SetSchedule(const Schedule& schedule);
  // One of the current lesson's exercises (LessonInfo::presets), set up and run; "" or why not.
  std::string SelectExercise(const std::string& name);
  std::string SelectLesson(const std::string& lesson, const std::string& variant,
                           const Params& overrides = {}, const std::string& backend = "");
  // Waits for the lesson run under way (scripted screenshots); false if it took too long.
  bool WaitForRun(double seconds);
  // Opens a .wstrace file in the views; returns why not, or "".
  std::string OpenTrace(const std::string& path);
  // Opens the user's own CUDA program (a .cu file); returns why not, or "".
  std::string OpenProgram(const std::string& path);
  // The -I folders programs are compiled with (the command line's; a field in program mode).
  void SetProgramIncludes(const std::vector<std::string>& dirs);
  // -D, argv[1..], the time limit (0: 30 s) and the backend of the next program opened (the
  // command line's, as warpscope-cli run --file takes them); returns why not, or "".
  std::string SetProgramRunOptions(const std::vector<std::string>& defines,
                                   const std::vector<std::string>& args, double timeout_s,
                                   const std::string& backend);
  // A trace (.wstrace) or a program (anything else), by the file's extension.
  std::string OpenFile(const std::string& path);
  // Sets a lesson parameter as its slider would; returns why not, or "".
  std::string SetParam(const std::string& name, long long value);
  // Starts a sweep of a lesson parameter as the timing view's Sweep button would (the x axis
  // moves to it); returns why not, or "".
  std::string StartSweep(const std::string& param);
  // Waits for a sweep under way (scripted runs); false if it took too long.
  bool WaitForSweep(double seconds);
  Session& session() { return session_; }
  const Session& session() const { return session_; }
  std::string PanelIds() const;  // "lesson, source, grid, ..." for error messages
  const std::vector<std::unique_ptr<Panel>>& panels() const { return panels_; }
  // A panel of the app's own beyond the views (the assignment's Goals panel).
  void AddPanel(std::unique_ptr<Panel> p) { panels_.push_back(std::move(p)); }

  // Where the next screenshot of `panel_id` (empty: whole window) goes; creates the folder.
  Result<std::filesystem::path> NextScreenshotPath(const std::string& panel_id) const;
  const std::string& backend_label() const { return backend_label_; }
  // The status bar's backend text as last drawn (the layout JSON's "status_backend").
  const std::string& status_backend() const { return status_backend_; }
  // ImGui's frame height in the last frame (font size + padding): grows with the UI scale.
  float frame_height() const { return frame_height_; }

 private:
  // Playback, a sweep, an export or a status message to take down: drawn at the display's rate.
  bool Animating() const;
  void DrawMainMenu();
  void DrawStatusBar();
  void DrawDockSpace();
  void BuildDefaultLayout(unsigned int dockspace_id);
  void DockNewPanels();
  // Whether panel `id` is one of the big views (docked as tabs of one node by default).
  static bool IsViewPanel(const std::string& id);
  // The window holds fewer than kCompactLines lines of text (or kCompactColumns characters
  // across) at the UI scale: the default layout then puts every view in one node of tabs.
  static constexpr float kCompactLines = 45, kCompactColumns = 80;
  static bool CompactScreen();
  void BuildLectureLayout(unsigned int dockspace_id);
  void DrawAboutWindow();
  void DrawOpenWindow();
  void DrawShippedExamples();
  void DrawShippedLaunchMenu(const char* what, const char* flag);
  void RequestScreenshot(const std::string& panel_id, int delay_frames);
  void HandleShortcuts();
  void AdvancePlayback();
  void RememberLesson();
  void FollowLessonView();
  void FollowWarpOps();
  class LessonPanel* lesson_panel();

  Settings* settings_;
  std::filesystem::path config_dir_;
  DeviceQuery devices_;
  GlInfo gl_;
  std::string backend_label_;
  std::string status_backend_;
  std::string StatusBackendText() const;
  Session session_;
  std::vector<std::unique_ptr<Panel>> panels_;
  std::vector<ExportRequest> exports_;
  bool quit_requested_ = false;
  bool ui_scale_changed_ = false;
  bool reset_layout_ = false;
  // Whether panels a saved layout does not know (views added since it was saved) were docked
  // with the views: once, on the first frame (DockNewPanels).
  bool new_panels_docked_ = false;
  bool show_about_ = false;
  bool show_shortcuts_ = false;
  bool show_open_ = false;
  bool open_program_ = false;  // the open window is for a program, not a trace
  char open_path_[1024] = {};
  std::string open_error_;
  std::uint64_t remembered_generation_ = 0;
  std::string followed_lesson_;           // the lesson FollowLessonView last saw
  std::set<std::string> auto_opened_;     // lesson-only views opened for their lesson
  std::vector<std::string> start_focus_;  // --focus, --panel: in front of the lesson's view
  bool followed_warp_op_ = false;         // playback was on a warp meeting last frame
  double next_step_at_ = 0;
  float frame_height_ = 0;
  int ui_scale_ = 100;
  bool lecture_mode_ = false;
  bool lecture_layout_pending_ = false;
  std::vector<std::string> lecture_panels_;
  std::string lecture_arrangement_;
  std::function<void()> lecture_bar_, lecture_overlay_;
  std::string message_;
  bool message_is_error_ = false;
  double message_until_ = 0;
  char screenshot_dir_edit_[512] = {};
};

}  // namespace ws
