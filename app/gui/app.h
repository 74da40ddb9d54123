// The desktop app's frame loop, and the scripted runs (`--screenshot`, `--frames`) that the GUI
// tests and teachers' scripts use.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "warpscope/trace/schedule.h"

namespace ws {

struct KeyPress {
  std::string key;  // "F12"
  int frame = 0;    // pressed at the start of this frame, released at the next
};

// Scripted slider moves: set parameter `name` to `value` at frame `frame` (tests, benchmarks).
struct ParamDrag {
  std::string name;
  long long value = 0;
  int frame = 0;
};

struct AppOptions {
  int width = 1600, height = 1000;
  std::filesystem::path screenshot;  // save this frame and exit
  int frames = 0;                    // scripted: frames to render before saving/exiting (0: run)
  std::string panel;                 // with --screenshot: only this panel
  bool scale_2x = false;             // with --screenshot: at twice the resolution
  std::optional<int> ui_scale;       // this run only; not saved
  std::filesystem::path config_dir;  // empty: ConfigDir()
  std::filesystem::path screenshot_dir;   // this run's folder for F12 and menu exports
  std::filesystem::path layout_json;      // scripted: write panel rectangles here at the end
  std::string focus;                      // panel to bring to the front at start
  std::string what_if;                    // a what-if layout applied to the runs (what_if.h)
  std::string sweep;                      // scripted: sweep this parameter (timing view)
  bool show_shipped = false;              // scripted: open the shipped capture (multi-GPU)
  std::string timing_csv;                 // scripted: the timing view's CSV goes to this folder
  std::string lesson;                     // the lesson run at start (empty: the last one, else
                                          // transpose)
  std::string variant;                    // its variant (empty: the first)
  std::string exercise;                   // with lesson: one of its exercises (presets)
  std::map<std::string, long long> sets;  // --set NAME=VALUE over the lesson's defaults
  std::string backend;                    // emu | cuda (empty: the last one, else emu)
  Schedule schedule;                      // the emulator's thread order (--schedule)
  std::filesystem::path trace_file;       // FILE.wstrace to open
  std::filesystem::path assignment;       // an assignment (.toml): its Goals panel, its program
  // A program opened on the command line takes warpscope-cli run --file's options:
  std::vector<std::string> include_dirs;  // -I folders
  std::vector<std::string> defines;       // -D NAME=VALUE (a slider's name moves the slider)
  std::vector<std::string> program_args;  // --arg: argv[1..]
  double program_timeout_s = 0;           // --timeout: its time limit in seconds (0: 30 s)
  std::vector<KeyPress> presses;          // scripted key presses (tests)
  std::vector<ParamDrag> drags;           // scripted slider moves (tests)
  bool wait_each_drag = true;             // scripted: finish each drag's run before going on
  std::filesystem::path lecture;          // presentation mode: walk this lecture file's steps
  int lecture_step = 1;                   // the step it opens on (1-based)
  bool windowed = false;                  // presentation mode in a window, not full screen
  std::filesystem::path export_dir;       // with lecture: write its notes here and exit
  std::filesystem::path walk_json;        // with lecture: walk every step, record it, exit
  std::filesystem::path bench_json;       // benchmark mode: write the figures here and exit
  std::filesystem::path bench_edit;       // with bench_json: the save-to-redraw benchmark
  int bench_reps = 7;
};

// Returns the process exit code: 0 ok, 1 failure (message printed), 2 bad arguments.
int RunApp(const AppOptions& options);

}  // namespace ws
