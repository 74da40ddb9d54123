// warpscope-cli: the headless command line (no GUI libraries, so it builds on a GPU server).
#include <CLI/CLI.hpp>

#include <unistd.h>

#include <algorithm>

#include <cctype>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "cli/read_commands.h"
#include "core/capture.h"
#include "core/report.h"
#include "core/shipped.h"
#if WARPSCOPE_HAVE_ASSIGNMENTS
#include "cli/check_command.h"
#endif
#include "warpscope/kernels/devices.h"
#include "warpscope/program/program.h"
#include "warpscope/trace/build_info.h"
#include "warpscope/trace/chrome_trace.h"
#include "warpscope/trace/layout_table.h"
#include "warpscope/trace/printed_text.h"
#include "warpscope/trace/what_if.h"

namespace {

// A run that failed: bad names and values are the user's (exit 2); a failure while running is
// ours (exit 1).
int ExitCodeFor(const ws::Status& s) {
  const std::string& m = s.message();
  const bool user_error = m.find("unknown ") != std::string::npos ||
                          m.find(" is outside its range") != std::string::npos ||
                          m.find(" must be ") != std::string::npos ||
                          m.find("not allowed") != std::string::npos ||
                          m.find(" over the limit") != std::string::npos;
  return user_error ? 2 : 1;
}

// `*run` with the what-if applied; false (and why, on stderr) when it cannot be.
bool ApplyWhatIfTo(ws::LessonRun* run, const std::string& spec) {
  auto w = ws::ApplyWhatIf(*run, spec);
  if (!w.ok()) {
    std::cerr << "warpscope-cli: --what-if: " << w.status().message() << "\n";
    return false;
  }
  *run = std::move(*w);
  return true;
}

int RunCommand(const std::string& lesson, std::string variant, const std::vector<std::string>& sets,
               const std::string& backend, ws::RunOptions options, bool json,
               const std::string& capture_to = "", const std::string& exercise = "",
               const std::string& what_if = "") {
  // An exercise preset: its variant, parameters and thread order, under the user's --set.
  const ws::LessonInfo* info = ws::FindLesson(lesson);
  const ws::Preset* preset = nullptr;
  if (!exercise.empty()) {
    auto found = info != nullptr ? info->FindExercise(exercise)
                                 : ws::Result<const ws::Preset*>(ws::Status::Error(
                                       "unknown lesson '" + lesson + "'; see `lessons`"));
    if (!found.ok()) {
      std::cerr << "warpscope-cli: --exercise: " << found.status().message() << "\n";
      return 2;
    }
    preset = *found;
    if (!variant.empty() && variant != preset->variant) {
      std::cerr << "warpscope-cli: --exercise " << exercise << " runs the "
                << (preset->variant.empty() ? "default" : preset->variant)
                << " variant; leave out --variant\n";
      return 2;
    }
    variant = preset->variant;
    if (!preset->schedule.empty() && options.schedule.kind == ws::Schedule::Kind::kInOrder)
      options.schedule = *ws::ParseSchedule(preset->schedule);
  }
  std::vector<std::string> notes;
  auto parsed = ws::ParseSetArguments(info, variant, sets, &notes);
  if (!parsed.ok()) {
    std::cerr << "warpscope-cli: " << parsed.status().message() << "\n";
    return 2;
  }
  for (const std::string& n : notes) std::cerr << "warpscope-cli: note: --set " << n << "\n";
  ws::Params overrides = preset != nullptr ? preset->params : ws::Params{};
  for (const auto& [name, value] : *parsed) overrides[name] = value;
  if (!what_if.empty()) options.keep_all_threads_up_to = ws::kWhatIfKeepAllThreads;
  auto run = ws::RunLessonOrShipped(lesson, variant, overrides, backend, options);
  if (!run.ok()) {
    std::cerr << "warpscope-cli: " << run.status().message() << "\n";
    return ExitCodeFor(run.status());
  }
  if (!what_if.empty() && !ApplyWhatIfTo(&*run, what_if)) return 2;
  if (!capture_to.empty()) {
    const ws::DeviceQuery q = backend == "cuda" ? ws::QueryDevices() : ws::DeviceQuery{};
    const ws::GpuDevice* gpu = nullptr;
    for (const ws::GpuDevice& g : q.gpus) {
      if (g.index == options.gpu) gpu = &g;
    }
    if (ws::Status s = ws::SaveRunAsTrace(*run, gpu, capture_to); !s.ok()) {
      std::cerr << "warpscope-cli: " << s.message() << "\n";
      return 1;
    }
    std::cerr << "warpscope-cli: wrote " << capture_to << "\n";
  }
  if (json) {
    nlohmann::json j = ws::RunJson(*run);
    if (preset != nullptr)
      j["exercise"] = {
          {"name", preset->name}, {"question", preset->question}, {"answer", preset->answer}};
    std::cout << ws::JsonText(j, 2) << "\n";
  } else {
    std::cout << ws::RunText(*run);
    if (preset != nullptr)
      std::cout << "\nexercise " << preset->name << ": " << preset->question
                << "\nanswer: " << preset->answer << "\n";
  }
  return run->check.ok || ws::WrongOnPurpose(*run) ? 0 : 1;
}

// `serve`: the app's warm worker (core/child_run.h). One JSON request a line on stdin, one JSON
// reply a line on stdout; the process, and with it a GPU's CUDA context, lives from run to run.
// Anything else printed goes to stderr, so that stdout carries only replies. After a failed GPU
// run it exits: CUDA may keep a fault's error for the rest of the process, and the app starts a
// fresh worker for the next run.
int ServeCommand() {
  const int reply_fd = dup(STDOUT_FILENO);
  dup2(STDERR_FILENO, STDOUT_FILENO);
  FILE* replies = fdopen(reply_fd, "w");
  if (replies == nullptr) return 1;
  std::optional<ws::DeviceQuery> devices;  // asked once, on the first GPU run
  std::string line;
  while (std::getline(std::cin, line)) {
    nlohmann::json reply;
    bool leave = false;
    try {
      const nlohmann::json rq = nlohmann::json::parse(line);
      const std::string lesson = rq.at("lesson"), variant = rq.value("variant", "");
      const std::string backend = rq.value("backend", "emu"), out = rq.at("out");
      ws::Params params;
      const nlohmann::json given = rq.value("params", nlohmann::json::object());
      for (const auto& [name, value] : given.items()) params[name] = value.get<long long>();
      ws::RunOptions options;
      options.gpu = rq.value("gpu", 0);
      options.record_budget_bytes = rq.value("record_budget", options.record_budget_bytes);
      if (rq.contains("keep_blocks"))
        options.keep_blocks = rq.at("keep_blocks").get<std::vector<std::uint32_t>>();
      options.keep_all_threads_up_to = rq.value("keep_all_up_to", std::uint64_t{0});
      if (rq.contains("schedule")) {
        auto s = ws::ParseSchedule(rq.at("schedule").get<std::string>());
        if (!s.ok()) throw std::runtime_error(s.status().message());
        options.schedule = *s;
      }
      auto run = ws::RunLessonOrShipped(lesson, variant, params, backend, options);
      if (!run.ok()) {
        reply = {{"ok", false}, {"error", run.status().message()}};
        leave = backend == "cuda";
      } else {
        const ws::GpuDevice* gpu = nullptr;
        if (backend == "cuda") {
          if (!devices) devices = ws::QueryDevices();
          for (const ws::GpuDevice& g : devices->gpus) {
            if (g.index == options.gpu) gpu = &g;
          }
        }
        const ws::Status s = ws::SaveRunAsTrace(*run, gpu, out);
        reply = s.ok() ? nlohmann::json{{"ok", true}}
                       : nlohmann::json{{"ok", false}, {"error", s.message()}};
      }
    } catch (const std::exception& e) {
      reply = {{"ok", false},
               {"error", std::string("a request the worker cannot read: ") + e.what()}};
    }
    std::fprintf(replies, "%s\n", reply.dump().c_str());
    std::fflush(replies);
    if (leave) return 3;
  }
  return 0;
}

// `run --file prog.cu`: the user's own program, every launch recorded. Exit status 0 when it ran
// to the end, 1 when it failed (compile error, crash, bad index, time limit), 2 for bad options.
int ProgramCommand(const std::vector<std::string>& files, const std::vector<std::string>& defines,
                   const std::vector<std::string>& include_dirs,
                   const std::vector<std::string>& args, const std::string& backend,
                   const ws::RunOptions& options, double timeout_s, bool json,
                   const std::string& capture_to = "", bool progress = false,
                   const std::string& what_if = "", bool sandbox = false, bool every_launch = false,
                   bool source_accesses = false, const std::string& sass_file = "") {
  if (backend != "emu" && backend != "cuda") {
    std::cerr << "warpscope-cli: --backend " << backend << ": emu or cuda\n";
    return 2;
  }
  if (!ws::ProgramsSupported()) {
    std::cerr << "warpscope-cli: this build cannot open programs: it was built without clang "
                 "14's C++ API (libclang-14-dev); run scripts/setup.sh and rebuild\n";
    return 2;
  }
  for (const std::string& d : defines) {
    if (const std::string why = ws::DefineError(d); !why.empty()) {
      std::cerr << "warpscope-cli: -D " << d << ": " << why << "\n";
      return 2;
    }
  }
  auto set = ws::ProgramFileSetOf(std::vector<std::filesystem::path>(files.begin(), files.end()));
  if (!set.ok()) {
    std::cerr << "warpscope-cli: --file: " << set.status().message() << "\n";
    return 2;
  }
  for (const std::string& d : include_dirs) {
    std::error_code ec;
    if (!std::filesystem::is_directory(d, ec)) {
      std::cerr << "warpscope-cli: -I " << d << ": no such folder\n";
      return 2;
    }
  }
  const std::filesystem::path file = set->main;
  ws::ProgramOptions po;
  po.defines = defines;
  po.include_dirs.assign(include_dirs.begin(), include_dirs.end());
  po.extra_files = set->others;
  po.args = args;
  po.preset = options.preset;
  po.backend = backend;
  po.keep_blocks = options.keep_blocks;
  po.record_budget_bytes = options.record_budget_bytes;
  po.sandbox = sandbox;
  po.compiled_code = !source_accesses;
  if (!sass_file.empty()) {
    std::ifstream in(sass_file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    po.compiled_listing = text.str();
    if (!in || po.compiled_listing.find("//## File") == std::string::npos) {
      std::cerr << "warpscope-cli: --sass " << sass_file
                << ": not a listing of nvdisasm -g (no \"//## File\" line)"
                << (in ? "" : ": the file cannot be read") << "\n";
      return 2;
    }
  }
  if (!what_if.empty()) po.keep_all_threads_up_to = ws::kWhatIfKeepAllThreads;
  po.schedule = options.schedule.Name();
  po.engine = options.engine;
  po.timeout = std::chrono::milliseconds(static_cast<long long>(timeout_s * 1000));
  // --progress: the launch under way and its blocks done, on stderr (one line, redrawn, on a
  // terminal; else a line a second at most).
  const bool tty = isatty(2) != 0;
  bool shown = false;
  auto last_line = std::chrono::steady_clock::now() - std::chrono::seconds(2);
  if (progress) {
    po.on_progress = [&](const ws::ProgramProgress& p) {
      if (p.launch == 0) return;
      const auto now = std::chrono::steady_clock::now();
      if (tty) {
        std::cerr << "\r" << ws::ProgressText(p) << "\x1b[K" << std::flush;
        shown = true;
      } else if (now - last_line >= std::chrono::seconds(1) || p.blocks_done == p.blocks) {
        std::cerr << ws::ProgressText(p) << "\n";
        last_line = now;
      }
    };
  }
  ws::LessonRun r = ws::RunProgramFile(file, po);
  if (!what_if.empty() && !r.launches.empty() && !ApplyWhatIfTo(&r, what_if)) return 2;
  const ws::ProgramRecord& p = *r.program;
  if (shown) std::cerr << "\n";
  if (!capture_to.empty() && (p.ok() || !r.launches.empty())) {
    // A trace of the program: its launches, output and source; opening it runs nothing.
    if (ws::Status s = ws::SaveRunAsTrace(r, nullptr, capture_to); !s.ok()) {
      std::cerr << "warpscope-cli: " << s.message() << "\n";
      return 1;
    }
    std::cerr << "warpscope-cli: wrote " << capture_to << "\n";
  }
  if (json) {
    std::cout << ws::JsonText(ws::RunJson(r), 2) << "\n";
  } else {
    std::cout << ws::RunText(r, every_launch);
  }
  if (!p.ok()) {
    for (const ws::ProgramDiagnostic& d : p.errors) {
      std::cerr << p.file;
      if (d.line > 0) std::cerr << ":" << d.line << ":" << d.column;
      std::cerr << ": error: " << d.message << "\n";
    }
    if (p.errors.empty())  // it may quote the program's stderr: shown, not obeyed
      std::cerr << "warpscope-cli: " << ws::VisibleControls(ws::ValidUtf8(p.failure).text) << "\n";
    return p.stage == ws::ProgramStage::kRead ? 2 : 1;
  }
  // Its own failure (a check that did not pass, helper_cuda.h's exit on an error): the figures
  // stand, and a script sees the status as compute-sanitizer passes a program's on.
  if (p.exit_code != 0) {
    std::cerr << "warpscope-cli: the program exited with status " << p.exit_code << "\n";
    return 1;
  }
  return 0;
}

// `export --chrome-trace OUT.json`: the barrier timeline and the blocks-on-SMs timeline of a run
// (a lesson run here, or a trace file) as Chrome Trace Event Format JSON, for Perfetto or
// chrome://tracing. Exit status 0 when written, 2 for bad input (a name, a value, a file that
// does not open, a run with nothing to export), 1 when the run fails or its output is wrong.
int ExportCommand(const std::string& lesson, const std::string& trace_file,
                  const std::string& variant, const std::vector<std::string>& sets,
                  const std::string& backend, const ws::RunOptions& options,
                  const std::string& chrome_out) {
  if (lesson.empty() == trace_file.empty()) {
    std::cerr << "warpscope-cli: export needs a lesson id or --trace FILE.wstrace (one of them)\n";
    return 2;
  }
  std::optional<ws::LessonRun> run;
  if (!trace_file.empty()) {
    auto r = ws::LoadTraceAsRun(trace_file);
    if (!r.ok()) {
      std::cerr << "warpscope-cli: --trace " << trace_file << ": " << r.status().message() << "\n";
      return 2;
    }
    run = std::move(r).value();
  } else {
    std::vector<std::string> notes;
    auto parsed = ws::ParseSetArguments(ws::FindLesson(lesson), variant, sets, &notes);
    if (!parsed.ok()) {
      std::cerr << "warpscope-cli: " << parsed.status().message() << "\n";
      return 2;
    }
    for (const std::string& n : notes) std::cerr << "warpscope-cli: note: --set " << n << "\n";
    auto r = ws::RunLessonOrShipped(lesson, variant, *parsed, backend, options);
    if (!r.ok()) {
      std::cerr << "warpscope-cli: " << r.status().message() << "\n";
      return ExitCodeFor(r.status());
    }
    run = std::move(r).value();
  }
  const nlohmann::json trace = ws::ChromeTraceOf(*run);
  const std::size_t events = ws::ChromeTraceCompleteEvents(trace);
  const std::string what = trace_file.empty() ? lesson : trace_file;
  if (events == 0) {
    std::cerr << "warpscope-cli: export: " << what
              << " has nothing to export: no __syncthreads() in its kept blocks and no "
                 "blocks-on-SMs schedule (try barrier, scalability or transpose --variant "
                 "coalesced)\n";
    return 2;
  }
  std::ofstream out(chrome_out, std::ios::binary);
  if (!out) {
    std::cerr << "warpscope-cli: --chrome-trace " << chrome_out << ": cannot open it for writing\n";
    return 2;
  }
  out << trace.dump() << "\n";
  out.close();
  if (!out) {
    std::cerr << "warpscope-cli: --chrome-trace " << chrome_out << ": writing it failed\n";
    return 1;
  }
  std::cerr << "warpscope-cli: wrote " << chrome_out << " (" << events
            << " timeline events); open it in https://ui.perfetto.dev or chrome://tracing\n";
  if (trace_file.empty() && !run->check.ok) {
    std::cerr << "warpscope-cli: the run's output is wrong: " << run->check.message << "\n";
    return 1;
  }
  return 0;
}

// Every option of every subcommand: CLI11 writes them, the commands read them.
struct Args {
  bool json = false;
  std::string lesson, variant, backend = "emu";
  std::vector<std::string> program_files, include_dirs, defines, program_args, sets;
  double timeout_s = 30;
  ws::RunOptions options;
  std::vector<std::uint32_t> keep_blocks;
  std::string schedule = "in-order", exercise, out, chrome_out, export_trace, trace_path, what_if;
#if WARPSCOPE_HAVE_ASSIGNMENTS
  ws::cli::CheckArgs check;
#endif
  bool sandbox = false;
  bool progress = false;
  bool every_launch = false;     // --launches: a program's every launch in the text
  bool source_accesses = false;  // --source-accesses: no compiled widths
  std::string sass_file;         // --sass: nvdisasm -g's listing of the program
  std::string layout_kind = "row-major";
  int lw = 24, lh = 16, tw = 8, th = 8, mw = 1, mh = 1;
};

// Options of `run`, `capture` and `export` that choose how a run is made (`run` alone has the
// seeds' exercises).
void AddRunOptions(CLI::App* c, Args& a, const std::string& preset_help, bool exercises = false) {
  c->add_option("--variant", a.variant, "Variant (default: the lesson's first)");
  c->add_option("--set", a.sets, "Parameter NAME=VALUE (repeatable)");
  if (exercises)
    c->add_option("--exercise", a.exercise,
                  "One of the lesson's exercises from the seeds (see `lessons`): its variant, "
                  "parameters and thread order, then the question and the worked answer");
  c->add_option("--backend", a.backend, "emu (CPU emulator) or cuda (a GPU)");
  c->add_option("--preset", a.options.preset, preset_help);
  c->add_option("--schedule", a.schedule,
                "Emulator: the order a block's threads interleave in: in-order (default), "
                "reverse, lockstep (a warp's lanes together, warps in turn) or random:SEED");
  c->add_option("--engine", a.options.engine,
                "Emulator: simt (default: a warp's 32 lanes run together where the kernel "
                "allows, else thread by thread, each launch saying why) or fiber (every thread "
                "on its own); the same figures")
      ->check(CLI::IsMember({"simt", "fiber"}));
  c->add_option("--keep-block", a.keep_blocks,
                "Keep the full records of this block (repeatable; default 0 1 2 3)");
  c->add_option("--gpu", a.options.gpu, "CUDA device index (default 0; see `devices`)");
  c->add_option("--record-budget", a.options.record_budget_bytes,
                "Bytes of GPU memory one launch's access records may take (default 1 GiB); "
                "past it a launch's figures miss blocks, and say how many they cover")
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40));
  // For profilers and benchmarks: only the uninstrumented build, and how often it is timed.
  c->add_flag("--uninstrumented", [&a](std::int64_t) { a.options.record = false; })->group("");
  c->add_option("--timed-runs", a.options.timed_runs)->check(CLI::Range(1, 1000))->group("");
}

// `run`'s and `capture`'s --file and the options that go with it.
void AddProgramOptions(CLI::App* c, Args& a, const std::string& file_help,
                       const std::string& include_help, const std::string& define_help) {
  auto* lesson_opt = c->add_option("lesson", a.lesson, "Lesson id (see `lessons`)");
  auto* file_opt = c->add_option("--file", a.program_files, file_help);
  lesson_opt->excludes(file_opt);
  c->add_option("-I,--include", a.include_dirs, include_help)
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  c->add_option("-D,--define", a.defines, define_help);
  c->add_option("--arg", a.program_args, "With --file: an argument for main() (repeatable)");
  c->add_flag("--source-accesses", a.source_accesses,
              "With --file: count every shared access as the source makes it, not as the "
              "compiled kernel serves it (where nvdisasm shows nvcc reading a thread's "
              "neighbouring floats with one LDS.128, that is one request)");
  c->add_option("--sass", a.sass_file,
                "With --file: the program's kernels as nvdisasm -g lists them (compiled as "
                "written with -lineinfo, on a machine with the CUDA toolkit), for the compiled "
                "widths where this machine's toolkit has no nvdisasm")
      ->check(CLI::ExistingFile);
}

CLI::App* AddRun(CLI::App& cli, Args& a) {
  auto* run = cli.add_subcommand(
      "run", "Run a lesson, or your own CUDA program (--file), and print its per-site figures");
  AddProgramOptions(run, a,
                    "A CUDA program (.cu) to run instead of a lesson; several files (or a "
                    "folder) are compiled together, the one with main() first",
                    "With --file: a folder the program's #includes are searched in, as nvcc's -I "
                    "(repeatable; CPATH and CPLUS_INCLUDE_PATH are read too)",
                    "With --file: NAME=VALUE, set in the program's own #define or constexpr, "
                    "else passed to the compiler (repeatable)");
  run->add_option("--timeout", a.timeout_s, "With --file: seconds the program may run (default 30)")
      ->check(CLI::Range(ws::kMinProgramTimeoutS, ws::kMaxProgramTimeoutS));
  AddRunOptions(run, a,
                "Device preset whose limits the emulator enforces (g80, gt200, fermi, turing, "
                "ampere, hopper)",
                true);
  run->add_option("--what-if", a.what_if,
                  "ARRAY:LAYOUT: the run's figures with an array re-addressed through a layout, "
                  "without running it so: pad=K, swizzle=B,M,S (CuTe), morton, tiled=WxH, "
                  "transpose or vector=BYTES; add ,shape=ROWSxCOLS to set its shape "
                  "(tile:swizzle=5,0,5)");
  run->add_flag("--json", a.json, "One JSON object");
  run->add_flag("--launches", a.every_launch,
                "With --file: after the kernels table, every launch's sites, barriers and "
                "hazards");
  run->add_flag("--sandbox", a.sandbox,
                "With --file: run the program in a sandbox (bubblewrap: read-only filesystem "
                "but a scratch folder, no network); refused where bwrap cannot run");
  run->add_flag("--progress", a.progress,
                "With --file on the emulator: show the launch under way and its blocks done "
                "out of the grid, on stderr");
  return run;
}

CLI::App* AddCapture(CLI::App& cli, Args& a) {
  auto* capture = cli.add_subcommand(
      "capture", "Run a lesson and write it as a trace file (.wstrace) for the app to open");
  AddProgramOptions(capture, a,
                    "A CUDA program (.cu) to capture instead (several files or a folder: "
                    "compiled together)",
                    "With --file: a folder its #includes are searched in (repeatable)",
                    "With --file: NAME=VALUE (repeatable)");
  AddRunOptions(capture, a, "Device preset for the emulator's limits");
  capture->add_option("-o,--output", a.out, "The trace file to write")->required();
  capture->add_flag("--json", a.json, "Also print the results as one JSON object");
  return capture;
}

CLI::App* AddExport(CLI::App& cli, Args& a) {
  auto* export_cmd = cli.add_subcommand(
      "export",
      "Write a run's barrier and blocks-on-SMs timelines as Chrome trace JSON (for Perfetto)");
  export_cmd
      ->add_option("--chrome-trace", a.chrome_out,
                   "The JSON file to write (Trace Event Format: ui.perfetto.dev, chrome://tracing)")
      ->required();
  auto* export_lesson = export_cmd->add_option("lesson", a.lesson, "Lesson id (see `lessons`)");
  auto* export_file =
      export_cmd->add_option("--trace", a.export_trace, "A .wstrace file to export instead");
  export_lesson->excludes(export_file);
  AddRunOptions(export_cmd, a, "Device preset for the emulator's limits");
  return export_cmd;
}

CLI::App* AddLayout(CLI::App& cli, Args& a) {
  auto* layout = cli.add_subcommand(
      "layout", "Print an image's memory order under a layout (the slides' table)");
  layout->add_option("--layout", a.layout_kind, "row-major, morton or tiled");
  layout->add_option("--width", a.lw, "Image width (default 24)");
  layout->add_option("--height", a.lh, "Image height (default 16)");
  layout->add_option("--tile-width", a.tw, "Tiled: tile width (default 8)");
  layout->add_option("--tile-height", a.th, "Tiled: tile height (default 8)");
  layout->add_option("--micro-width", a.mw, "Tiled: micro tile width inside a tile (default 1)");
  layout->add_option("--micro-height", a.mh, "Tiled: micro tile height (default 1)");
  layout->add_flag("--json", a.json, "One JSON object with every cell");
  return layout;
}

// `run` and `capture`: a program (--file) or a lesson.
int RunOrCapture(Args& a, const std::string& name, const std::string& capture_to) {
  if (!a.program_files.empty())
    return ProgramCommand(a.program_files, a.defines, a.include_dirs, a.program_args, a.backend,
                          a.options, a.timeout_s, a.json, capture_to, a.progress, a.what_if,
                          a.sandbox, a.every_launch, a.source_accesses, a.sass_file);
  if (a.lesson.empty()) {
    std::cerr << "warpscope-cli: " << name << " needs a lesson id or --file PROGRAM.cu\n";
    return 2;
  }
  // A capture's results go to stdout as for `run`; text only with --json absent.
  return RunCommand(a.lesson, a.variant, a.sets, a.backend, a.options, a.json, capture_to,
                    a.exercise, a.what_if);
}

}  // namespace

int main(int argc, char** argv) {
  ws::SetBuild(ws::ThisBuild());
  CLI::App cli{"warpscope-cli: run Warpscope's lessons without a display."};
  cli.set_version_flag("--version", ws::VersionLine("warpscope-cli"));
  cli.require_subcommand(1);
  Args a;
  auto* devices =
      cli.add_subcommand("devices", "List the backends: the CPU emulator and CUDA GPUs");
  devices->add_flag("--json", a.json, "One JSON object");
  auto* lessons = cli.add_subcommand("lessons", "List the lessons, their variants and parameters");
  lessons->add_flag("--json", a.json, "One JSON array");
  CLI::App* run = AddRun(cli, a);
  CLI::App* capture = AddCapture(cli, a);
  CLI::App* export_cmd = AddExport(cli, a);
  auto* serve = cli.add_subcommand(
      "serve", "For the app: run lessons sent as JSON lines on stdin, one process for many runs");
  serve->group("");
  auto* show = cli.add_subcommand("show", "Print a trace file's results as `run` prints them");
  show->add_option("file", a.trace_path, "A .wstrace file")->required();
  show->add_flag("--json", a.json, "One JSON object");
  show->add_flag("--launches", a.every_launch, "A program's every launch, as `run --launches`");
  CLI::App* layout = AddLayout(cli, a);
#if WARPSCOPE_HAVE_ASSIGNMENTS
  auto* check = cli.add_subcommand(
      "check", "Check submissions against an assignment's goals (exit 0 only when all are met)");
  check->add_option("assignment", a.check.assignment, "The assignment file (.toml)")->required();
  check
      ->add_option("submissions", a.check.submissions,
                   "Programs to check: .cu files, or folders of them (each file one submission)")
      ->required();
  check->add_option("--backend", a.check.backend, "emu (CPU emulator) or cuda (a GPU)");
  check->add_option("--timeout", a.check.timeout_s, "Seconds each submission may run (default 30)")
      ->check(CLI::Range(0.1, 3600.0));
  check->add_flag("--json", a.check.json, "One JSON object: every submission's goals and figures");
  check->add_option("--report", a.check.report_dir,
                    "A folder for each submission's report (NAME.html: the goals, their figures "
                    "and the views of the goal sites)");
#endif
  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return cli.exit(e);
    std::cerr << "warpscope-cli: " << e.what() << "\n";
    return 2;
  }
  if (!a.keep_blocks.empty()) a.options.keep_blocks = a.keep_blocks;
  if (auto s = ws::ParseSchedule(a.schedule); s.ok()) {
    a.options.schedule = *s;
  } else {
    std::cerr << "warpscope-cli: --schedule: " << s.status().message() << "\n";
    return 2;
  }
  if (*devices) return ws::cli::ListDevices(a.json);
  if (*lessons) {
    std::cout << (a.json ? ws::LessonsJson().dump(2) + "\n" : ws::LessonsText());
    return 0;
  }
  if (*serve) return ServeCommand();
  if (*layout)
    return ws::cli::LayoutCommand(a.layout_kind, a.lw, a.lh, a.tw, a.th, a.mw, a.mh, a.json);
  if (*run) return RunOrCapture(a, "run", "");
  if (*capture) return RunOrCapture(a, "capture", a.out);
  if (*export_cmd)
    return ExportCommand(a.lesson, a.export_trace, a.variant, a.sets, a.backend, a.options,
                         a.chrome_out);
  if (*show) return ws::cli::ShowCommand(a.trace_path, a.json, a.every_launch);
#if WARPSCOPE_HAVE_ASSIGNMENTS
  if (*check) return ws::cli::CheckCommand(a.check);
#endif
  return 2;
}
