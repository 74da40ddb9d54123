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

namespace prog_internal {

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

}  // namespace prog_internal

namespace {

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
  // (::ws::prog::CountFlops(2u), (E)) -> E (collector_flops.cpp).
  const std::string flops = "(::ws::prog::CountFlops(";
  for (std::size_t at = text.find(flops); at != std::string::npos; at = text.find(flops, at)) {
    std::size_t k = at + flops.size();
    while (k < text.size() && std::isdigit(static_cast<unsigned char>(text[k]))) ++k;
    if (text.compare(k, 5, "u), (") != 0) {
      at = k;
      continue;
    }
    k += 5;
    const std::size_t close = CloseOf(text, k);
    if (close == std::string::npos || close + 1 >= text.size() || text[close + 1] != ')') {
      at = k;
      continue;
    }
    const std::string inner = text.substr(k, close - k);
    text.replace(at, close + 2 - at, inner);
  }
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
  // The SIMT path's (collector_simt.cpp): (ws_W.flops += 2u, (E)) -> E;
  // (*::ws::simt::Ld<65539u>(ws_W, ws_l, 0u, ws_b0, &(E))) -> E;
  // ::ws::simt::At<65539u>(ws_W, ws_l, 0u, ws_b0, (E)) -> E; a statement's bounds
  // ("[[maybe_unused]] ::ws::simt::Bounds ws_b0 = ::ws::simt::BoundsOf<65539u>(ws_W, 0u); ")
  // left out.
  const std::string bounds = "::ws::simt::Bounds ws_b", unused = "[[maybe_unused]] ";
  for (std::size_t at = text.find(bounds); at != std::string::npos; at = text.find(bounds, at)) {
    const std::size_t end = text.find("u); ", at);
    if (end == std::string::npos || end - at > 90 ||
        text.find("= ::ws::simt::BoundsOf<", at) > end) {
      at += bounds.size();
      continue;
    }
    if (at >= unused.size() && text.compare(at - unused.size(), unused.size(), unused) == 0)
      at -= unused.size();
    text.erase(at, end + 4 - at);
  }
  const std::string wflops = "(ws_W.flops += ";
  for (std::size_t at = text.find(wflops); at != std::string::npos; at = text.find(wflops, at)) {
    std::size_t k = at + wflops.size();
    while (k < text.size() && std::isdigit(static_cast<unsigned char>(text[k]))) ++k;
    const std::size_t close =
        text.compare(k, 4, "u, (") == 0 ? CloseOf(text, k + 4) : std::string::npos;
    if (close == std::string::npos || close + 1 >= text.size() || text[close + 1] != ')') {
      at = k;
      continue;
    }
    const std::string inner = text.substr(k + 4, close - k - 4);
    text.replace(at, close + 2 - at, inner);
  }
  for (const bool deref : {true, false}) {
    const std::string head = deref ? "(*::ws::simt::" : "::ws::simt::";
    for (std::size_t at = text.find(head); at != std::string::npos; at = text.find(head, at)) {
      std::size_t k = text.find(">(ws_W, ws_l, ", at);
      const std::size_t name_end = text.find('<', at);
      if (k == std::string::npos || name_end == std::string::npos || name_end > k || k - at > 80) {
        at += head.size();
        continue;
      }
      k += 14;
      while (k < text.size() && std::isdigit(static_cast<unsigned char>(text[k]))) ++k;
      if (text.compare(k, 3, "u, ") == 0 && text.compare(k + 3, 4, "ws_b") == 0) {  // its bounds
        std::size_t b = k + 7;
        while (b < text.size() && std::isdigit(static_cast<unsigned char>(text[b]))) ++b;
        if (b > k + 7 && text.compare(b, 2, ", ") == 0) text.erase(k + 3, b + 2 - (k + 3));
      }
      const std::string open = deref ? "u, &(" : "u, (";
      if (text.compare(k, open.size(), open) != 0) {
        at += head.size();
        continue;
      }
      const std::size_t e = k + open.size();
      const std::size_t close = CloseOf(text, e);
      const std::string tail = deref ? ")))" : "))";
      if (close == std::string::npos || text.compare(close, tail.size(), tail) != 0) {
        at += head.size();
        continue;
      }
      const std::string inner = text.substr(e, close - e);
      text.replace(at, close + tail.size() - at, inner);
      at += inner.size();
    }
  }
  return text;
}

namespace prog_internal {

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

namespace {

std::vector<ProgramDiagnostic> DiagnosticsOf(const nlohmann::json& a) {
  std::vector<ProgramDiagnostic> out;
  for (const auto& d : a)
    out.push_back({d.at("line").get<std::uint32_t>(), d.at("column").get<std::uint32_t>(),
                   d.at("error").get<bool>(), d.at("message").get<std::string>(),
                   d.value("file", std::string())});
  return out;
}

}  // namespace

namespace {

// warpscope-rewrite's answer (JSON) for one unit: the rewritten program, or its errors.
RewriteResult ReadRewriterAnswer(const std::string& out, const std::string& file_name) {
  RewriteResult result;
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
    p.wmma_at = j.value("wmma_at", std::string());
    p.async_at = j.value("async_at", std::string());
    p.group_copy_at = j.value("group_copy_at", std::string());
    p.cublas_at = j.value("cublas_at", std::string());
    p.curand_at = j.value("curand_at", std::string());
    p.warnings = DiagnosticsOf(j.at("warnings"));
  } catch (const std::exception& e) {
    result = RewriteResult{};
    result.errors.push_back(
        {0, 0, true, std::string("the rewriter's answer is unreadable: ") + e.what()});
  }
  return result;
}

// Runs warpscope-rewrite on `input` (the unit's text, written to the cache): its answer in
// `out`, or false with the reason in `error`.
bool RunRewriter(const std::string& file_name, const std::filesystem::path& directory,
                 const std::filesystem::path& input, const std::vector<std::string>& defines,
                 const std::vector<std::filesystem::path>& include_dirs, std::uint32_t site_base,
                 bool host_unit, const std::filesystem::path& cache, std::string* out,
                 std::string* error) {
  std::error_code ec;
  std::vector<std::string> args = {
      Paths().rewriter, "--name", file_name,    "--dir",       directory.string(),       "--text",
      input.string(),   "--shim", Paths().shim, "--site-base", std::to_string(site_base)};
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
  if (!c.started || c.timed_out || c.signal != 0 || c.exit_code != 0) {
    *error = !c.started      ? "could not start " + args[0] + ": " + c.start_error
             : c.timed_out   ? "clang took longer than 60 s to read the program"
             : c.signal != 0 ? "clang stopped on " + SignalName(c.signal, true) +
                                   " reading the program: " + LastLines(c.err, 3)
                             : "the rewriter failed: " + LastLines(c.err, 3);
    return false;
  }
  *out = std::move(c.out);
  return true;
}

}  // namespace

// Runs warpscope-rewrite on one translation unit. Cached by its text, name, folder, include
// folders, defines and site base; a cached answer is used only while every header it read still
// holds the text it read then (a failed rewrite is not cached: its cause may be fixed anywhere).
RewriteResult RewriteInChild(const std::string& file_name, const std::filesystem::path& directory,
                             const std::string& text, const std::vector<std::string>& defines,
                             const std::vector<std::filesystem::path>& include_dirs,
                             std::uint32_t site_base, bool host_unit,
                             const std::filesystem::path& cache) {
  std::error_code ec;
  const auto tool_time = std::filesystem::last_write_time(Paths().rewriter, ec);
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
    RewriteResult failed;
    // A name of this process's own: another one may be rewriting the same text right now.
    const std::filesystem::path input = cache / (std::string(key) + "." + UniqueSuffix() + ".cu");
    if (Status s = WriteFileAtomically(input, text); !s.ok()) {
      failed.errors.push_back(
          {0, 0, true, "could not write the program for the rewriter: " + s.message()});
      return failed;
    }
    std::string error;
    const bool ran = RunRewriter(file_name, directory, input, defines, include_dirs, site_base,
                                 host_unit, cache, &out, &error);
    std::filesystem::remove(input, ec);
    if (!ran) {
      failed.errors.push_back({0, 0, true, error});
      return failed;
    }
  }
  RewriteResult result = ReadRewriterAnswer(out, file_name);
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

}  // namespace prog_internal

namespace {

// Does `dir` hold a CUDA toolkit's headers (which the emulator's stand-ins replace)?
bool IsToolkitInclude(const std::filesystem::path& dir) {
  std::error_code ec;
  return std::filesystem::exists(dir / "cuda_runtime_api.h", ec) &&
         std::filesystem::absolute(dir, ec).lexically_normal() !=
             std::filesystem::path(Paths().shim).lexically_normal();
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

}  // namespace ws
