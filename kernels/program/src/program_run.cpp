// A program's run record (program.h's RunProgramText): its stages in order (program_job.h), and
// the last of them here: the compiled program run in a child, its launches read back.
//
// Index
//   [SECTION] 4. Run in a child, and read its launches back
//   [SECTION] RunProgramText, RunProgramFile
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <future>
#include <set>
#include <sstream>

#include "program_job.h"
#include "warpscope/program/program.h"
#include "warpscope/trace/compiled_code.h"
#include "warpscope/trace/device_preset.h"
#include "warpscope/trace/file_io.h"
#include "warpscope/trace/kernel_table.h"
#include "warpscope/trace/lesson_run.h"
#include "warpscope/trace/trace_file.h"
#include "warpscope/trace/units.h"

namespace ws {
namespace prog_internal {
namespace {

//-----------------------------------------------------------------------------
// [SECTION] 4. Run in a child, and read its launches back
//-----------------------------------------------------------------------------

// The launches, each written as it finished (out.part0, out.part1, ...): those before a stop are
// kept. Then the header, written at the end (absent after a time limit or a crash). Returns
// whether the emulator's cudaEvent times were the model's; false with the failure set when a
// launch cannot be read.
// How the emulator's model times a launch, for the note on a program's own event times.
std::string ModelNoteFor(const std::string& preset) {
  auto p = FindDevicePreset(preset);
  return ModelNote(p.ok() ? *p : DevicePreset{});
}

bool ReadLaunches(ProgramJob& job, const std::filesystem::path& out, bool* events_modeled) {
  std::error_code ec;
  LessonRun& run = job.run;
  for (std::size_t k = 0;; ++k) {
    const std::filesystem::path part = out.string() + ".part" + std::to_string(k);
    if (!std::filesystem::exists(part, ec)) break;
    auto trace = ReadTraceFile(part);
    std::filesystem::remove(part, ec);
    if (!trace.ok())
      return Fail(job, ProgramStage::kRun,
                  "could not read the program's launch " + std::to_string(k + 1) + ": " +
                      trace.status().message());
    for (LaunchTrace& t : trace->launches) run.launches.push_back(std::move(t));
    if (job.gpu && trace->header.contains("preset"))
      run.device = trace->header["preset"].get<std::string>();
  }
  if (std::filesystem::exists(out, ec)) {
    auto trace = ReadTraceFile(out);
    std::filesystem::remove(out, ec);
    if (trace.ok()) {
      *events_modeled = trace->header.value("events_modeled", false);
      // What the program asked of hardware the emulator does not model (an L2 access policy).
      if (trace->header.contains("without_effect") && trace->header["without_effect"].is_array()) {
        std::string asked;
        for (const auto& w : trace->header["without_effect"])
          if (w.is_string()) asked += (asked.empty() ? "" : ", ") + w.get<std::string>();
        if (!asked.empty())
          job.p().warnings.push_back(
              {0, 0, false,
               "the emulator models no L2 cache: " + asked +
                   ": taken, changing no figure (on a GPU it changes what stays in L2)"});
      }
      // A library's calls that ran on the emulator's processor (cuBLAS's): not kernels of the
      // program's, so no launch and no figure says them; this note does.
      if (trace->header.contains("library_calls") && trace->header["library_calls"].is_object()) {
        std::string calls;
        std::uint64_t total = 0;
        for (const auto& [name, n] : trace->header["library_calls"].items()) {
          if (!n.is_number_unsigned()) continue;
          total += n.get<std::uint64_t>();
          calls += (calls.empty() ? "" : ", ") + name + " x" +
                   FormatNumber(static_cast<double>(n.get<std::uint64_t>()));
        }
        if (total > 0)
          job.p().warnings.push_back(
              {0, 0, false,
               "cuBLAS ran " + FormatNumber(static_cast<double>(total)) +
                   (total == 1 ? " call" : " calls") +
                   " on the emulator's processor, not as kernels of the program's: no launch, "
                   "figure or hazard covers them (" +
                   calls +
                   "); in cudaEventElapsedTime each took the model's time of its "
                   "floating-point operations at the preset's peak or its bytes at its "
                   "bandwidth, the longer"});
      }
      // The GPU's runtime names its device in the header's "preset".
      if (job.gpu && trace->header.contains("preset"))
        run.device = trace->header["preset"].get<std::string>();
    }
  }
  // Each site's line from its own file.
  const ProgramRecord& p = job.p();
  auto text_of = [&p](const std::string& file) -> std::string_view {
    const std::string_view t = p.TextOf(file);
    return t.empty() ? std::string_view(p.source) : t;
  };
  for (LaunchTrace& t : run.launches) {
    for (SiteInfo& site : t.sites) site.code = SourceLine(text_of(site.file), site.line);
    for (BarrierSite& b : t.barrier_sites) b.code = SourceLine(text_of(b.file), b.line);
    for (WarpOpSite& w : t.warp_op_sites) w.code = SourceLine(text_of(w.file), w.line);
  }
  return true;
}

// The child's limits and environment (where it writes its launches, what it keeps).
ChildLimits Limits(const ProgramJob& job) {
  ChildLimits limits;
  limits.timeout = job.options.timeout;
#if defined(WS_PROGRAM_SANITIZED)
  limits.memory_bytes = 0;  // AddressSanitizer's shadow memory does not fit under any limit
#else
  // The CUDA driver reserves far more address space than any limit of it would allow.
  limits.memory_bytes = job.gpu ? 0 : job.options.memory_limit_bytes;
#endif
  limits.output_bytes = job.options.output_limit_bytes;
  return limits;
}

std::vector<std::string> Environment(const ProgramJob& job, const std::filesystem::path& out) {
  std::string keep;
  for (std::uint32_t b : job.options.keep_blocks)
    keep += (keep.empty() ? "" : ",") + std::to_string(b);
  std::vector<std::string> env = {
      "WS_PROGRAM_OUT=" + out.string(),
      "WS_PRESET=" + job.options.preset,
      "WS_KEEP_BLOCKS=" + keep,
      "WS_KEEP_ALL_UP_TO=" + std::to_string(job.options.keep_all_threads_up_to),
      "WS_RECORD_BUDGET=" + std::to_string(job.options.record_budget_bytes),
      "WS_SCHEDULE=" + job.options.schedule,
      "WS_PROGRAM_ENGINE=" + job.options.engine,
      "WS_WORKERS=" + std::to_string(job.options.workers)};
#if defined(WS_PROGRAM_SANITIZED)
  // The program is built with the sanitizers (its runtime is): let a crash be a crash, as in a
  // normal build, and do not report the program's own leaks.
  env.push_back(
      "ASAN_OPTIONS=detect_leaks=0:handle_segv=0:handle_sigbus=0:handle_sigfpe=0:"
      "handle_abort=0");
#endif
  return env;
}

}  // namespace

// bwrap's path on this machine's PATH ("" : none).
std::string SandboxPath() {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path != nullptr ? path : "/usr/bin:/bin");
  for (std::string d; std::getline(dirs, d, ':');) {
    const std::filesystem::path p = std::filesystem::path(d.empty() ? "." : d) / "bwrap";
    if (access(p.c_str(), X_OK) == 0) return p.string();
  }
  return "";
}

ChildResult RunMaybeSandboxed(const std::vector<std::string>& args,
                              const std::vector<std::string>& env, const ChildLimits& limits,
                              const std::string& exe, const std::filesystem::path& scratch,
                              bool gpu, const std::function<bool()>& keep_going) {
  return scratch.empty()
             ? RunChild(args, env, limits, exe, keep_going)
             : RunChild(Sandboxed(args, exe, scratch, gpu), env, limits, SandboxPath(), keep_going);
}

// The sandbox's scratch folder (made by Execute), removed when the run is over.
struct Scratch {
  std::filesystem::path dir;
  ~Scratch() {
    std::error_code ec;
    if (!dir.empty()) std::filesystem::remove_all(dir, ec);
  }
};

// `args` run through bubblewrap: the whole filesystem read-only (/tmp too: a fresh one would hide
// a build or a program's libraries kept there), `scratch` the only folder it may write (its
// working directory, and TMPDIR), no network, its own PID/IPC/UTS namespaces, killed when the
// parent dies. A GPU needs its device files: /dev is then bound as it is.
std::vector<std::string> Sandboxed(const std::vector<std::string>& args, const std::string& exe,
                                   const std::filesystem::path& scratch, bool gpu) {
  std::vector<std::string> b = {"bwrap", "--ro-bind", "/", "/"};
  if (gpu) {
    b.insert(b.end(), {"--dev-bind", "/dev", "/dev"});
  } else {
    b.insert(b.end(), {"--dev", "/dev"});
  }
  b.insert(b.end(), {"--proc", "/proc", "--bind", scratch.string(), scratch.string(), "--chdir",
                     scratch.string(), "--setenv", "TMPDIR", scratch.string(), "--unshare-all",
                     "--die-with-parent", "--new-session", "--", exe});
  b.insert(b.end(), args.begin() + 1, args.end());
  return b;
}

// The sandbox's scratch folder, where bwrap can run; false (the run failed, saying why) otherwise.
bool MakeScratch(ProgramJob& job, Scratch* scratch) {
  if (const std::string why = SandboxUnavailable(); !why.empty()) {
    Fail(job, ProgramStage::kRun, why + "; the program was not run (never unsandboxed)");
    return false;
  }
  std::error_code ec;
  std::string dir =
      (std::filesystem::temp_directory_path(ec) / "warpscope-sandbox-XXXXXX").string();
  if (mkdtemp(dir.data()) == nullptr) {
    Fail(job, ProgramStage::kRun,
         "could not make the sandbox's scratch folder in " +
             std::filesystem::temp_directory_path(ec).string());
    return false;
  }
  scratch->dir = dir;
  return true;
}

void Execute(ProgramJob& job) {
  using Clock = std::chrono::steady_clock;
  std::error_code ec;
  ProgramRecord& p = job.p();
  static std::atomic<unsigned> counter{0};
  Scratch scratch;
  if (job.options.sandbox && !MakeScratch(job, &scratch)) return;
  // The record the program writes: in the scratch folder when sandboxed (the one it may write).
  const std::filesystem::path out =
      (scratch.dir.empty() ? std::filesystem::temp_directory_path(ec) : scratch.dir) /
      ("warpscope-program-" + std::to_string(getpid()) + "-" + std::to_string(++counter) +
       ".wstrace");
  std::vector<std::string> args = {std::filesystem::path(p.file).stem().string()};
  args.insert(args.end(), job.options.args.begin(), job.options.args.end());
  const ChildLimits limits = Limits(job);
  std::vector<std::string> env = Environment(job, out);
  // The report is needed before the run: which kernels ptxas keeps their arrays in registers
  // for, and the kernels' shared instructions by line (made beside the program's own compile,
  // which it overlaps; a listing given in the options instead).
  Resources compiled;
  std::string code_table;
  if (job.compiled_later.valid() &&
      ((job.options.compiled_code && job.options.compiled_listing.empty()) ||
       job.rewritten.local_arrays)) {
    CompiledReport report = job.compiled_later.get();
    compiled = std::move(report.resources);
    code_table = std::move(report.code_table);
  }
  if (!job.options.compiled_listing.empty())
    code_table = CompiledCode::FromDisassembly(job.options.compiled_listing).Table();
  if (!job.options.compiled_code) code_table.clear();
  if (job.rewritten.local_arrays) {
    std::string local_bytes;
    for (const auto& [kernel, r] : compiled)
      local_bytes += kernel + " " + std::to_string(r.local_bytes) + "\n";
    if (!local_bytes.empty()) env.push_back("WS_PROGRAM_LOCAL_BYTES=" + local_bytes);
  }
  // Only lines with an 8- or 16-byte shared instruction matter to sites of 4 bytes or less, and
  // they keep the table far below an environment string's 128 KB.
  if (!code_table.empty()) {
    Result<CompiledCode> code = CompiledCode::FromTable(code_table);
    if (code.ok()) {
      const std::string wide = code->Table(8);
      if (!wide.empty() && wide.size() < 100000) {
        env.push_back("WS_PROGRAM_COMPILED=" + wide);
      } else if (!wide.empty()) {
        p.warnings.push_back({0, 0, false,
                              "the compiled kernels' shared instructions were not used: their "
                              "table by line is " +
                                  std::to_string(wide.size()) +
                                  " bytes, over the limit of 100,000; every shared site is "
                                  "counted as the source accesses it"});
      }
    }
  }
  // How far the run has got (the emulator's runtime writes it), and the user's Cancel.
  // (A time limit's message says how far it got too.)
  ProgressMap progress(job.gpu ? std::string() : out.string() + ".progress");
  if (progress.cell() != nullptr) env.push_back("WS_PROGRAM_PROGRESS=" + progress.path());
  ProgramProgress last_progress;
  // The launch under way: when it was first seen, and its blocks done then (a time limit's pace).
  auto launch_seen = Clock::now();
  std::uint64_t done_when_seen = 0;
  const auto keep_going = [&] {
    if (progress.cell() != nullptr) {
      const ProgramProgress now = progress.Read();
      if (now.launch != last_progress.launch) {
        launch_seen = Clock::now();
        done_when_seen = now.blocks_done;
      }
      if (!(now == last_progress) && job.options.on_progress) job.options.on_progress(now);
      last_progress = now;
    }
    return job.options.cancel == nullptr || !job.options.cancel->load();
  };
  const auto t0 = Clock::now();
  ChildResult c =
      RunMaybeSandboxed(args, env, limits, job.exe.string(), scratch.dir, job.gpu, keep_going);
  keep_going();  // the last blocks
  p.timing.run_ms = MsSince(t0);
  // A failed assert() prints its expression as rewritten: as the program wrote it.
  p.stdout_text = UnrewriteText(std::move(c.out));
  p.stderr_text = UnrewriteText(std::move(c.err));
  p.stdout_cut_bytes = c.out_dropped;  // past ProgramOptions::output_limit_bytes
  p.stderr_cut_bytes = c.err_dropped;
  p.exit_code = c.signal != 0 ? 128 + c.signal : c.exit_code;
  bool events_modeled = false;
  if (!ReadLaunches(job, out, &events_modeled)) return;
  // Registers from ptxas where the run did not say (the occupancy view starts from them).
  if (job.compiled_later.valid()) compiled = std::move(job.compiled_later.get().resources);
  for (LaunchTrace& t : job.run.launches) {
    if (t.resources.known()) continue;
    if (const KernelResources* r = FindKernelResources(compiled, t.kernel)) t.resources = *r;
  }
  if (events_modeled) {
    p.warnings.push_back(
        {0, 0, false,
         "cudaEventElapsedTime gave the model's time on the emulator (" +
             ModelNoteFor(job.options.preset) +
             "), not a measurement: times and bandwidths the program printed from it are the "
             "model's"});
  }
  p.ran = c.started;
  p.signal = c.signal;
  LaunchPace pace;
  pace.seconds = MsSince(launch_seen) / 1000.0;
  pace.blocks =
      last_progress.blocks_done >= done_when_seen ? last_progress.blocks_done - done_when_seen : 0;
  DescribeEnding(job, c, last_progress, pace);
  if (job.gpu && p.failure.empty()) RunAsWrittenOnGpu(job, args, limits, scratch.dir);
}

// The record's parts every view reads: the program's check, timing note and chosen launch.
LessonRun Finish(ProgramJob& job) {
  LessonRun& r = job.run;
  ProgramRecord& p = job.p();
  p.takes_args = job.rewritten.main_takes_args;
  p.kernels = job.rewritten.kernels;
  p.kernel_files = job.rewritten.kernel_files;
  // The rewriter's notes first, then the run's own.
  p.warnings.insert(p.warnings.begin(), job.rewritten.warnings.begin(),
                    job.rewritten.warnings.end());
  // Sites counted as the compiled kernel's wider instructions (SiteInfo::compiled_width): said
  // once for the run, each site's line saying how (run_report.cpp).
  std::set<std::pair<std::string, std::uint32_t>> wide;
  for (const LaunchTrace& t : r.launches) {
    for (std::size_t i = 0; i < t.sites.size() && i < t.stats.sites.size(); ++i)
      if (CompiledRunsMet(t.sites[i], t.stats.sites[i]))
        wide.emplace(t.sites[i].file, t.sites[i].line);
  }
  if (!wide.empty())
    p.warnings.push_back(
        {0, 0, false,
         "shared accesses at " + std::to_string(wide.size()) +
             (wide.size() == 1 ? " line are" : " lines are") +
             " counted as the compiled kernel runs them: nvcc reads or writes a thread's "
             "neighbouring elements there with one wider instruction (LDS.64, LDS.128), as its "
             "SASS by line shows (nvdisasm), and Nsight Compute counts those instructions"});
  p.preset = job.options.preset;
  // The last launch, or where it kept no records (past its kernel's budget) the nearest launch
  // of its kernel that did: the views never open on a launch they cannot draw.
  p.launch = r.launches.empty() ? 0 : NearestLaunchWithRecords(r.launches, r.launches.size() - 1);
  r.check.ok = p.ok() && p.exit_code == 0;
  r.check.message =
      p.ok() ? "the program exited with status " + std::to_string(p.exit_code) : p.failure;
  // The run's time, for the timing plot: its kernels' times summed (the kernels table's rows).
  auto preset = FindDevicePreset(job.options.preset);
  const std::vector<KernelRow> rows = KernelTable(r, preset.ok() ? *preset : DevicePreset{});
  r.timing.kind = rows.empty() ? "none" : rows.front().time_kind;
  r.timing.ms = 0;
  for (const KernelRow& k : rows) r.timing.ms += k.total_ms();
  r.timing.note =
      rows.empty() ? "the program launched no kernel"
      : r.timing.kind == "measured"
          ? "its kernels' times summed, measured on the GPU (CUPTI, the program as written)"
          : "its kernels' times summed, " + ModelNoteFor(job.options.preset) +
                "; a model, not a measurement";
  return std::move(r);
}

}  // namespace prog_internal

using namespace prog_internal;  // NOLINT: the driver's own stages (program_job.h)

//-----------------------------------------------------------------------------
// [SECTION] RunProgramText, RunProgramFile
//-----------------------------------------------------------------------------

std::string SandboxUnavailable() {
  static const std::string why = [] {
    const std::string bwrap = prog_internal::SandboxPath();
    if (bwrap.empty())
      return std::string(
          "the sandbox needs bubblewrap (bwrap), which is not installed "
          "(Debian: apt-get install bubblewrap; scripts/setup.sh installs it)");
    ChildLimits limits;
    limits.timeout = std::chrono::seconds(10);
    const ChildResult c = RunChild(
        {"bwrap", "--ro-bind", "/", "/", "--unshare-all", "--die-with-parent", "--", "/bin/true"},
        {}, limits, bwrap);
    if (c.started && !c.timed_out && c.signal == 0 && c.exit_code == 0) return std::string();
    std::string msg = c.err.substr(0, c.err.find('\n'));
    if (msg.empty())
      msg = c.start_error.empty() ? "it exited with status " + std::to_string(c.exit_code)
                                  : c.start_error;
    return "the sandbox (bubblewrap) cannot make its namespaces here: " + msg +
           " (user namespaces may be off: sysctl kernel.unprivileged_userns_clone)";
  }();
  return why;
}

LessonRun RunProgramText(const std::string& file_name, const std::filesystem::path& directory,
                         const std::string& text, const ProgramOptions& options) {
  using Clock = std::chrono::steady_clock;
  ProgramJob job(options);
  ProgramRecord& p = job.p();
  p.file = file_name;
  p.source = text;
  std::error_code ec;
  job.main_dir = std::filesystem::absolute(directory, ec).lexically_normal();
  p.path = (directory / file_name).string();
  if (!ReadUnits(job, file_name, text)) return Finish(job);
  std::vector<std::string> skipped;
  job.include_dirs = ProgramIncludeDirs(options, &skipped);

  const auto t0 = Clock::now();
  job.cache = CacheDir(options);
  std::filesystem::create_directories(job.cache, ec);
  const bool rewritten = RewriteUnits(job, skipped);
  p.timing.rewrite_ms = MsSince(t0);
  if (!rewritten) return Finish(job);
  if (!job.rewritten.has_main) {
    CompileFailure(job, file_name +
                            ": the program has no main(): Warpscope runs whole programs (a "
                            "main() that allocates, copies and launches the kernels, as on a "
                            "GPU)");
    return Finish(job);
  }
  if (!Compile(job)) return Finish(job);
  Execute(job);
  return Finish(job);
}

LessonRun RunProgramFile(const std::filesystem::path& file, const ProgramOptions& options) {
  std::ifstream in(file, std::ios::binary);
  std::error_code ec;
  const auto size = std::filesystem::file_size(file, ec);
  if (!in || ec || size > kMaxProgramBytes) {
    ProgramJob job(options);
    job.p().file = file.filename().string();
    job.p().path = file.string();
    Fail(job, ProgramStage::kRead,
         !in || ec ? "cannot read " + file.string() + ": " +
                         (ec ? ec.message() : std::string("no such file or no access"))
                   : file.string() + " is " + std::to_string(size) + " bytes, over the limit of " +
                         std::to_string(kMaxProgramBytes) + " bytes for a program");
    return Finish(job);
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  std::filesystem::path dir = std::filesystem::absolute(file, ec).parent_path();
  LessonRun run = RunProgramText(file.filename().string(), dir, text, options);
  run.program->path = file.string();
  return run;
}

}  // namespace ws
