// warpscope: the desktop app. `warpscope --help` lists the options.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <regex>

#include "warpscope/kernels/catalog.h"
#include "warpscope/program/program.h"
#include "warpscope/trace/build_info.h"

#include "gui/app.h"

namespace {

// What the command line gives before it becomes AppOptions: text to parse, and the options
// whose presence counts.
struct RawArgs {
  std::string size;                  // --size WIDTHxHEIGHT
  std::vector<std::string> presses;  // --press KEY@N
  std::vector<std::string> sets;     // --set NAME=VALUE
  std::vector<std::string> drags;    // --drag NAME=VALUE@N
  std::string schedule = "in-order";
  int ui_scale = 0;
  int scale = 1;
  bool drags_run_on = false;
  CLI::Option* scale_opt = nullptr;  // --ui-scale
  CLI::Option* scale2 = nullptr;     // --scale
  CLI::Option* file = nullptr;       // FILE, the positional one
  CLI::Option* file_opt = nullptr;   // --file PROGRAM.cu
  CLI::Option* timeout = nullptr;    // --timeout S
  std::filesystem::path file_named;  // --file's
};

// The options a user gives.
void AddOptions(CLI::App& cli, ws::AppOptions& opt, RawArgs& raw) {
  cli.add_option("--screenshot", opt.screenshot,
                 "Render, save the window (or --panel) as PNG, and exit");
  cli.add_option("--frames", opt.frames,
                 "Frames to render before the screenshot or exit (default 5 with --screenshot)")
      ->check(CLI::Range(1, 100000));
  cli.add_option("--panel", opt.panel,
                 "With --screenshot: save only this panel (grid, coalescing, banks, ...)");
  cli.add_flag("--2x", opt.scale_2x, "With --screenshot: twice the resolution, for print");
  cli.add_option("--size", raw.size, "Window size, WIDTHxHEIGHT (default 1600x1000)");
  raw.scale_opt =
      cli.add_option("--ui-scale", raw.ui_scale, "UI scale in percent for this run (100-300)");
  cli.add_option("--config-dir", opt.config_dir, "Folder for settings.json and imgui.ini");
  cli.add_option("--screenshot-dir", opt.screenshot_dir,
                 "Folder for F12 and Export PNG screenshots");
  cli.add_option("--focus", opt.focus, "Bring this panel to the front at start");
  cli.add_option("--assignment", opt.assignment,
                 "An assignment file (.toml): the Goals panel, and its starting program unless a "
                 "program is given");
  cli.add_option("--what-if", opt.what_if,
                 "ARRAY:LAYOUT applied to the runs' records, as warpscope-cli run --what-if "
                 "(tile:swizzle=5,0,5)");
  cli.add_option(
      "--lesson", opt.lesson,
      "Lesson to run at start (default: the last one, else transpose; see warpscope-cli lessons)");
  cli.add_option("--variant", opt.variant, "Its variant (default: the lesson's first)");
  cli.add_option("--exercise", opt.exercise,
                 "With --lesson: one of its exercises from the seeds, set up and run (see "
                 "warpscope-cli lessons)");
  cli.add_option("--set", raw.sets, "NAME=VALUE: a lesson parameter (repeatable)");
  cli.add_option("--backend", opt.backend, "emu (the CPU emulator) or cuda (the GPU)")
      ->check(CLI::IsMember({"emu", "cuda"}));
  cli.add_option("--schedule", raw.schedule,
                 "The emulator's thread order: in-order, reverse, lockstep or random:SEED");
  raw.scale2 = cli.add_option("--scale", raw.scale, "With --screenshot: 2 = twice the resolution")
                   ->check(CLI::IsMember({1, 2}));
  raw.file = cli.add_option("file", opt.trace_file,
                            "A .wstrace capture, or your own CUDA program (.cu), to open");
  raw.file_opt = cli.add_option("--file", raw.file_named,
                                "Your own CUDA program (.cu) to open, as warpscope-cli run --file");
  raw.file_opt->excludes(raw.file);
  // A program's options, as warpscope-cli run --file takes them; each is a field in program mode.
  cli.add_option("-I,--include", opt.include_dirs,
                 "With a program: a folder its #includes are searched in, as nvcc's -I "
                 "(repeatable; also a field in program mode)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cli.add_option("-D,--define", opt.defines,
                 "With a program: NAME=VALUE, set in its own #define or constexpr (a slider's "
                 "name moves the slider), else passed to the compiler (repeatable)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cli.add_option("--arg", opt.program_args,
                 "With a program: an argument for its main() (repeatable; the Arguments field)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  raw.timeout = cli.add_option("--timeout", opt.program_timeout_s,
                               "With a program: seconds it may run (default 30; the Time limit "
                               "field)")
                    ->check(CLI::Range(ws::kMinProgramTimeoutS, ws::kMaxProgramTimeoutS));
  cli.add_option("--lecture", opt.lecture,
                 "Present a lecture file (TOML; assets/lectures/): full screen, one key a step");
  cli.add_option("--step", opt.lecture_step, "With --lecture: the step to open on (from 1)")
      ->check(CLI::Range(1, 100000));
  cli.add_flag("--windowed", opt.windowed, "With --lecture: in a window, not full screen");
  cli.add_option("--export", opt.export_dir,
                 "With --lecture: write every step's figures (PNG at 2x, SVG) and index.md / "
                 "index.html into this folder, then exit");
}

// The scripted runs' options (tests, benchmarks, the lecture notes), not listed in --help.
void AddScriptedOptions(CLI::App& cli, ws::AppOptions& opt, RawArgs& raw) {
  cli.add_option("--walk-json", opt.walk_json,
                 "Scripted runs: walk every step of --lecture, write what each showed, exit")
      ->group("");
  cli.add_option("--layout-json", opt.layout_json,
                 "Scripted runs: write the panels' rectangles here")
      ->group("");  // for tests
  cli.add_option("--sweep", opt.sweep,
                 "Scripted runs: sweep this lesson parameter, as the timing view's Sweep button")
      ->group("");
  cli.add_flag("--show-shipped", opt.show_shipped,
               "Scripted runs: open the shipped capture of the lesson's variant, as the "
               "multi-GPU view's button does")
      ->group("");
  cli.add_option("--timing-csv", opt.timing_csv,
                 "Scripted runs: the timing view writes its CSV into this folder at the end")
      ->group("");
  cli.add_option("--press", raw.presses, "Scripted runs: press KEY at frame N (KEY@N)")->group("");
  cli.add_option("--drag", raw.drags, "Scripted runs: set NAME=VALUE at frame N (NAME=VALUE@N)")
      ->group("");
  cli.add_flag("--drags-run-on", raw.drags_run_on,
               "Scripted runs: draw on while a drag's run is under way (its progress shows)")
      ->group("");
  cli.add_option("--bench-edit", opt.bench_edit,
                 "With --bench-json: time save-to-redraw for this program (.cu)")
      ->group("");
  cli.add_option("--bench-reps", opt.bench_reps, "With --bench-edit: saves to time (default 7)")
      ->check(CLI::Range(1, 1000))
      ->group("");
  cli.add_option("--bench-json", opt.bench_json,
                 "Benchmark: measure slider-to-redraw latency and frame time, write JSON, exit")
      ->group("");
}

// Parses what the options' text says into `opt`. Returns 0, else 2 after saying what is wrong.
int ParseArgs(const RawArgs& raw, ws::AppOptions& opt) {
  if (!raw.file_named.empty()) {  // --file PROGRAM.cu: as the positional FILE
    if (raw.file_named.extension() == ".wstrace") {
      std::cerr << "warpscope: --file opens a program (.cu); give a trace as FILE.wstrace\n";
      return 2;
    }
    opt.trace_file = raw.file_named;
  }
  if (auto s = ws::ParseSchedule(raw.schedule); s.ok()) {
    opt.schedule = *s;
  } else {
    std::cerr << "warpscope: --schedule: " << s.status().message() << "\n";
    return 2;
  }

  if (!raw.size.empty()) {
    std::smatch m;
    if (!std::regex_match(raw.size, m, std::regex(R"((\d{2,5})x(\d{2,5}))"))) {
      std::cerr << "warpscope: --size must be WIDTHxHEIGHT, e.g. 1600x1000 (got '" << raw.size
                << "')\n";
      return 2;
    }
    opt.width = std::stoi(m[1]);
    opt.height = std::stoi(m[2]);
    if (opt.width < 320 || opt.height < 240 || opt.width > 16384 || opt.height > 16384) {
      std::cerr << "warpscope: --size must be between 320x240 and 16384x16384 (got " << raw.size
                << ")\n";
      return 2;
    }
  }
  if (raw.scale_opt->count() > 0) opt.ui_scale = raw.ui_scale;
  for (const std::string& p : raw.presses) {
    const auto at = p.find('@');
    if (at == std::string::npos || at + 1 >= p.size()) {
      std::cerr << "warpscope: --press needs KEY@FRAME (got '" << p << "')\n";
      return 2;
    }
    opt.presses.push_back({p.substr(0, at), std::stoi(p.substr(at + 1))});
  }
  if (raw.scale2->count() > 0 && raw.scale == 2) opt.scale_2x = true;
  {
    std::vector<std::string> notes;
    auto parsed = ws::ParseSetArguments(ws::FindLesson(opt.lesson), opt.variant, raw.sets, &notes);
    if (!parsed.ok()) {
      std::cerr << "warpscope: " << parsed.status().message() << "\n";
      return 2;
    }
    for (const std::string& n : notes) std::cerr << "warpscope: note: --set " << n << "\n";
    opt.sets = *parsed;
  }
  return 0;
}

// A program's options (-I, -D, --arg, --timeout): only with a program, each well formed, as
// warpscope-cli run --file checks them. Returns 0, else 2 after saying what is wrong.
int CheckProgramArgs(const RawArgs& raw, const ws::AppOptions& opt) {
  // An assignment opens its starting program (or the one given): the options are for it.
  const bool program = (!opt.trace_file.empty() && opt.trace_file.extension() != ".wstrace") ||
                       !opt.assignment.empty();
  const bool given = !opt.include_dirs.empty() || !opt.defines.empty() ||
                     !opt.program_args.empty() || raw.timeout->count() > 0;
  if (given && !program) {
    std::cerr << "warpscope: -I, -D, --arg and --timeout are a program's: give PROGRAM.cu (or "
                 "--file PROGRAM.cu, --assignment FILE.toml)\n";
    return 2;
  }
  for (const std::string& d : opt.defines) {
    if (const std::string why = ws::DefineError(d); !why.empty()) {
      std::cerr << "warpscope: -D " << d << ": " << why << "\n";
      return 2;
    }
  }
  for (const std::string& d : opt.include_dirs) {
    std::error_code ec;
    if (!std::filesystem::is_directory(d, ec)) {
      std::cerr << "warpscope: -I " << d << ": no such folder\n";
      return 2;
    }
  }
  // The fields hold words separated by spaces: a word with a space in it cannot be one.
  for (const auto& [flag, words] :
       {std::pair<const char*, const std::vector<std::string>*>{"-D", &opt.defines},
        {"--arg", &opt.program_args}}) {
    for (const std::string& w : *words) {
      if (w.find_first_of(" \t\n") != std::string::npos || w.empty()) {
        std::cerr << "warpscope: " << flag << " '" << w
                  << "': the app passes words without spaces (its fields are separated by "
                     "spaces); use warpscope-cli run --file for this one\n";
        return 2;
      }
    }
  }
  return 0;
}

// Options that need, or exclude, one another; the scripted runs' drags; the defaults that
// depend on other options. Returns 0, else 2 after saying what is wrong.
int CheckArgs(const RawArgs& raw, ws::AppOptions& opt) {
  if (!opt.lecture.empty() && (!opt.lesson.empty() || !opt.trace_file.empty())) {
    std::cerr << "warpscope: give --lecture FILE, or a lesson or file, not both\n";
    return 2;
  }
  if ((!opt.export_dir.empty() || !opt.walk_json.empty()) && opt.lecture.empty()) {
    std::cerr << "warpscope: --export writes a lecture's notes: it needs --lecture FILE\n";
    return 2;
  }
  if (!opt.assignment.empty() && (!opt.lesson.empty() || !opt.lecture.empty())) {
    std::cerr << "warpscope: --assignment opens a program: give no --lesson or --lecture\n";
    return 2;
  }
  if (int rc = CheckProgramArgs(raw, opt); rc != 0) return rc;
  if (!opt.trace_file.empty() && !opt.lesson.empty()) {
    std::cerr << "warpscope: give a file (a trace or a program) or --lesson, not both\n";
    return 2;
  }
  // A program takes --set for its `// warpscope: param` sliders; a lesson takes both.
  const bool program = !opt.trace_file.empty() && opt.trace_file.extension() != ".wstrace";
  if ((!opt.variant.empty() || (!opt.sets.empty() && !program)) && opt.lesson.empty()) {
    std::cerr << "warpscope: --variant and --set need --lesson ID (or, --set, a program)\n";
    return 2;
  }
  for (const std::string& d : raw.drags) {
    std::smatch m;
    if (!std::regex_match(d, m, std::regex(R"(([A-Za-z_][A-Za-z0-9_]*)=(-?\d{1,18})@(\d{1,6}))"))) {
      std::cerr << "warpscope: --drag needs NAME=VALUE@FRAME (got '" << d << "')\n";
      return 2;
    }
    opt.drags.push_back({m[1], std::stoll(m[2]), std::stoi(m[3])});
  }
  if (raw.drags_run_on) opt.wait_each_drag = false;
  if (!opt.screenshot.empty() && opt.frames == 0) opt.frames = 5;
  if (!opt.panel.empty() && opt.screenshot.empty()) {
    std::cerr << "warpscope: --panel needs --screenshot FILE\n";
    return 2;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  ws::SetBuild(ws::ThisBuild());
  ws::AppOptions opt;
  CLI::App cli{"Warpscope: see what every GPU thread did."};
  cli.set_version_flag("--version", ws::VersionLine("warpscope"));
  RawArgs raw;
  AddOptions(cli, opt, raw);
  AddScriptedOptions(cli, opt, raw);
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help and --version exit 0; an unknown option or a bad value is a wrong argument: 2, as
    // the README says (CLI11's own codes, 109 for an extra argument, say nothing to a script).
    if (e.get_exit_code() == 0) return cli.exit(e);
    std::cerr << "warpscope: " << e.what() << "\n";
    return 2;
  }
  if (int rc = ParseArgs(raw, opt); rc != 0) return rc;
  if (int rc = CheckArgs(raw, opt); rc != 0) return rc;
  return ws::RunApp(opt);
}
