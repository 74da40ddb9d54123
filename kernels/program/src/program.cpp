#include "warpscope/program/program.h"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <future>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>

#include "program_internal.h"
#include "warpscope/program/child_process.h"
#include "warpscope/trace/device_preset.h"
#include "warpscope/trace/file_io.h"
#include "warpscope/trace/lesson_run.h"
#include "warpscope/trace/status.h"
#include "warpscope/trace/trace_file.h"

namespace ws {
namespace prog_internal {

std::uint64_t Fnv64(const std::string& text) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
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

// The compiler's first error and the lines after it (at most `lines`), else its last lines.
std::string FirstError(const std::string& err, std::size_t lines) {
  const std::size_t at = err.find(": error: ");
  if (at == std::string::npos) return LastLines(err, lines);
  std::size_t begin = err.rfind('\n', at);
  begin = begin == std::string::npos ? 0 : begin + 1;
  std::size_t end = begin;
  for (std::size_t n = 0; n < lines && end != std::string::npos; ++n) end = err.find('\n', end + 1);
  return err.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
}

// "PID-N": temporary files of this process (the cache folder is shared by every Warpscope of the
// user, and tests run in parallel).
std::string UniqueSuffix() {
  static std::atomic<unsigned> n{0};
  return std::to_string(getpid()) + "-" + std::to_string(++n);
}

std::string ReadAll(const std::filesystem::path& path, bool* ok) {
  std::ifstream in(path, std::ios::binary);
  if (ok != nullptr) *ok = static_cast<bool>(in);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The include-path variables the children must not read themselves (their folders are passed as
// -I, toolkits left out): empty, as clang and g++ take an empty one.
const std::vector<std::string>& NoIncludeEnvironment() {
  static const std::vector<std::string> env = {"CPATH=", "CPLUS_INCLUDE_PATH=", "C_INCLUDE_PATH="};
  return env;
}

// A translation unit the host compiler gets under nvcc (a .cpp, .cc, .cxx or .c beside the .cu
// files): no CUDA headers forced in, no __CUDACC__.
bool IsHostUnit(const std::string& name) {
  const std::string e = std::filesystem::path(name).extension().string();
  return e == ".cpp" || e == ".cc" || e == ".cxx" || e == ".c" || e == ".C";
}

}  // namespace prog_internal
using namespace prog_internal;  // NOLINT: this file's own helpers, shared with
                                // program_as_written.cpp

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

std::vector<ProgramDiagnostic> DiagnosticsOf(const nlohmann::json& a) {
  std::vector<ProgramDiagnostic> out;
  for (const auto& d : a)
    out.push_back({d.at("line").get<std::uint32_t>(), d.at("column").get<std::uint32_t>(),
                   d.at("error").get<bool>(), d.at("message").get<std::string>(),
                   d.value("file", std::string())});
  return out;
}

// Runs warpscope-rewrite on one translation unit. Cached by its text, name, folder, include
// folders, defines and site base; a cached answer is used only while every header it read still
// holds the text it read then (a failed rewrite is not cached: its cause may be fixed anywhere).
RewriteResult RewriteInChild(const std::string& file_name, const std::filesystem::path& directory,
                             const std::string& text, const std::vector<std::string>& defines,
                             const std::vector<std::filesystem::path>& include_dirs,
                             std::uint32_t site_base, bool host_unit,
                             const std::filesystem::path& cache) {
  RewriteResult result;
  std::error_code ec;
  const auto tool_time = std::filesystem::last_write_time(WS_PROGRAM_REWRITER, ec);
  std::string key_text = text + "\n" + file_name + "\n" + directory.string() + "\n" + ShimText();
  for (const std::string& d : defines) key_text += "\n-D" + d;
  for (const auto& d : include_dirs) key_text += "\n-I" + d.string();
  key_text += "\nsite base " + std::to_string(site_base) + (host_unit ? " host" : "");
  key_text += "\n" + std::to_string(ec ? 0 : tool_time.time_since_epoch().count());
  char key[17];
  std::snprintf(key, sizeof key, "%016llx", static_cast<unsigned long long>(Fnv64(key_text)));
  const std::filesystem::path cached = cache / (std::string(key) + ".rewrite.json");
  std::string out;
  bool from_cache = false;
  if (std::ifstream in(cached, std::ios::binary); in) {
    std::stringstream s;
    s << in.rdbuf();
    out = s.str();
    from_cache = true;
  } else {
    // A name of this process's own: another one may be rewriting the same text right now.
    const std::filesystem::path input = cache / (std::string(key) + "." + UniqueSuffix() + ".cu");
    if (Status s = WriteFileAtomically(input, text); !s.ok()) {
      result.errors.push_back(
          {0, 0, true, "could not write the program for the rewriter: " + s.message()});
      return result;
    }
    std::vector<std::string> args = {WS_PROGRAM_REWRITER,
                                     "--name",
                                     file_name,
                                     "--dir",
                                     directory.string(),
                                     "--text",
                                     input.string(),
                                     "--shim",
                                     WS_PROGRAM_SHIM_DIR,
                                     "--site-base",
                                     std::to_string(site_base)};
    for (const auto& d : include_dirs) args.insert(args.end(), {"-I", d.string()});
    for (const std::string& d : defines) args.insert(args.end(), {"-D", d});
    if (host_unit) args.push_back("--host-unit");
    ChildLimits limits;
    limits.timeout = std::chrono::seconds(60);
    limits.memory_bytes = ProgramMemoryLimitApplies() ? 4ull << 30 : 0;
    limits.output_bytes = 64u << 20;
    std::vector<std::string> env = NoIncludeEnvironment();
#if defined(WS_PROGRAM_SANITIZED)
    // allow_user_poisoning=0: LLVM's allocator poisons its slabs where this build inlined it and
    // not where clang's library did, which reads as a use after poison in the precompiled shim.
    env.push_back("ASAN_OPTIONS=detect_leaks=0:allow_user_poisoning=0");
#endif
    const std::filesystem::path pch = host_unit ? std::filesystem::path() : RewriterPch(cache, env);
    std::vector<std::string> with_pch = args;
    if (!pch.empty()) with_pch.insert(with_pch.end(), {"--pch", pch.string()});
    ChildResult c = RunChild(with_pch, env, limits);
    // A precompiled shim clang will not read (its header touched, a damaged file): without it.
    if (!pch.empty() && c.started && !c.timed_out && c.signal == 0 &&
        (c.out.find("precompiled header") != std::string::npos ||
         c.out.find("AST file") != std::string::npos ||
         c.out.find("PCH file") != std::string::npos)) {
      std::filesystem::remove(pch, ec);
      c = RunChild(args, env, limits);
    }
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
      p.sites.push_back({s.at("site").get<std::uint32_t>(), s.value("file", file_name),
                         s.at("line").get<std::uint32_t>(), s.at("column").get<std::uint32_t>(),
                         s.value("end_column", std::uint32_t{0}),
                         static_cast<ProgramAccess>(s.at("access").get<int>()),
                         s.at("text").get<std::string>()});
    }
    for (const auto& l : j.at("launches"))
      p.launches.push_back({l.at("kernel").get<std::string>(), l.at("line").get<std::uint32_t>(),
                            l.value("file", file_name)});
    p.kernels = j.at("kernels").get<std::vector<std::string>>();
    for (const auto& k : j.value("kernel_files", nlohmann::json::array()))
      p.kernel_files.push_back({k.at("name").get<std::string>(), k.at("file").get<std::string>(),
                                k.at("line").get<std::uint32_t>()});
    for (const auto& f : j.value("files", nlohmann::json::array())) {
      ProgramFile file;
      file.name = f.at("name").get<std::string>();
      file.path = f.at("path").get<std::string>();
      file.text = f.at("text").get<std::string>();
      file.rewritten = f.at("rewritten").get<std::string>();
      p.files.push_back(std::move(file));
    }
    p.main_takes_args = j.value("main_takes_args", false);
    p.local_arrays = j.value("local_arrays", false);
    p.has_main = j.value("has_main", false);
    p.warnings = DiagnosticsOf(j.at("warnings"));
  } catch (const std::exception& e) {
    result = RewriteResult{};
    result.errors.push_back(
        {0, 0, true, std::string("the rewriter's answer is unreadable: ") + e.what()});
    return result;
  }
  if (from_cache) {
    // Every header as it was read then, or the program is read again.
    for (const ProgramFile& f : result.program.files) {
      bool ok = false;
      if (ReadAll(f.path, &ok) != f.text || !ok) {
        std::filesystem::remove(cached, ec);
        return RewriteInChild(file_name, directory, text, defines, include_dirs, site_base,
                              host_unit, cache);
      }
    }
  } else if (result.ok) {
    (void)WriteFileAtomically(cached, out);
  }
  return result;
}

// __CUDA_ARCH__ for a device preset: its compute capability (hopper: 900).
std::string CudaArch(const std::string& preset) {
  const auto p = FindDevicePreset(preset);
  return std::to_string((p.ok() ? p->compute_capability : DevicePreset{}.compute_capability) * 10);
}

// Does `dir` hold a CUDA toolkit's headers (which the emulator's stand-ins replace)?
bool IsToolkitInclude(const std::filesystem::path& dir) {
  std::error_code ec;
  return std::filesystem::exists(dir / "cuda_runtime_api.h", ec) &&
         std::filesystem::absolute(dir, ec).lexically_normal() !=
             std::filesystem::path(WS_PROGRAM_SHIM_DIR).lexically_normal();
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

std::vector<std::filesystem::path> ProgramIncludeDirs(const ProgramOptions& options,
                                                      std::vector<std::string>* skipped) {
  std::vector<std::filesystem::path> dirs;
  std::error_code ec;
  for (const auto& d : options.include_dirs)
    dirs.push_back(std::filesystem::absolute(d, ec).lexically_normal());
  for (const char* var : {"CPATH", "CPLUS_INCLUDE_PATH"}) {
    const char* value = std::getenv(var);
    if (value == nullptr) continue;
    std::stringstream list(value);
    for (std::string d; std::getline(list, d, ':');) {
      if (d.empty()) continue;  // an empty element would mean the current folder: left out
      const auto abs = std::filesystem::absolute(d, ec).lexically_normal();
      if (IsToolkitInclude(abs)) {
        if (skipped != nullptr)
          skipped->push_back(std::string(var) + " names " + d +
                             ", a CUDA toolkit's headers: left out (the emulator has its own)");
        continue;
      }
      if (std::find(dirs.begin(), dirs.end(), abs) == dirs.end()) dirs.push_back(abs);
    }
  }
  return dirs;
}

namespace {

// Where the compiler reads a unit's files from: each program file at its absolute path under
// `root`, so that "kernel.cuh" beside it and "../common/book.h" above it are found as they are
// beside the originals.
std::filesystem::path Staged(const std::filesystem::path& root, const std::filesystem::path& abs) {
  return root / abs.relative_path();
}

ProgramRun CompileFailure(ProgramRun run, std::string failure) {
  run.stage = ProgramStage::kCompile;
  run.failure = std::move(failure);
  run.errors.push_back({0, 0, true, run.failure});
  return run;
}

}  // namespace

ProgramRun RunProgramText(const std::string& file_name, const std::filesystem::path& directory,
                          const std::string& text, const ProgramOptions& options) {
  ProgramRun run;
  run.file = file_name;
  run.source = text;
  run.backend = options.backend;
  if (run.backend == "cuda") run.device = "GPU";
  const bool gpu = options.backend == "cuda";
  std::error_code ec;
  const std::filesystem::path main_dir =
      std::filesystem::absolute(directory, ec).lexically_normal();

  // The translation units: this one, then options.extra_files.
  std::vector<Unit> units;
  std::vector<std::string> defines;
  run.source = ApplyDefines(text, options.defines, &defines);
  units.push_back({file_name, main_dir, run.source, {}});
  for (const auto& extra : options.extra_files) {
    bool ok = false;
    const auto abs = std::filesystem::absolute(extra, ec).lexically_normal();
    std::string t = ReadAll(abs, &ok);
    if (!ok) {
      run.stage = ProgramStage::kRead;
      run.failure = "cannot read " + extra.string() + ": no such file or no access";
      return run;
    }
    if (t.size() > kMaxProgramBytes) {
      run.stage = ProgramStage::kRead;
      run.failure = extra.string() + " is " + std::to_string(t.size()) +
                    " bytes, over the limit of " + std::to_string(kMaxProgramBytes) +
                    " bytes for a program file";
      return run;
    }
    std::vector<std::string> unused;
    std::string rel = abs.lexically_relative(main_dir).string();
    units.push_back({rel.empty() ? abs.string() : rel,
                     abs.parent_path(),
                     ApplyDefines(t, options.defines, &unused),
                     {}});
  }
  std::vector<std::string> skipped;
  const std::vector<std::filesystem::path> include_dirs = ProgramIncludeDirs(options, &skipped);

  // 1. Rewrite each unit, in a child (warpscope-rewrite); site numbers run on across units.
  auto t0 = Clock::now();
  const std::filesystem::path cache = CacheDir(options);
  std::filesystem::create_directories(cache, ec);
  std::uint32_t site_base = 0;
  std::map<std::string, std::string> file_texts;  // every program file, by name
  // -D NAME=V for a #define or constant in one of the program's headers is set there (as in the
  // main file), not passed to the compiler: found after a first rewrite, which is then done again
  // without it.
  std::vector<std::string> header_defines;
  for (int pass = 0; pass < 2; ++pass) {
    site_base = 0;
    file_texts.clear();
    run.rewritten = RewrittenProgram{};
    for (const std::string& s : skipped) run.rewritten.warnings.push_back({0, 0, false, s});
    for (Unit& u : units) {
      // A unit's name as its own rewrite sees it (its folder may not be the main file's).
      const std::string own = std::filesystem::path(u.name).filename().string();
      // A CUDA unit's code sees __CUDA_ARCH__ as nvcc's device pass does (kernels guard their
      // bodies with `#if __CUDA_ARCH__ >= 700`): the preset's compute capability.
      std::vector<std::string> unit_defines = defines;
      if (!IsHostUnit(u.name)) unit_defines.push_back("__CUDA_ARCH__=" + CudaArch(options.preset));
      RewriteResult r = RewriteInChild(own, u.directory, u.text, unit_defines, include_dirs,
                                       site_base, IsHostUnit(u.name), cache);
      if (!r.ok) {
        run.timing.rewrite_ms = MsSince(t0);
        run.stage = ProgramStage::kCompile;
        run.errors = std::move(r.errors);
        if (run.errors.empty()) run.errors.push_back({0, 0, true, "the rewriter failed"});
        ProgramDiagnostic& d = run.errors.front();
        // Named as the main file's folder sees it.
        auto rename = [&](ProgramDiagnostic& e) {
          std::filesystem::path f =
              e.file.empty() ? std::filesystem::path(own) : std::filesystem::path(e.file);
          if (&u != &units.front() || !e.file.empty()) {
            const auto abs = (u.directory / f).lexically_normal();
            const auto rel = abs.lexically_relative(main_dir);
            e.file = rel.string() == file_name ? std::string() : rel.string();
          }
        };
        for (ProgramDiagnostic& e : run.errors) rename(e);
        run.failure = (d.file.empty() ? file_name : d.file) +
                      (d.line > 0 ? ":" + std::to_string(d.line) + ":" + std::to_string(d.column)
                                  : std::string()) +
                      ": error: " + d.message;
        return run;
      }
      u.rewritten = std::move(r.program);
      // Names relative to the main file's folder, as every view shows them.
      auto rel = [&](const std::string& name) {
        if (&u == &units.front()) return name;
        const auto abs = (u.directory / name).lexically_normal();
        const auto r2 = abs.lexically_relative(main_dir);
        return r2.empty() ? abs.string() : r2.string();
      };
      for (ProgramSite& s : u.rewritten.sites) s.file = rel(s.file);
      for (ProgramLaunchSite& l : u.rewritten.launches) l.file = rel(l.file);
      for (ProgramKernel& k : u.rewritten.kernel_files) k.file = rel(k.file);
      for (ProgramDiagnostic& w : u.rewritten.warnings)
        w.file = w.file.empty() && &u == &units.front() ? std::string()
                                                        : rel(w.file.empty() ? own : w.file);
      if (!u.rewritten.sites.empty()) site_base = u.rewritten.sites.back().site;
      if (&u != &units.front()) file_texts[u.name] = u.text;
      for (const ProgramFile& f : u.rewritten.files) {
        const auto r2 = f.path.lexically_relative(main_dir);
        file_texts.emplace(r2.empty() ? f.path.string() : r2.string(), f.text);
      }
      // The whole program's figures, in the first unit's record.
      RewrittenProgram& all = run.rewritten;
      all.sites.insert(all.sites.end(), u.rewritten.sites.begin(), u.rewritten.sites.end());
      all.launches.insert(all.launches.end(), u.rewritten.launches.begin(),
                          u.rewritten.launches.end());
      for (const std::string& k : u.rewritten.kernels) {
        if (std::find(all.kernels.begin(), all.kernels.end(), k) == all.kernels.end())
          all.kernels.push_back(k);
      }
      all.kernel_files.insert(all.kernel_files.end(), u.rewritten.kernel_files.begin(),
                              u.rewritten.kernel_files.end());
      all.warnings.insert(all.warnings.end(), u.rewritten.warnings.begin(),
                          u.rewritten.warnings.end());
      all.has_main = all.has_main || u.rewritten.has_main;
      all.main_takes_args = all.main_takes_args || u.rewritten.main_takes_args;
      all.local_arrays = all.local_arrays || u.rewritten.local_arrays;
    }
    std::vector<std::string> in_headers, rest;
    for (const std::string& d : defines) {
      bool found = false;
      for (const Unit& u : units) {
        for (const ProgramFile& f : u.rewritten.files) {
          std::vector<std::string> unused;
          found = found || ApplyDefines(f.text, {d}, &unused) != f.text;
        }
      }
      (found ? in_headers : rest).push_back(d);
    }
    if (in_headers.empty()) break;
    header_defines = in_headers;
    defines = rest;
  }
  // The headers as compiled and as shown: with those defines set.
  for (Unit& u : units) {
    for (ProgramFile& f : u.rewritten.files) {
      std::vector<std::string> unused;
      f.rewritten = ApplyDefines(f.rewritten, header_defines, &unused);
      f.text = ApplyDefines(f.text, header_defines, &unused);
      const auto r2 = f.path.lexically_relative(main_dir);
      file_texts[r2.empty() ? f.path.string() : r2.string()] = f.text;
    }
  }
  run.rewritten.source = units.front().rewritten.source;
  run.timing.rewrite_ms = MsSince(t0);
  for (auto& [name, t] : file_texts) run.files.emplace_back(name, t);
  if (!run.rewritten.has_main) {
    return CompileFailure(std::move(run),
                          file_name +
                              ": the program has no main(): Warpscope runs whole programs (a "
                              "main() that allocates, copies and launches the kernels, as on a "
                              "GPU)");
  }

  // 2. Compile (cached by every file the compiler reads and the command): with the host
  // compiler for the emulator, with nvcc for a GPU. Each unit reads its rewritten files from a
  // folder of its own (a header two units include may be numbered differently in each).
  std::vector<std::string> cmd;
  std::vector<std::string> link;
  std::string runtime_name;
  if (gpu) {
#if defined(WS_PROGRAM_NVCC)
    // The shim by its full path: its folder also holds the emulator's cuda_runtime.h.
    // The shim's gpu/ folder: its cooperative groups before the toolkit's. At most 64 registers
    // a thread: the recorder's code (and the dynamic instances) must not make a 1024-thread
    // block fail to launch (cudaErrorLaunchOutOfResources) where the program as written
    // launches; spills cost the recording run only (the timings come from the plain run).
    cmd = {WS_PROGRAM_NVCC,
           "-std=c++17",
           "-O2",
           "-lineinfo",
           "-arch=native",
           "-w",
           "-maxrregcount=64",
           "-cudart",
           "shared",
           "-I",
           WS_PROGRAM_API_DIR,
           "-I",
           std::string(WS_PROGRAM_SHIM_DIR) + "/gpu"};
    link = {"-L", WS_PROGRAM_RUNTIME_DIR, "-Xlinker=-rpath," WS_PROGRAM_RUNTIME_DIR,
            "-lws_program_cuda"};
    runtime_name = "libws_program_cuda.so";
#else
    return CompileFailure(
        std::move(run),
        "this Warpscope was built without CUDA (no nvcc was found when it was built): it runs "
        "programs on its emulator only (--backend emu)");
#endif
  } else if (options.backend == "emu") {
    cmd = {WS_PROGRAM_CXX};
    for (const std::string& f : SplitFlags(WS_PROGRAM_FLAGS)) cmd.push_back(f);
    cmd.insert(cmd.end(), {"-w", "-I", WS_PROGRAM_SHIM_DIR});
    link = {"-L", WS_PROGRAM_RUNTIME_DIR, "-Wl,-rpath," WS_PROGRAM_RUNTIME_DIR, "-lws_program_emu"};
    runtime_name = "libws_program_emu.so";
  } else {
    return CompileFailure(std::move(run), "unknown backend '" + options.backend + "': emu or cuda");
  }
  // The shim, precompiled for this command before the program's own -D options are added.
  const std::string shim_header =
      gpu ? std::string() : PrecompiledShim(cmd, CudaArch(options.preset), cache);
  for (const std::string& d : defines) cmd.push_back("-D" + d);
  std::string key_text = ShimText();
  for (const Unit& u : units) {
    key_text += "\n--unit " + u.name + "\n" + u.rewritten.source;
    for (const ProgramFile& f : u.rewritten.files)
      key_text += "\n--file " + f.path.string() + "\n" + f.rewritten;
  }
  for (const std::string& c : cmd) key_text += "\n" + c;
  for (const auto& d : include_dirs) key_text += "\n-I" + d.string();
  // What each unit's command adds (the CUDA units' __CUDA_ARCH__ follows the preset).
  key_text += "\n-D__CUDA_ARCH__=" + CudaArch(options.preset);
  const auto runtime_lib = std::filesystem::path(WS_PROGRAM_RUNTIME_DIR) / runtime_name;
  const auto runtime_time = std::filesystem::last_write_time(runtime_lib, ec);
  key_text += "\n" + std::to_string(ec ? 0 : runtime_time.time_since_epoch().count());
  char key[17];
  std::snprintf(key, sizeof key, "%016llx", static_cast<unsigned long long>(Fnv64(key_text)));
  const std::filesystem::path exe = cache / (std::string(key) + ".bin");
  // ptxas's report on the program as written (registers, stack frame; where nvcc is present),
  // made while the program compiles: the run learns from it which kernels keep their own arrays
  // in registers (KeepsArraysInRegisters). Cached; uncached it costs about as much as the
  // compile (0.24 s for examples/transpose.cu), which it no longer adds to an edit.
  const auto preset = FindDevicePreset(options.preset);
  const std::uint32_t cc = preset.ok() ? preset->compute_capability : 0;
  std::future<std::map<std::string, KernelResources, std::less<>>> compiled_later;
  if (gpu || cc >= 50) {
    compiled_later =
        std::async(std::launch::async, CompilerResources, units, include_dirs, defines,
                   gpu ? std::string("native") : "sm_" + std::to_string(cc), key_text, cache);
  }
  t0 = Clock::now();
  if (std::filesystem::exists(exe, ec)) {
    run.timing.compile_cached = true;
  } else {
    const std::filesystem::path stage =
        cache / ("stage-" + std::string(key) + "-" + UniqueSuffix());
    const std::filesystem::path tmp_exe = exe.string() + ".tmp" + std::to_string(getpid());
    auto clean = [&] {
      std::filesystem::remove_all(stage, ec);
      std::filesystem::remove(tmp_exe, ec);
    };
    // Each unit compiled on its own (its staged files first on the include path), then linked.
    std::vector<std::string> objects;
    for (std::size_t k = 0; k < units.size(); ++k) {
      const Unit& u = units[k];
      const std::filesystem::path root = stage / ("unit" + std::to_string(k));
      const std::filesystem::path main_abs = u.directory / std::filesystem::path(u.name).filename();
      const bool host = IsHostUnit(u.name);
      const std::filesystem::path src =
          Staged(root, main_abs).string() + (gpu && !host ? ".ws.cu" : ".ws.cpp");
      auto put = [&ec](const std::filesystem::path& path, const std::string& content) {
        std::filesystem::create_directories(path.parent_path(), ec);
        return WriteFileAtomically(path, content);
      };
      Status written = put(src, u.rewritten.source);
      for (const ProgramFile& f : u.rewritten.files) {
        if (written.ok()) written = put(Staged(root, f.path), f.rewritten);
      }
      if (!written.ok()) {
        clean();
        return CompileFailure(std::move(run),
                              "could not write the rewritten program: " + written.message());
      }
      std::vector<std::string> c = cmd;
      for (const auto& d : include_dirs) c.insert(c.end(), {"-I", Staged(root, d).string()});
      c.insert(c.end(), {"-I", Staged(root, u.directory).string()});
      for (const auto& d : include_dirs) c.insert(c.end(), {"-I", d.string()});
      c.insert(c.end(), {"-I", u.directory.string()});
      // A CUDA unit gets the CUDA headers (the shim) and __CUDACC__, as nvcc gives them; on a
      // GPU, the recorder's shim.
      // A host unit on a GPU: the real CUDA runtime, its allocations registered.
      if (gpu)
        c.insert(c.end(),
                 {"-include", std::string(WS_PROGRAM_SHIM_DIR) +
                                  (host ? "/ws_program_cuda_host.h" : "/ws_program_cuda.h")});
      if (!gpu && !host)
        c.insert(c.end(), {"-include", shim_header, "-DWS_CUDA_UNIT=1",
                           "-D__CUDA_ARCH__=" + CudaArch(options.preset)});
      if (!gpu) c.insert(c.end(), {"-x", "c++"});
      const std::string object = root.string() + "/unit.o";
      c.insert(c.end(), {"-c", src.string(), "-o", object});
      objects.push_back(object);
      ChildLimits cl;
      cl.timeout = std::chrono::seconds(120);
      ChildResult r = RunChild(c, NoIncludeEnvironment(), cl);
      if (!r.started || r.timed_out || r.signal != 0 || r.exit_code != 0) {
        clean();
#if defined(WS_PROGRAM_NVCC)
        // On a GPU: does nvcc build the program as written? If not, the program is not for this
        // CUDA (CUDA 13 changed cudaMemPrefetchAsync's arguments, for one), not Warpscope's limit.
        std::string plain_error;
        if (gpu && r.started && !r.timed_out &&
            BuildPlainOnGpu(units, include_dirs, defines, key_text, cache, &plain_error).empty() &&
            !plain_error.empty())
          return CompileFailure(std::move(run),
                                "nvcc refuses the program as written, without Warpscope (is it "
                                "written for another CUDA version?): " +
                                    plain_error);
#endif
        return CompileFailure(
            std::move(run),
            !r.started    ? "could not start the compiler " + c[0] + ": " + r.start_error
            : r.timed_out ? "the compiler took longer than 120 s"
                          : "the host compiler refused the rewritten program (a Warpscope limit; "
                            "please report it): " +
                                FirstError(r.err, 6));
      }
    }
    std::vector<std::string> l = {cmd[0]};
    if (gpu) l.insert(l.end(), {"-cudart", "shared", "-arch=native"});
    // The host compiler's flags link too (a sanitizer build's -fsanitize brings its runtime).
    if (!gpu) {
      for (const std::string& f : SplitFlags(WS_PROGRAM_FLAGS)) l.push_back(f);
    }
    l.insert(l.end(), objects.begin(), objects.end());
    l.insert(l.end(), {"-o", tmp_exe.string()});
    l.insert(l.end(), link.begin(), link.end());
    ChildLimits cl;
    cl.timeout = std::chrono::seconds(120);
    ChildResult r = RunChild(l, NoIncludeEnvironment(), cl);
    if (!r.started || r.timed_out || r.signal != 0 || r.exit_code != 0) {
      clean();
      const auto undefined = r.err.find("undefined reference to");
      const auto multiple = r.err.find("multiple definition of");
      // The program's own: a function declared and called but never defined, or defined twice.
      return CompileFailure(
          std::move(run),
          undefined != std::string::npos
              ? "link error: " + r.err.substr(undefined, r.err.find('\n', undefined) - undefined)
          : multiple != std::string::npos
              ? "link error: " + r.err.substr(multiple, r.err.find('\n', multiple) - multiple)
              : "the program could not be linked: " + LastLines(r.err, 6));
    }
    std::filesystem::rename(tmp_exe, exe, ec);
    std::filesystem::remove_all(stage, ec);
    PruneCache(cache);
    if (ec)
      return CompileFailure(std::move(run), "could not keep the compiled program: " + ec.message());
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
  // The report is needed before the run only where a kernel has arrays it may keep in
  // registers; otherwise it is taken after the run, which it overlaps.
  std::map<std::string, KernelResources, std::less<>> compiled;
  if (compiled_later.valid() && run.rewritten.local_arrays) {
    compiled = compiled_later.get();
    std::string local_bytes;
    for (const auto& [kernel, r] : compiled)
      local_bytes += kernel + " " + std::to_string(r.local_bytes) + "\n";
    if (!local_bytes.empty()) env.push_back("WS_PROGRAM_LOCAL_BYTES=" + local_bytes);
  }
  // How far the run has got (the emulator's runtime writes it), and the user's Cancel.
  // (A time limit's message says how far it got too.)
  ProgressMap progress(gpu ? std::string() : out.string() + ".progress");
  if (progress.cell() != nullptr) env.push_back("WS_PROGRAM_PROGRESS=" + progress.path());
  ProgramProgress last_progress;
  const auto keep_going = [&] {
    if (progress.cell() != nullptr) {
      const ProgramProgress now = progress.Read();
      if (!(now == last_progress) && options.on_progress) options.on_progress(now);
      last_progress = now;
    }
    return options.cancel == nullptr || !options.cancel->load();
  };
  ChildResult c = RunChild(args, env, limits, exe.string(), keep_going);
  keep_going();  // the last blocks
  run.timing.run_ms = MsSince(t0);
  // A failed assert() prints its expression as rewritten: as the program wrote it.
  run.stdout_text = UnrewriteText(std::move(c.out));
  run.stderr_text = UnrewriteText(std::move(c.err));
  run.exit_code = c.signal != 0 ? 128 + c.signal : c.exit_code;
  // The launches, each written as it finished (out.part0, out.part1, ...): those before a stop
  // are kept. Then the header, written at the end (absent after a time limit or a crash).
  bool events_modeled = false;
  for (std::size_t k = 0;; ++k) {
    const std::filesystem::path part = out.string() + ".part" + std::to_string(k);
    if (!std::filesystem::exists(part, ec)) break;
    auto trace = ReadTraceFile(part);
    std::filesystem::remove(part, ec);
    if (!trace.ok()) {
      run.stage = ProgramStage::kRun;
      run.failure = "could not read the program's launch " + std::to_string(k + 1) + ": " +
                    trace.status().message();
      return run;
    }
    for (LaunchTrace& t : trace->launches) run.launches.push_back(std::move(t));
    if (run.backend == "cuda" && trace->header.contains("preset"))
      run.device = trace->header["preset"].get<std::string>();
  }
  if (std::filesystem::exists(out, ec)) {
    auto trace = ReadTraceFile(out);
    std::filesystem::remove(out, ec);
    if (trace.ok()) {
      events_modeled = trace->header.value("events_modeled", false);
      // The GPU's runtime names its device in the header's "preset".
      if (run.backend == "cuda" && trace->header.contains("preset"))
        run.device = trace->header["preset"].get<std::string>();
    }
  }
  {
    // Each site's line from its own file.
    auto text_of = [&run](const std::string& file) -> const std::string& {
      for (const auto& [name, file_text] : run.files) {
        if (name == file) return file_text;
      }
      return run.source;
    };
    for (LaunchTrace& t : run.launches) {
      for (SiteInfo& site : t.sites) site.code = SourceLine(text_of(site.file), site.line);
      for (BarrierSite& b : t.barrier_sites) b.code = SourceLine(text_of(b.file), b.line);
      for (WarpOpSite& w : t.warp_op_sites) w.code = SourceLine(text_of(w.file), w.line);
    }
  }
  // Registers from ptxas where the run did not say (the occupancy view starts from them).
  if (compiled_later.valid()) compiled = compiled_later.get();
  for (LaunchTrace& t : run.launches) {
    if (t.resources.known()) continue;
    if (const KernelResources* r = FindKernelResources(compiled, t.kernel)) t.resources = *r;
  }
  if (events_modeled) {
    run.rewritten.warnings.push_back(
        {0, 0, false,
         "cudaEventElapsedTime gave the model's time on the emulator (each launch: its sectors x "
         "32 B at the " +
             options.preset +
             " preset's DRAM bandwidth, plus 2 us), not a "
             "measurement: times and bandwidths the program printed from it are the model's"});
  }
  run.ran = c.started;
  run.signal = c.signal;
  if (!c.started) {
    run.stage = ProgramStage::kRun;
    run.failure = "could not start the program: " + c.start_error;
  } else if (c.cancelled) {
    run.stage = ProgramStage::kRun;
    run.failure =
        "stopped at your request" +
        (last_progress.launch > 0 ? " in " + ProgressText(last_progress) : std::string()) +
        " (the launches that finished are kept)";
  } else if (c.timed_out) {
    run.stage = ProgramStage::kRun;
    run.failure = "the program ran longer than the limit of " +
                  std::to_string(options.timeout.count() / 1000.0).substr(0, 4) +
                  " s and was stopped (an endless loop, or a barrier some threads never leave?)";
    if (last_progress.launch > 0 && last_progress.blocks_done < last_progress.blocks)
      run.failure +=
          "; it was in " + ProgressText(last_progress) +
          ": if it is only large, a longer time limit (the CLI's --timeout) lets it finish";
  } else if (c.signal != 0) {
    run.stage = ProgramStage::kRun;
    const bool memory = c.signal == SIGSEGV || c.signal == SIGABRT || c.signal == SIGKILL;
    run.failure = "the program stopped on " + SignalName(c.signal, gpu);
    const std::string msg = ChildMessage(run.stderr_text);
    if (!msg.empty()) run.failure += ": " + msg;
    if (c.signal == SIGXCPU && last_progress.launch > 0 &&
        last_progress.blocks_done < last_progress.blocks)
      run.failure += "; it was in " + ProgressText(last_progress);
    if (memory && run.stderr_text.find("bad_alloc") != std::string::npos)
      run.failure += " (over the memory limit of " +
                     std::to_string(options.memory_limit_bytes >> 20) + " MiB?)";
  } else if (c.exit_code == 3 && run.stderr_text.find("warpscope: ") != std::string::npos) {
    run.stage = ProgramStage::kRun;
    run.failure = ChildMessage(run.stderr_text);
  }
#if defined(WS_PROGRAM_NVCC)
  if (gpu && run.failure.empty()) {
    PlainRun plain = RunPlainOnGpu(units, include_dirs, defines, key_text, cache, args, limits);
    if (plain.failure.empty() && !plain.child.timed_out) {
      run.stdout_text = std::move(plain.child.out);
      run.stderr_text = std::move(plain.child.err);
      const int plain_exit =
          plain.child.signal != 0 ? 128 + plain.child.signal : plain.child.exit_code;
      run.rewritten.warnings.push_back(
          {0, 0, false,
           "on a GPU the program's output (and every cudaEvent time it printed) is from a run of "
           "the program as written, without recording; the records are from a second, recorded "
           "run" +
               (plain_exit == run.exit_code
                    ? std::string()
                    : " (that run exited with status " + std::to_string(plain_exit) +
                          ", the recorded run with " + std::to_string(run.exit_code) + ")")});
    } else {
      run.rewritten.warnings.push_back(
          {0, 0, false,
           "the output shown is the recorded run's, whose cudaEvent times include the recording: "
           "the run without recording did not finish (" +
               (plain.failure.empty() ? std::string("it ran past the time limit") : plain.failure) +
               ")"});
    }
  }
#endif
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
