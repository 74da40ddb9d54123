#include "warpscope/program/program.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>

#include "warpscope/program/child_process.h"
#include "warpscope/trace/file_io.h"
#include "warpscope/trace/lesson_run.h"
#include "warpscope/trace/status.h"
#include "warpscope/trace/trace_file.h"

namespace ws {
namespace {

using Clock = std::chrono::steady_clock;

double MsSince(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

std::vector<std::string> SplitFlags(const std::string& joined) {
  std::vector<std::string> out;
  std::stringstream s(joined);
  for (std::string f; std::getline(s, f, '|');) {
    if (!f.empty()) out.push_back(f);
  }
  return out;
}

std::uint64_t Fnv64(const std::string& text) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::filesystem::path CacheDir(const ProgramOptions& o) {
  if (!o.cache_dir.empty()) return o.cache_dir;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x != nullptr && *x != '\0')
    return std::filesystem::path(x) / "warpscope" / "programs";
  if (const char* h = std::getenv("HOME"); h != nullptr && *h != '\0')
    return std::filesystem::path(h) / ".cache" / "warpscope" / "programs";
  return std::filesystem::temp_directory_path() / "warpscope-programs";
}

std::string LastLines(const std::string& text, std::size_t lines) {
  std::size_t end = text.size();
  while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == '\r')) --end;
  std::size_t begin = end;
  for (std::size_t n = 0; begin > 0 && n < lines; ++n) {
    begin = text.rfind('\n', begin - 1);
    if (begin == std::string::npos) {
      begin = 0;
      break;
    }
  }
  std::string s = text.substr(begin, end - begin);
  while (!s.empty() && s.front() == '\n') s.erase(0, 1);
  return s;
}

// The end of the balanced parentheses opened just before `at` (npos when they do not close).
std::size_t CloseOf(const std::string& text, std::size_t at) {
  int depth = 1;
  for (std::size_t i = at; i < text.size(); ++i) {
    if (text[i] == '(') ++depth;
    if (text[i] == ')' && --depth == 0) return i;
  }
  return std::string::npos;
}

}  // namespace

std::string UnrewriteText(std::string text) {
  // (*::ws::prog::Ld(&(E), 65539u)) and St, LdSt -> E; ::ws::prog::At((E), 65539u) -> E.
  for (const char* head : {"(*::ws::prog::Ld(&(", "(*::ws::prog::St(&(", "(*::ws::prog::LdSt(&(",
                           "::ws::prog::At((", "::ws::prog::Ld((", "::ws::prog::St(("}) {
    const bool atomic = head[0] == ':';
    for (std::size_t at = text.find(head); at != std::string::npos; at = text.find(head, at)) {
      const std::size_t e = at + std::strlen(head);
      const std::size_t close = CloseOf(text, e);
      if (close == std::string::npos) break;
      std::size_t k = close + 1;
      if (text.compare(k, 2, ", ") != 0) {
        at = e;
        continue;
      }
      k += 2;
      while (k < text.size() && std::isdigit(static_cast<unsigned char>(text[k]))) ++k;
      const char* tail = atomic ? "u)" : "u))";
      if (text.compare(k, std::strlen(tail), tail) != 0) {
        at = e;
        continue;
      }
      const std::string inner = text.substr(e, close - e);
      text.replace(at, k + std::strlen(tail) - at, inner);
      at += inner.size();
    }
  }
  return text;
}

namespace {

// The runtime's own message ("warpscope: ..." on stderr), else the last lines of stderr.
std::string ChildMessage(const std::string& err) {
  std::string found;
  std::stringstream s(err);
  for (std::string line; std::getline(s, line);) {
    if (line.rfind("warpscope: ", 0) == 0) found = line.substr(11);
  }
  return found.empty() ? LastLines(err, 3) : found;
}

std::string SignalName(int sig, bool gpu) {
  switch (sig) {
    case SIGSEGV:
      return gpu ? "a segmentation fault (SIGSEGV)"
                 : "a segmentation fault (SIGSEGV) (if in a kernel: a local array over the "
                   "emulator's 64 KB stack per GPU thread?)";
    case SIGABRT:
      return "an abort (SIGABRT: a failed assert?)";
    case SIGFPE:
      return "an arithmetic error (SIGFPE: an integer division by zero?)";
    case SIGBUS:
      return "a bus error (SIGBUS)";
    case SIGKILL:
      return "SIGKILL";
    case SIGXCPU:
      return "its CPU time limit (SIGXCPU)";
    default:
      return "signal " + std::to_string(sig);
  }
}

// "PID-N": temporary files of this process (the cache folder is shared by every Warpscope of the
// user, and tests run in parallel).
std::string UniqueSuffix() {
  static std::atomic<unsigned> n{0};
  return std::to_string(getpid()) + "-" + std::to_string(++n);
}

// The shim's text, both headers (read once): part of both cache keys, so that a Warpscope with a
// different shim never reuses a rewrite or a compiled program made with the old one.
const std::string& ShimText() {
  static const std::string text = [] {
    std::string all;
    for (const char* name :
         {"ws_program.h", "ws_program_device.h", "ws_program_cuda.h", "ws_program_cuda_api.h"}) {
      std::ifstream in(std::filesystem::path(WS_PROGRAM_SHIM_DIR) / name, std::ios::binary);
      std::stringstream s;
      s << in.rdbuf();
      all += s.str();
    }
    return all;
  }();
  return text;
}

std::vector<ProgramDiagnostic> DiagnosticsOf(const nlohmann::json& a) {
  std::vector<ProgramDiagnostic> out;
  for (const auto& d : a)
    out.push_back({d.at("line").get<std::uint32_t>(), d.at("column").get<std::uint32_t>(),
                   d.at("error").get<bool>(), d.at("message").get<std::string>()});
  return out;
}

// Runs warpscope-rewrite on `text` (cached: the same text, defines and rewriter give the same
// answer, kept as JSON in the cache folder).
RewriteResult RewriteInChild(const std::string& file_name, const std::filesystem::path& directory,
                             const std::string& text, const std::vector<std::string>& defines,
                             const std::filesystem::path& cache) {
  RewriteResult result;
  std::error_code ec;
  const auto tool_time = std::filesystem::last_write_time(WS_PROGRAM_REWRITER, ec);
  std::string key_text = text + "\n" + file_name + "\n" + directory.string() + "\n" + ShimText();
  for (const std::string& d : defines) key_text += "\n-D" + d;
  key_text += "\n" + std::to_string(ec ? 0 : tool_time.time_since_epoch().count());
  char key[17];
  std::snprintf(key, sizeof key, "%016llx", static_cast<unsigned long long>(Fnv64(key_text)));
  const std::filesystem::path cached = cache / (std::string(key) + ".rewrite.json");
  std::string out;
  if (std::ifstream in(cached, std::ios::binary); in) {
    std::stringstream s;
    s << in.rdbuf();
    out = s.str();
  } else {
    // A name of this process's own: another one may be rewriting the same text right now.
    const std::filesystem::path input = cache / (std::string(key) + "." + UniqueSuffix() + ".cu");
    if (Status s = WriteFileAtomically(input, text); !s.ok()) {
      result.errors.push_back(
          {0, 0, true, "could not write the program for the rewriter: " + s.message()});
      return result;
    }
    std::vector<std::string> args = {WS_PROGRAM_REWRITER, "--name", file_name,      "--dir",
                                     directory.string(),  "--text", input.string(), "--shim",
                                     WS_PROGRAM_SHIM_DIR};
    for (const std::string& d : defines) args.insert(args.end(), {"-D", d});
    ChildLimits limits;
    limits.timeout = std::chrono::seconds(60);
    limits.memory_bytes = ProgramMemoryLimitApplies() ? 4ull << 30 : 0;
    limits.output_bytes = 64u << 20;
#if defined(WS_PROGRAM_SANITIZED)
    ChildResult c = RunChild(args, {"ASAN_OPTIONS=detect_leaks=0"}, limits);
#else
    ChildResult c = RunChild(args, {}, limits);
#endif
    std::filesystem::remove(input, ec);
    if (!c.started || c.timed_out || c.signal != 0 || c.exit_code != 0) {
      result.errors.push_back({0, 0, true,
                               !c.started      ? "could not start " + args[0] + ": " + c.start_error
                               : c.timed_out   ? "clang took longer than 60 s to read the program"
                               : c.signal != 0 ? "clang stopped on " + SignalName(c.signal, true) +
                                                     " reading the program: " + LastLines(c.err, 3)
                                               : "the rewriter failed: " + LastLines(c.err, 3)});
      return result;
    }
    out = std::move(c.out);
  }
  try {
    const nlohmann::json j = nlohmann::json::parse(out);
    result.ok = j.at("ok").get<bool>();
    result.errors = DiagnosticsOf(j.at("errors"));
    RewrittenProgram& p = result.program;
    p.source = j.at("source").get<std::string>();
    for (const auto& s : j.at("sites")) {
      p.sites.push_back(
          {s.at("site").get<std::uint32_t>(), s.at("line").get<std::uint32_t>(),
           s.at("column").get<std::uint32_t>(), s.value("end_column", std::uint32_t{0}),
           static_cast<ProgramAccess>(s.at("access").get<int>()), s.at("text").get<std::string>()});
    }
    for (const auto& l : j.at("launches"))
      p.launches.push_back({l.at("kernel").get<std::string>(), l.at("line").get<std::uint32_t>()});
    p.kernels = j.at("kernels").get<std::vector<std::string>>();
    p.main_takes_args = j.value("main_takes_args", false);
    p.has_main = j.value("has_main", false);
    p.warnings = DiagnosticsOf(j.at("warnings"));
  } catch (const std::exception& e) {
    result = RewriteResult{};
    result.errors.push_back(
        {0, 0, true, std::string("the rewriter's answer is unreadable: ") + e.what()});
    return result;
  }
  (void)WriteFileAtomically(cached, out);
  return result;
}

// Keeps the cache folder small: past kCacheFiles files, the oldest go (each save of a program
// being edited adds a compiled program and a rewrite).
void PruneCache(const std::filesystem::path& cache) {
  constexpr std::size_t kCacheFiles = 256, kKeep = 192;
  std::error_code ec;
  std::vector<std::pair<std::filesystem::file_time_type, std::filesystem::path>> files;
  for (const auto& e : std::filesystem::directory_iterator(cache, ec)) {
    if (e.is_regular_file(ec)) files.emplace_back(e.last_write_time(ec), e.path());
  }
  if (files.size() <= kCacheFiles) return;
  std::sort(files.begin(), files.end());
  for (std::size_t i = 0; i + kKeep < files.size(); ++i)
    std::filesystem::remove(files[i].second, ec);
}

}  // namespace

bool ProgramsSupported() {
  return true;
}

bool ProgramMemoryLimitApplies() {
#if defined(WS_PROGRAM_SANITIZED)
  return false;
#else
  return true;
#endif
}

ProgramRun RunProgramText(const std::string& file_name, const std::filesystem::path& directory,
                          const std::string& text, const ProgramOptions& options) {
  ProgramRun run;
  run.file = file_name;
  run.source = text;
  run.backend = options.backend;
  if (run.backend == "cuda") run.device = "GPU";

  // 1. Rewrite, in a child (warpscope-rewrite): the text with the defines applied.
  auto t0 = Clock::now();
  std::error_code ec;
  const std::filesystem::path cache = CacheDir(options);
  std::filesystem::create_directories(cache, ec);
  std::vector<std::string> defines;
  run.source = ApplyDefines(text, options.defines, &defines);
  RewriteResult rewritten = RewriteInChild(file_name, directory, run.source, defines, cache);
  run.timing.rewrite_ms = MsSince(t0);
  if (!rewritten.ok) {
    run.stage = ProgramStage::kCompile;
    run.errors = std::move(rewritten.errors);
    if (run.errors.empty()) run.errors.push_back({0, 0, true, "the rewriter failed"});
    const ProgramDiagnostic& d = run.errors.front();
    run.failure = file_name +
                  (d.line > 0 ? ":" + std::to_string(d.line) + ":" + std::to_string(d.column)
                              : std::string()) +
                  ": error: " + d.message;
    return run;
  }
  run.rewritten = std::move(rewritten.program);
  if (!run.rewritten.has_main) {
    run.stage = ProgramStage::kCompile;
    run.failure = file_name +
                  ": the program has no main(): Warpscope runs whole programs (a main() that "
                  "allocates, copies and launches the kernels, as on a GPU)";
    run.errors.push_back({0, 0, true, run.failure});
    return run;
  }

  // 2. Compile (cached by the rewritten text and the command): with the host compiler for the
  // emulator, with nvcc for a GPU.
  const bool gpu = options.backend == "cuda";
  std::vector<std::string> cmd;
  std::vector<std::string> link;
  std::string runtime_name;
  if (gpu) {
#if defined(WS_PROGRAM_NVCC)
    // The shim by its full path: its folder also holds the emulator's cuda_runtime.h.
    cmd = {WS_PROGRAM_NVCC,
           "-std=c++17",
           "-O2",
           "-lineinfo",
           "-arch=native",
           "-w",
           "-cudart",
           "shared",
           "-I",
           WS_PROGRAM_API_DIR,
           "-I",
           directory.string(),
           "-include",
           std::string(WS_PROGRAM_SHIM_DIR) + "/ws_program_cuda.h"};
    link = {"-L", WS_PROGRAM_RUNTIME_DIR, "-Xlinker=-rpath," WS_PROGRAM_RUNTIME_DIR,
            "-lws_program_cuda"};
    runtime_name = "libws_program_cuda.so";
#else
    run.stage = ProgramStage::kCompile;
    run.failure =
        "this Warpscope was built without CUDA (no nvcc was found when it was built): it runs "
        "programs on its emulator only (--backend emu)";
    run.errors.push_back({0, 0, true, run.failure});
    return run;
#endif
  } else if (options.backend == "emu") {
    cmd = {WS_PROGRAM_CXX};
    for (const std::string& f : SplitFlags(WS_PROGRAM_FLAGS)) cmd.push_back(f);
    cmd.insert(cmd.end(), {"-w", "-I", WS_PROGRAM_SHIM_DIR, "-I", directory.string(), "-include",
                           "ws_program.h"});
    link = {"-x",
            "none",
            "-L",
            WS_PROGRAM_RUNTIME_DIR,
            "-Wl,-rpath," WS_PROGRAM_RUNTIME_DIR,
            "-lws_program_emu"};
    runtime_name = "libws_program_emu.so";
  } else {
    run.stage = ProgramStage::kCompile;
    run.failure = "unknown backend '" + options.backend + "': emu or cuda";
    run.errors.push_back({0, 0, true, run.failure});
    return run;
  }
  for (const std::string& d : defines) cmd.push_back("-D" + d);
  if (!gpu) cmd.insert(cmd.end(), {"-x", "c++"});
  std::string key_text = run.rewritten.source + "\n" + ShimText();
  for (const std::string& c : cmd) key_text += "\n" + c;
  const auto runtime_lib = std::filesystem::path(WS_PROGRAM_RUNTIME_DIR) / runtime_name;
  const auto runtime_time = std::filesystem::last_write_time(runtime_lib, ec);
  key_text += "\n" + std::to_string(ec ? 0 : runtime_time.time_since_epoch().count());
  char key[17];
  std::snprintf(key, sizeof key, "%016llx", static_cast<unsigned long long>(Fnv64(key_text)));
  const std::filesystem::path exe = cache / (std::string(key) + ".bin");
  const std::filesystem::path cpp =
      cache / (std::string(key) + "." + UniqueSuffix() + (gpu ? ".cu" : ".cpp"));
  t0 = Clock::now();
  if (std::filesystem::exists(exe, ec)) {
    run.timing.compile_cached = true;
  } else {
    if (Status s = WriteFileAtomically(cpp, run.rewritten.source); !s.ok()) {
      run.stage = ProgramStage::kCompile;
      run.failure = "could not write the rewritten program: " + s.message();
      return run;
    }
    const std::filesystem::path tmp_exe = exe.string() + ".tmp" + std::to_string(getpid());
    cmd.insert(cmd.end(), {cpp.string(), "-o", tmp_exe.string()});
    cmd.insert(cmd.end(), link.begin(), link.end());
    ChildLimits cl;
    cl.timeout = std::chrono::seconds(120);
    ChildResult c = RunChild(cmd, {}, cl);
    if (!c.started || c.timed_out || c.signal != 0 || c.exit_code != 0) {
      run.stage = ProgramStage::kCompile;
      const auto undefined = c.err.find("undefined reference to");
      if (!c.started) {
        run.failure = "could not start the compiler " + cmd[0] + ": " + c.start_error;
      } else if (c.timed_out) {
        run.failure = "the compiler took longer than 120 s";
      } else if (undefined != std::string::npos) {
        // The program's own: a function declared and called but never defined.
        run.failure =
            "link error: " + c.err.substr(undefined, c.err.find('\n', undefined) - undefined);
      } else {
        run.failure =
            "the host compiler refused the rewritten program (a Warpscope limit; please report "
            "it): " +
            LastLines(c.err, 6);
      }
      run.errors.push_back({0, 0, true, run.failure});
      std::filesystem::remove(tmp_exe, ec);
      std::filesystem::remove(cpp, ec);
      return run;
    }
    std::filesystem::remove(cpp, ec);
    std::filesystem::rename(tmp_exe, exe, ec);
    PruneCache(cache);
    if (ec) {
      run.stage = ProgramStage::kCompile;
      run.failure = "could not keep the compiled program: " + ec.message();
      return run;
    }
  }
  run.timing.compile_ms = MsSince(t0);

  // 3. Run in a child.
  static std::atomic<unsigned> counter{0};
  const std::filesystem::path out =
      std::filesystem::temp_directory_path(ec) / ("warpscope-program-" + std::to_string(getpid()) +
                                                  "-" + std::to_string(++counter) + ".wstrace");
  std::vector<std::string> args = {std::filesystem::path(file_name).stem().string()};
  args.insert(args.end(), options.args.begin(), options.args.end());
  std::string keep;
  for (std::uint32_t b : options.keep_blocks) keep += (keep.empty() ? "" : ",") + std::to_string(b);
  ChildLimits limits;
  limits.timeout = options.timeout;
#if defined(WS_PROGRAM_SANITIZED)
  limits.memory_bytes = 0;  // AddressSanitizer's shadow memory does not fit under any limit
#else
  // The CUDA driver reserves far more address space than any limit of it would allow.
  limits.memory_bytes = gpu ? 0 : options.memory_limit_bytes;
#endif
  limits.output_bytes = options.output_limit_bytes;
  t0 = Clock::now();
  std::vector<std::string> env = {"WS_PROGRAM_OUT=" + out.string(), "WS_PRESET=" + options.preset,
                                  "WS_KEEP_BLOCKS=" + keep, "WS_SCHEDULE=" + options.schedule};
#if defined(WS_PROGRAM_SANITIZED)
  // The program is built with the sanitizers (its runtime is): let a crash be a crash, as in a
  // normal build, and do not report the program's own leaks.
  env.push_back(
      "ASAN_OPTIONS=detect_leaks=0:handle_segv=0:handle_sigbus=0:handle_sigfpe=0:"
      "handle_abort=0");
#endif
  ChildResult c = RunChild(args, env, limits, exe.string());
  run.timing.run_ms = MsSince(t0);
  // A failed assert() prints its expression as rewritten: as the program wrote it.
  run.stdout_text = UnrewriteText(std::move(c.out));
  run.stderr_text = UnrewriteText(std::move(c.err));
  run.exit_code = c.exit_code;
  if (std::filesystem::exists(out, ec)) {
    auto trace = ReadTraceFile(out);
    std::filesystem::remove(out, ec);
    if (trace.ok()) {
      run.launches = std::move(trace->launches);
      // The GPU's runtime names its device in the header's "preset".
      if (run.backend == "cuda" && trace->header.contains("preset"))
        run.device = trace->header["preset"].get<std::string>();
      for (LaunchTrace& t : run.launches) {
        for (SiteInfo& site : t.sites) site.code = SourceLine(run.source, site.line);
        for (BarrierSite& b : t.barrier_sites) b.code = SourceLine(run.source, b.line);
        for (WarpOpSite& w : t.warp_op_sites) w.code = SourceLine(run.source, w.line);
      }
    } else {
      run.stage = ProgramStage::kRun;
      run.failure = "could not read the program's launches: " + trace.status().message();
      return run;
    }
  }
  if (!c.started) {
    run.stage = ProgramStage::kRun;
    run.failure = "could not start the program: " + c.start_error;
  } else if (c.timed_out) {
    run.stage = ProgramStage::kRun;
    run.failure = "the program ran longer than the limit of " +
                  std::to_string(options.timeout.count() / 1000.0).substr(0, 4) +
                  " s and was stopped (an endless loop, or a barrier some threads never leave?)";
  } else if (c.signal != 0) {
    run.stage = ProgramStage::kRun;
    const bool memory = c.signal == SIGSEGV || c.signal == SIGABRT || c.signal == SIGKILL;
    run.failure = "the program stopped on " + SignalName(c.signal, gpu);
    const std::string msg = ChildMessage(run.stderr_text);
    if (!msg.empty()) run.failure += ": " + msg;
    if (memory && run.stderr_text.find("bad_alloc") != std::string::npos)
      run.failure += " (over the memory limit of " +
                     std::to_string(options.memory_limit_bytes >> 20) + " MiB?)";
  } else if (c.exit_code == 3 && run.stderr_text.find("warpscope: ") != std::string::npos) {
    run.stage = ProgramStage::kRun;
    run.failure = ChildMessage(run.stderr_text);
  }
  return run;
}

ProgramRun RunProgramFile(const std::filesystem::path& file, const ProgramOptions& options) {
  std::ifstream in(file, std::ios::binary);
  std::error_code ec;
  const auto size = std::filesystem::file_size(file, ec);
  if (!in || ec || size > kMaxProgramBytes) {
    ProgramRun run;
    run.file = file.filename().string();
    run.stage = ProgramStage::kRead;
    run.failure = !in || ec ? "cannot read " + file.string() + ": " +
                                  (ec ? ec.message() : std::string("no such file or no access"))
                            : file.string() + " is " + std::to_string(size) +
                                  " bytes, over the limit of " + std::to_string(kMaxProgramBytes) +
                                  " bytes for a program";
    return run;
  }
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  std::filesystem::path dir = std::filesystem::absolute(file, ec).parent_path();
  return RunProgramText(file.filename().string(), dir, text, options);
}

}  // namespace ws
