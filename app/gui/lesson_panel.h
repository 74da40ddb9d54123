// The lesson panel: pick a lesson and a variant, drag its parameters (every change re-runs the
// lesson in the background), read what to look for, choose the backend, and see the launch's
// summary. It is the one panel that runs kernels; the views only read the Session it fills.
#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "gui/lesson_runner.h"
#include "warpscope/kernels/catalog.h"
#include "warpscope/kernels/devices.h"
#include "warpscope/program/program.h"
#include "warpscope/viz/panel.h"
#include "warpscope/viz/session.h"

namespace ws {

class LessonPanel : public Panel {
 public:
  LessonPanel(Session* session, const DeviceQuery& devices);

  // Selects a lesson (variant empty: its first), sets `overrides` (NAME=VALUE) over the defaults
  // and `backend` ("emu", "cuda" or empty: keep), and starts the run. Returns a message naming
  // what is wrong (unknown lesson, variant, parameter or value; no GPU), else "".
  std::string Select(const std::string& lesson, const std::string& variant,
                     const Params& overrides = {}, const std::string& backend = "");
  void Rerun();
  // Sets one parameter as a slider would (checked against its range) and re-runs; "" or why not.
  std::string SetParam(const std::string& name, long long value);
  // Takes a finished run into the session; call once per frame.
  void Poll();
  // Waits (up to `seconds`) for the run under way: scripted screenshots need the final picture.
  bool WaitIdle(double seconds);
  // Waits for a sweep asked for or under way to finish; false if it took too long.
  bool WaitSweep(double seconds);
  // Starts a sweep the timing view asked for, and collects its runs into the session.
  void PollSweep();
  // Opens a trace file and shows it like a live run (its lesson, variant and parameters on the
  // sliders; moving one runs that lesson live). Returns why it could not, or "".
  std::string OpenTrace(const std::string& path);
  // Shows a trace already read (a file, or a capture shipped with Warpscope) as OpenTrace does.
  std::string ShowTrace(Result<LessonRun> run);
  // Next (+1) or previous (-1) lesson in the catalogue, wrapping around.
  void StepLesson(int delta);
  // Opens the user's own CUDA program: its launches in the views, its `// warpscope: param`
  // definitions as sliders; saving the file in an editor re-runs it. Returns why not, or "".
  std::string OpenProgram(const std::string& path);
  // The -I folders the next program opened (and the open one) is compiled with.
  void SetProgramIncludes(const std::vector<std::string>& dirs);
  bool program_open() const { return !program_path_.empty(); }
  // The program under way: its launch and blocks done (the status bar shows them too).
  std::optional<ProgramProgress> progress() const { return runner_.progress(); }
  // Shows launch `index` of the program's run in every view (kept across re-runs).
  void SelectLaunch(std::size_t index);
  void DrawLaunchList(const LessonRun& run);
  // Sets the program's arguments (argv[1..], separated by spaces) and re-runs.
  void SetProgramArgs(const std::string& args);
  // What the next program opened runs with besides its sliders, as the CLI's run --file takes
  // it: -D NAME=VALUE (one naming a slider moves it, when in its range), argv[1..], the time limit
  // in seconds (0: unchanged, 30 at first) and the backend ("emu", "cuda", "": the emulator). Each
  // is a field of the program panel. Returns why not (no GPU for "cuda"), or "".
  std::string SetProgramRunOptions(const std::vector<std::string>& defines,
                                   const std::vector<std::string>& args, double timeout_s,
                                   const std::string& backend);

  // The emulator's thread order (the Run menu; warpscope --schedule): items for an open menu,
  // and a change (which re-runs).
  void DrawScheduleMenu();
  void SetSchedule(const Schedule& schedule, bool rerun = true);
  // Sets up and runs the current lesson's exercise `name`; "" or why not (naming the others).
  std::string SelectExercise(const std::string& name);
  const Schedule& schedule() const { return schedule_; }
  int gpu_index() const { return gpu_index_; }
  // Picks the GPU lessons run on (of several); re-runs if the GPU backend is in use.
  void SetGpuIndex(int index);
  const std::string& lesson() const { return lesson_; }
  const std::string& variant() const { return variant_; }
  const Params& params() const { return params_; }
  double last_run_ms() const { return last_run_ms_; }

 public:
  State Shown() const override;

 protected:
  void DrawContents() override;

 private:
  void DrawExplanation(const LessonInfo& info);
  bool DrawVariantAndParams(const LessonInfo& info);
  // lesson_panel_run.cpp: the last run's summary.
  void DrawStatus();
  void DrawRunSummary(const LessonInfo* info, const LessonRun& run);
  void DrawLaunchLines(const LessonRun& run);
  void DrawFigureLines(const LessonRun& run);
  void DrawProgram();
  bool DrawBackendChoice();

  void DrawProgramControls();
  void CloseProgram();
  void ClearProgramFields();  // arguments, defines and time limit back to none, none and 30 s
  // After ReadProgramParams: a -D of a slider's name, with a value in its range, moves the slider.
  void SlidersTakeTheirDefines();
  // Reads the program's sliders from its text; keeps the values of those still there.
  void ReadProgramParams();
  // Re-runs the program when its file changed on disk (checked a few times a second).
  void WatchProgramFile();
  Session* session_;
  LessonRunner runner_;
  SweepRunner sweeper_;
  bool have_gpu_;
  std::string gpu_name_, why_no_gpu_;
  std::string lesson_, variant_;
  Params params_;
  int exercise_ = -1;  // the preset whose question is shown (index into presets), -1: none
  // Sets exercise `index` of lesson `info` up (variant, parameters, thread order) and runs it;
  // "" or why not.
  std::string ApplyExercise(const LessonInfo& info, int index);
  bool use_gpu_ = false;
  Schedule schedule_;  // the emulator's thread order
  int gpu_index_ = 0;
  bool showing_trace_ = false;              // the session shows a trace file, not a run made here
  double last_run_ms_ = 0;                  // wall time of the last run, for the summary
  std::uint32_t recorded_for_block_ = 0;    // the block a re-run was last made to keep
  std::uint64_t recorded_all_for_ = ~0ull;  // the run generation re-run to keep every block
  // The run's figures as "name: value" lines, made once per run.
  std::vector<std::string> figure_lines_;
  std::uint64_t figure_lines_generation_ = 0;
  bool figure_lines_ready_ = false;
  // The user's program, when one is open (program mode).
  std::string program_path_;
  std::vector<ProgramParam> program_params_;
  std::string program_params_error_;
  std::map<std::string, long long> program_values_;
  char program_args_[512] = {};
  char program_includes_[1024] = {};  // -I folders, separated by ';'
  char program_defines_[1024] = {};   // -D NAME=VALUE, separated by spaces
  float program_timeout_s_ = 30;      // the program's time limit
  bool open_on_gpu_ = false;          // the next program opened runs on the GPU (--backend cuda)
  // The last run's output as shown (printed_text.h), made once per run.
  std::uint64_t output_shown_generation_ = ~0ull;
  std::string output_shown_, output_note_;
  std::string errors_shown_, errors_note_;  // its stderr, the same way
  // The program's other files (headers, units) as last seen: a save of any runs it again.
  std::map<std::string, std::filesystem::file_time_type> program_files_seen_;
  std::filesystem::file_time_type program_mtime_{};
  std::uintmax_t program_size_ = 0;
  std::chrono::steady_clock::time_point next_file_check_{};
  std::size_t program_launch_ = ~std::size_t{0};  // the launch the user picked; none: the last
};

}  // namespace ws
