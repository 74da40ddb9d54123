// RunProgramText: a program from its text to its run record, in four stages that each leave what
// the next needs in a ProgramJob (docs/PROGRAMS.md):
//
// Index
//   [SECTION] The record and its failures
//   [SECTION] 1. Read the translation units
//   [SECTION] 2. Rewrite them (warpscope-rewrite, in a child)
//   [SECTION] 3. Compile and link (cached)
//   [SECTION] 4. Run in a child, and read its launches back
//   [SECTION] RunProgramText, RunProgramFile
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <future>
#include <sstream>

#include "program_internal.h"
#include "warpscope/program/program.h"
#include "warpscope/trace/device_preset.h"
#include "warpscope/trace/file_io.h"
#include "warpscope/trace/lesson_run.h"
#include "warpscope/trace/trace_file.h"

namespace ws {

using namespace prog_internal;  // NOLINT: the driver's own helpers (program_internal.h)

namespace {

//-----------------------------------------------------------------------------
// [SECTION] The record and its failures
//-----------------------------------------------------------------------------

using Resources = std::map<std::string, KernelResources, std::less<>>;

// What one run of a program carries from stage to stage.
struct ProgramJob {
  explicit ProgramJob(const ProgramOptions& o) : options(o), gpu(o.backend == "cuda") {}
  const ProgramOptions& options;
  const bool gpu;
  LessonRun run;  // the record it fills (run.program is set from the start)
  ProgramRecord& p() { return *run.program; }
  RewrittenProgram rewritten;  // the whole program's: every unit's sites, kernels and warnings
  std::filesystem::path main_dir, cache;
  std::vector<Unit> units;                  // the main file first, then options.extra_files
  std::vector<std::string> defines;         // -D for the compiler: those the program does not make
  std::vector<std::string> header_defines;  // those set in the program's own headers
  std::vector<std::filesystem::path> include_dirs;
  std::vector<std::string> cmd, link;  // the compile command (before the unit) and the link's
  std::string key_text;                // everything the compiled program depends on
  std::filesystem::path exe;
  std::future<Resources> compiled_later;  // ptxas's report, made while the program compiles
};

bool Fail(ProgramJob& job, ProgramStage stage, std::string failure) {
  job.p().stage = stage;
  job.p().failure = std::move(failure);
  return false;
}

// A compile failure the compiler's messages do not place: one error, at no line.
bool CompileFailure(ProgramJob& job, std::string failure) {
  job.p().errors.push_back({0, 0, true, failure});
  return Fail(job, ProgramStage::kCompile, std::move(failure));
}

// Where the compiler reads a unit's files from: each program file at its absolute path under
// `root`, so that "kernel.cuh" beside it and "../common/book.h" above it are found as they are
// beside the originals.
std::filesystem::path Staged(const std::filesystem::path& root, const std::filesystem::path& abs) {
  return root / abs.relative_path();
}

//-----------------------------------------------------------------------------
// [SECTION] 1. Read the translation units
//-----------------------------------------------------------------------------

// This one (its defines applied), then options.extra_files.
bool ReadUnits(ProgramJob& job, const std::string& file_name, const std::string& text) {
  std::error_code ec;
  job.p().source = ApplyDefines(text, job.options.defines, &job.defines);
  job.units.push_back({file_name, job.main_dir, job.p().source, {}});
  for (const auto& extra : job.options.extra_files) {
    bool ok = false;
    const auto abs = std::filesystem::absolute(extra, ec).lexically_normal();
    std::string t = ReadAll(abs, &ok);
    if (!ok)
      return Fail(job, ProgramStage::kRead,
                  "cannot read " + extra.string() + ": no such file or no access");
    if (t.size() > kMaxProgramBytes)
      return Fail(job, ProgramStage::kRead,
                  extra.string() + " is " + std::to_string(t.size()) +
                      " bytes, over the limit of " + std::to_string(kMaxProgramBytes) +
                      " bytes for a program file");
    std::vector<std::string> unused;
    std::string rel = abs.lexically_relative(job.main_dir).string();
    job.units.push_back({rel.empty() ? abs.string() : rel,
                         abs.parent_path(),
                         ApplyDefines(t, job.options.defines, &unused),
                         {}});
  }
  return true;
}

//-----------------------------------------------------------------------------
// [SECTION] 2. Rewrite them (warpscope-rewrite, in a child)
//-----------------------------------------------------------------------------

// The rewriter's errors for unit `u`, named as the main file's folder sees them.
bool RewriteFailure(ProgramJob& job, const Unit& u, const std::string& own,
                    std::vector<ProgramDiagnostic> errors) {
  ProgramRecord& p = job.p();
  p.errors = std::move(errors);
  if (p.errors.empty()) p.errors.push_back({0, 0, true, "the rewriter failed"});
  for (ProgramDiagnostic& e : p.errors) {
    std::filesystem::path f =
        e.file.empty() ? std::filesystem::path(own) : std::filesystem::path(e.file);
    if (&u != &job.units.front() || !e.file.empty()) {
      const auto abs = (u.directory / f).lexically_normal();
      const auto rel = abs.lexically_relative(job.main_dir);
      e.file = rel.string() == p.file ? std::string() : rel.string();
    }
  }
  const ProgramDiagnostic& d = p.errors.front();
  return Fail(job, ProgramStage::kCompile,
              (d.file.empty() ? p.file : d.file) +
                  (d.line > 0 ? ":" + std::to_string(d.line) + ":" + std::to_string(d.column)
                              : std::string()) +
                  ": error: " + d.message);
}

// Unit `u`'s rewrite joins the whole program's, its names relative to the main file's folder (as
// every view shows them); its files' texts go to `file_texts`.
void JoinUnit(ProgramJob& job, Unit& u, const std::string& own,
              std::map<std::string, std::string>& file_texts) {
  const bool first = &u == &job.units.front();
  auto rel = [&](const std::string& name) {
    if (first) return name;
    const auto abs = (u.directory / name).lexically_normal();
    const auto r2 = abs.lexically_relative(job.main_dir);
    return r2.empty() ? abs.string() : r2.string();
  };
  for (ProgramSite& s : u.rewritten.sites) s.file = rel(s.file);
  for (ProgramLaunchSite& l : u.rewritten.launches) l.file = rel(l.file);
  for (ProgramKernel& k : u.rewritten.kernel_files) k.file = rel(k.file);
  for (ProgramDiagnostic& w : u.rewritten.warnings)
    w.file = w.file.empty() && first ? std::string() : rel(w.file.empty() ? own : w.file);
  if (!first) file_texts[u.name] = u.text;
  for (const ProgramFile& f : u.rewritten.files) {
    const auto r2 = f.path.lexically_relative(job.main_dir);
    file_texts.emplace(r2.empty() ? f.path.string() : r2.string(), f.text);
  }
  RewrittenProgram& all = job.rewritten;
  const RewrittenProgram& one = u.rewritten;
  all.sites.insert(all.sites.end(), one.sites.begin(), one.sites.end());
  all.launches.insert(all.launches.end(), one.launches.begin(), one.launches.end());
  for (const std::string& k : one.kernels) {
    if (std::find(all.kernels.begin(), all.kernels.end(), k) == all.kernels.end())
      all.kernels.push_back(k);
  }
  all.kernel_files.insert(all.kernel_files.end(), one.kernel_files.begin(), one.kernel_files.end());
  all.warnings.insert(all.warnings.end(), one.warnings.begin(), one.warnings.end());
  all.has_main = all.has_main || one.has_main;
  all.main_takes_args = all.main_takes_args || one.main_takes_args;
  all.local_arrays = all.local_arrays || one.local_arrays;
}

// Of `defines`, those a #define or constant in one of the program's own headers makes.
std::vector<std::string> DefinesInHeaders(ProgramJob& job) {
  std::vector<std::string> in_headers, rest;
  for (const std::string& d : job.defines) {
    bool found = false;
    for (const Unit& u : job.units) {
      for (const ProgramFile& f : u.rewritten.files) {
        std::vector<std::string> unused;
        found = found || ApplyDefines(f.text, {d}, &unused) != f.text;
      }
    }
    (found ? in_headers : rest).push_back(d);
  }
  if (!in_headers.empty()) job.defines = rest;
  return in_headers;
}

// Each unit, in a child; site numbers run on across units. -D NAME=V for a #define or constant
// in one of the program's headers is set there (as in the main file), not passed to the
// compiler: found after a first rewrite, which is then done again without it.
bool RewriteUnits(ProgramJob& job, const std::vector<std::string>& skipped) {
  std::map<std::string, std::string> file_texts;  // every program file, by name
  for (int pass = 0; pass < 2; ++pass) {
    std::uint32_t site_base = 0;
    file_texts.clear();
    job.rewritten = RewrittenProgram{};
    for (const std::string& s : skipped) job.rewritten.warnings.push_back({0, 0, false, s});
    for (Unit& u : job.units) {
      // A unit's name as its own rewrite sees it (its folder may not be the main file's).
      const std::string own = std::filesystem::path(u.name).filename().string();
      // A CUDA unit's code sees __CUDA_ARCH__ as nvcc's device pass does (kernels guard their
      // bodies with `#if __CUDA_ARCH__ >= 700`): the preset's compute capability.
      std::vector<std::string> unit_defines = job.defines;
      if (!IsHostUnit(u.name))
        unit_defines.push_back("__CUDA_ARCH__=" + CudaArch(job.options.preset));
      RewriteResult r = RewriteInChild(own, u.directory, u.text, unit_defines, job.include_dirs,
                                       site_base, IsHostUnit(u.name), job.cache);
      if (!r.ok) return RewriteFailure(job, u, own, std::move(r.errors));
      u.rewritten = std::move(r.program);
      if (!u.rewritten.sites.empty()) site_base = u.rewritten.sites.back().site;
      JoinUnit(job, u, own, file_texts);
    }
    std::vector<std::string> in_headers = DefinesInHeaders(job);
    if (in_headers.empty()) break;
    job.header_defines = std::move(in_headers);
  }
  // The headers as compiled and as shown: with those defines set.
  for (Unit& u : job.units) {
    for (ProgramFile& f : u.rewritten.files) {
      std::vector<std::string> unused;
      f.rewritten = ApplyDefines(f.rewritten, job.header_defines, &unused);
      f.text = ApplyDefines(f.text, job.header_defines, &unused);
      const auto r2 = f.path.lexically_relative(job.main_dir);
      file_texts[r2.empty() ? f.path.string() : r2.string()] = f.text;
    }
  }
  job.rewritten.source = job.units.front().rewritten.source;
  for (auto& [name, t] : file_texts) job.p().files.emplace_back(name, t);
  return true;
}

//-----------------------------------------------------------------------------
// [SECTION] 3. Compile and link (cached)
//-----------------------------------------------------------------------------

// The compile and link commands: the host compiler for the emulator, nvcc for a GPU.
bool Commands(ProgramJob& job) {
  if (job.gpu) {
#if defined(WS_PROGRAM_NVCC)
    // The shim by its full path: its folder also holds the emulator's cuda_runtime.h.
    // The shim's gpu/ folder: its cooperative groups before the toolkit's. At most 64 registers
    // a thread: the recorder's code (and the dynamic instances) must not make a 1024-thread
    // block fail to launch (cudaErrorLaunchOutOfResources) where the program as written
    // launches; spills cost the recording run only (the timings come from the plain run).
    job.cmd = {WS_PROGRAM_NVCC,
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
               WS_PROGRAM_RECORD_DIR,
               "-I",
               std::string(WS_PROGRAM_SHIM_DIR) + "/gpu"};
    job.link = {"-L", WS_PROGRAM_RUNTIME_DIR, "-Xlinker=-rpath," WS_PROGRAM_RUNTIME_DIR,
                "-lws_program_cuda"};
    return true;
#else
    return CompileFailure(
        job,
        "this Warpscope was built without CUDA (no nvcc was found when it was built): it runs "
        "programs on its emulator only (--backend emu)");
#endif
  }
  if (job.options.backend != "emu")
    return CompileFailure(job, "unknown backend '" + job.options.backend + "': emu or cuda");
  job.cmd = {WS_PROGRAM_CXX};
  for (const std::string& f : SplitFlags(WS_PROGRAM_FLAGS)) job.cmd.push_back(f);
  job.cmd.insert(job.cmd.end(), {"-w", "-I", WS_PROGRAM_SHIM_DIR});
  job.link = {"-L", WS_PROGRAM_RUNTIME_DIR, "-Wl,-rpath," WS_PROGRAM_RUNTIME_DIR,
              "-lws_program_emu"};
  return true;
}

// The compiled program's name: a hash of every file the compiler reads, the command and the
// runtime library's time. Also starts ptxas's report (CompilerResources).
void NameTheProgram(ProgramJob& job) {
  std::error_code ec;
  job.key_text = ShimText();
  for (const Unit& u : job.units) {
    job.key_text += "\n--unit " + u.name + "\n" + u.rewritten.source;
    for (const ProgramFile& f : u.rewritten.files)
      job.key_text += "\n--file " + f.path.string() + "\n" + f.rewritten;
  }
  for (const std::string& c : job.cmd) job.key_text += "\n" + c;
  for (const auto& d : job.include_dirs) job.key_text += "\n-I" + d.string();
  // What each unit's command adds (the CUDA units' __CUDA_ARCH__ follows the preset).
  job.key_text += "\n-D__CUDA_ARCH__=" + CudaArch(job.options.preset);
  const auto runtime_lib = std::filesystem::path(WS_PROGRAM_RUNTIME_DIR) /
                           (job.gpu ? "libws_program_cuda.so" : "libws_program_emu.so");
  const auto runtime_time = std::filesystem::last_write_time(runtime_lib, ec);
  job.key_text += "\n" + std::to_string(ec ? 0 : runtime_time.time_since_epoch().count());
  char key[17];
  std::snprintf(key, sizeof key, "%016llx", static_cast<unsigned long long>(Fnv64(job.key_text)));
  job.exe = job.cache / (std::string(key) + ".bin");
  // ptxas's report on the program as written (registers, stack frame; where nvcc is present),
  // made while the program compiles: the run learns from it which kernels keep their own arrays
  // in registers (KeepsArraysInRegisters). Cached; uncached it costs about as much as the
  // compile (0.24 s for examples/transpose.cu), which it no longer adds to an edit.
  const auto preset = FindDevicePreset(job.options.preset);
  const std::uint32_t cc = preset.ok() ? preset->compute_capability : 0;
  if (job.gpu || cc >= 50) {
    job.compiled_later = std::async(
        std::launch::async, CompilerResources, job.units, job.include_dirs, job.defines,
        job.gpu ? std::string("native") : "sm_" + std::to_string(cc), job.key_text, job.cache);
  }
}

// Compiles unit `k` into `object`, its files staged under `root`; false with the failure set.
bool CompileUnit(ProgramJob& job, std::size_t k, const std::filesystem::path& root,
                 const std::string& shim_header, const std::string& object) {
  std::error_code ec;
  const Unit& u = job.units[k];
  const std::filesystem::path main_abs = u.directory / std::filesystem::path(u.name).filename();
  const bool host = IsHostUnit(u.name);
  const std::filesystem::path src =
      Staged(root, main_abs).string() + (job.gpu && !host ? ".ws.cu" : ".ws.cpp");
  auto put = [&ec](const std::filesystem::path& path, const std::string& content) {
    std::filesystem::create_directories(path.parent_path(), ec);
    return WriteFileAtomically(path, content);
  };
  Status written = put(src, u.rewritten.source);
  for (const ProgramFile& f : u.rewritten.files) {
    if (written.ok()) written = put(Staged(root, f.path), f.rewritten);
  }
  if (!written.ok())
    return CompileFailure(job, "could not write the rewritten program: " + written.message());
  std::vector<std::string> c = job.cmd;
  for (const auto& d : job.include_dirs) c.insert(c.end(), {"-I", Staged(root, d).string()});
  c.insert(c.end(), {"-I", Staged(root, u.directory).string()});
  for (const auto& d : job.include_dirs) c.insert(c.end(), {"-I", d.string()});
  c.insert(c.end(), {"-I", u.directory.string()});
  // A CUDA unit gets the CUDA headers (the shim) and __CUDACC__, as nvcc gives them; on a GPU,
  // the recorder's shim. A host unit on a GPU: the real CUDA runtime, its allocations registered.
  if (job.gpu)
    c.insert(c.end(), {"-include", std::string(WS_PROGRAM_SHIM_DIR) +
                                       (host ? "/ws_program_cuda_host.h" : "/ws_program_cuda.h")});
  if (!job.gpu && !host)
    c.insert(c.end(), {"-include", shim_header, "-DWS_CUDA_UNIT=1",
                       "-D__CUDA_ARCH__=" + CudaArch(job.options.preset)});
  if (!job.gpu) c.insert(c.end(), {"-x", "c++"});
  c.insert(c.end(), {"-c", src.string(), "-o", object});
  ChildLimits cl;
  cl.timeout = std::chrono::seconds(120);
  ChildResult r = RunChild(c, NoIncludeEnvironment(), cl);
  if (r.started && !r.timed_out && r.signal == 0 && r.exit_code == 0) return true;
#if defined(WS_PROGRAM_NVCC)
  // On a GPU: does nvcc build the program as written? If not, the program is not for this CUDA
  // (CUDA 13 changed cudaMemPrefetchAsync's arguments, for one), not Warpscope's limit.
  std::string plain_error;
  if (job.gpu && r.started && !r.timed_out &&
      BuildPlainOnGpu(job.units, job.include_dirs, job.defines, job.key_text, job.cache,
                      &plain_error)
          .empty() &&
      !plain_error.empty())
    return CompileFailure(job,
                          "nvcc refuses the program as written, without Warpscope (is it "
                          "written for another CUDA version?): " +
                              plain_error);
#endif
  return CompileFailure(job, !r.started
                                 ? "could not start the compiler " + c[0] + ": " + r.start_error
                             : r.timed_out ? "the compiler took longer than 120 s"
                                           : "the host compiler refused the rewritten program (a "
                                             "Warpscope limit; please report it): " +
                                                 FirstError(r.err, 6));
}

// Links the units' objects into `exe`; false with the failure set.
bool Link(ProgramJob& job, const std::vector<std::string>& objects,
          const std::filesystem::path& exe) {
  std::vector<std::string> l = {job.cmd[0]};
  if (job.gpu) l.insert(l.end(), {"-cudart", "shared", "-arch=native"});
  // The host compiler's flags link too (a sanitizer build's -fsanitize brings its runtime).
  if (!job.gpu) {
    for (const std::string& f : SplitFlags(WS_PROGRAM_FLAGS)) l.push_back(f);
  }
  l.insert(l.end(), objects.begin(), objects.end());
  l.insert(l.end(), {"-o", exe.string()});
  l.insert(l.end(), job.link.begin(), job.link.end());
  ChildLimits cl;
  cl.timeout = std::chrono::seconds(120);
  ChildResult r = RunChild(l, NoIncludeEnvironment(), cl);
  if (r.started && !r.timed_out && r.signal == 0 && r.exit_code == 0) return true;
  const auto undefined = r.err.find("undefined reference to");
  const auto multiple = r.err.find("multiple definition of");
  // The program's own: a function declared and called but never defined, or defined twice.
  return CompileFailure(
      job, undefined != std::string::npos
               ? "link error: " + r.err.substr(undefined, r.err.find('\n', undefined) - undefined)
           : multiple != std::string::npos
               ? "link error: " + r.err.substr(multiple, r.err.find('\n', multiple) - multiple)
               : "the program could not be linked: " + LastLines(r.err, 6));
}

// Each unit reads its rewritten files from a folder of its own (a header two units include may
// be numbered differently in each); the program is kept in the cache under its key.
bool Compile(ProgramJob& job) {
  if (!Commands(job)) return false;
  // The shim, precompiled for this command before the program's own -D options are added.
  const std::string shim_header =
      job.gpu ? std::string() : PrecompiledShim(job.cmd, CudaArch(job.options.preset), job.cache);
  for (const std::string& d : job.defines) job.cmd.push_back("-D" + d);
  NameTheProgram(job);
  const auto t0 = std::chrono::steady_clock::now();
  std::error_code ec;
  if (std::filesystem::exists(job.exe, ec)) {
    job.p().timing.compile_cached = true;
    job.p().timing.compile_ms = MsSince(t0);
    return true;
  }
  const std::string key = job.exe.stem().string();
  const std::filesystem::path stage = job.cache / ("stage-" + key + "-" + UniqueSuffix());
  const std::filesystem::path tmp_exe = job.exe.string() + ".tmp" + std::to_string(getpid());
  std::vector<std::string> objects;
  bool ok = true;
  for (std::size_t k = 0; ok && k < job.units.size(); ++k) {
    const std::filesystem::path root = stage / ("unit" + std::to_string(k));
    objects.push_back(root.string() + "/unit.o");
    ok = CompileUnit(job, k, root, shim_header, objects.back());
  }
  ok = ok && Link(job, objects, tmp_exe);
  if (ok) std::filesystem::rename(tmp_exe, job.exe, ec);
  std::filesystem::remove_all(stage, ec);
  if (!ok) {
    std::filesystem::remove(tmp_exe, ec);
    return false;
  }
  PruneCache(job.cache);
  if (ec) return CompileFailure(job, "could not keep the compiled program: " + ec.message());
  job.p().timing.compile_ms = MsSince(t0);
  return true;
}

//-----------------------------------------------------------------------------
// [SECTION] 4. Run in a child, and read its launches back
//-----------------------------------------------------------------------------

// The launches, each written as it finished (out.part0, out.part1, ...): those before a stop are
// kept. Then the header, written at the end (absent after a time limit or a crash). Returns
// whether the emulator's cudaEvent times were the model's; false with the failure set when a
// launch cannot be read.
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

// How the child ended, as the record says it: nothing when it exited by itself.
void DescribeEnding(ProgramJob& job, const ChildResult& c, const ProgramProgress& last) {
  ProgramRecord& p = job.p();
  const bool partway = last.launch > 0 && last.blocks_done < last.blocks;
  if (!c.started) {
    Fail(job, ProgramStage::kRun, "could not start the program: " + c.start_error);
  } else if (c.cancelled) {
    Fail(job, ProgramStage::kRun,
         "stopped at your request" +
             (last.launch > 0 ? " in " + ProgressText(last) : std::string()) +
             " (the launches that finished are kept)");
  } else if (c.timed_out) {
    std::string failure =
        "the program ran longer than the limit of " +
        std::to_string(job.options.timeout.count() / 1000.0).substr(0, 4) +
        " s and was stopped (an endless loop, or a barrier some threads never leave?)";
    if (partway)
      failure += "; it was in " + ProgressText(last) +
                 ": if it is only large, a longer time limit (the CLI's --timeout) lets it finish";
    Fail(job, ProgramStage::kRun, std::move(failure));
  } else if (c.signal != 0) {
    const bool memory = c.signal == SIGSEGV || c.signal == SIGABRT || c.signal == SIGKILL;
    std::string failure = "the program stopped on " + SignalName(c.signal, job.gpu);
    const std::string msg = ChildMessage(p.stderr_text);
    if (!msg.empty()) failure += ": " + msg;
    if (c.signal == SIGXCPU && partway) failure += "; it was in " + ProgressText(last);
    if (memory && p.stderr_text.find("bad_alloc") != std::string::npos)
      failure += " (over the memory limit of " +
                 std::to_string(job.options.memory_limit_bytes >> 20) + " MiB?)";
    Fail(job, ProgramStage::kRun, std::move(failure));
  } else if (c.exit_code == 3 && p.stderr_text.find("warpscope: ") != std::string::npos) {
    Fail(job, ProgramStage::kRun, ChildMessage(p.stderr_text));
  }
}

// On a GPU the output the user sees is that of the program as written, run without recording.
void RunAsWrittenOnGpu(ProgramJob& job, const std::vector<std::string>& args,
                       const ChildLimits& limits) {
#if defined(WS_PROGRAM_NVCC)
  ProgramRecord& p = job.p();
  PlainRun plain = RunPlainOnGpu(job.units, job.include_dirs, job.defines, job.key_text, job.cache,
                                 args, limits);
  if (plain.failure.empty() && !plain.child.timed_out) {
    p.stdout_text = std::move(plain.child.out);
    p.stderr_text = std::move(plain.child.err);
    const int plain_exit =
        plain.child.signal != 0 ? 128 + plain.child.signal : plain.child.exit_code;
    p.warnings.push_back(
        {0, 0, false,
         "on a GPU the program's output (and every cudaEvent time it printed) is from a run of "
         "the program as written, without recording; the records are from a second, recorded "
         "run" +
             (plain_exit == p.exit_code
                  ? std::string()
                  : " (that run exited with status " + std::to_string(plain_exit) +
                        ", the recorded run with " + std::to_string(p.exit_code) + ")")});
  } else {
    p.warnings.push_back(
        {0, 0, false,
         "the output shown is the recorded run's, whose cudaEvent times include the recording: "
         "the run without recording did not finish (" +
             (plain.failure.empty() ? std::string("it ran past the time limit") : plain.failure) +
             ")"});
  }
#else
  (void)job, (void)args, (void)limits;
#endif
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
  std::vector<std::string> env = {"WS_PROGRAM_OUT=" + out.string(),
                                  "WS_PRESET=" + job.options.preset, "WS_KEEP_BLOCKS=" + keep,
                                  "WS_SCHEDULE=" + job.options.schedule};
#if defined(WS_PROGRAM_SANITIZED)
  // The program is built with the sanitizers (its runtime is): let a crash be a crash, as in a
  // normal build, and do not report the program's own leaks.
  env.push_back(
      "ASAN_OPTIONS=detect_leaks=0:handle_segv=0:handle_sigbus=0:handle_sigfpe=0:"
      "handle_abort=0");
#endif
  return env;
}

void Execute(ProgramJob& job) {
  using Clock = std::chrono::steady_clock;
  std::error_code ec;
  ProgramRecord& p = job.p();
  static std::atomic<unsigned> counter{0};
  const std::filesystem::path out =
      std::filesystem::temp_directory_path(ec) / ("warpscope-program-" + std::to_string(getpid()) +
                                                  "-" + std::to_string(++counter) + ".wstrace");
  std::vector<std::string> args = {std::filesystem::path(p.file).stem().string()};
  args.insert(args.end(), job.options.args.begin(), job.options.args.end());
  const ChildLimits limits = Limits(job);
  std::vector<std::string> env = Environment(job, out);
  // The report is needed before the run only where a kernel has arrays it may keep in
  // registers; otherwise it is taken after the run, which it overlaps.
  Resources compiled;
  if (job.compiled_later.valid() && job.rewritten.local_arrays) {
    compiled = job.compiled_later.get();
    std::string local_bytes;
    for (const auto& [kernel, r] : compiled)
      local_bytes += kernel + " " + std::to_string(r.local_bytes) + "\n";
    if (!local_bytes.empty()) env.push_back("WS_PROGRAM_LOCAL_BYTES=" + local_bytes);
  }
  // How far the run has got (the emulator's runtime writes it), and the user's Cancel.
  // (A time limit's message says how far it got too.)
  ProgressMap progress(job.gpu ? std::string() : out.string() + ".progress");
  if (progress.cell() != nullptr) env.push_back("WS_PROGRAM_PROGRESS=" + progress.path());
  ProgramProgress last_progress;
  const auto keep_going = [&] {
    if (progress.cell() != nullptr) {
      const ProgramProgress now = progress.Read();
      if (!(now == last_progress) && job.options.on_progress) job.options.on_progress(now);
      last_progress = now;
    }
    return job.options.cancel == nullptr || !job.options.cancel->load();
  };
  const auto t0 = Clock::now();
  ChildResult c = RunChild(args, env, limits, job.exe.string(), keep_going);
  keep_going();  // the last blocks
  p.timing.run_ms = MsSince(t0);
  // A failed assert() prints its expression as rewritten: as the program wrote it.
  p.stdout_text = UnrewriteText(std::move(c.out));
  p.stderr_text = UnrewriteText(std::move(c.err));
  p.exit_code = c.signal != 0 ? 128 + c.signal : c.exit_code;
  bool events_modeled = false;
  if (!ReadLaunches(job, out, &events_modeled)) return;
  // Registers from ptxas where the run did not say (the occupancy view starts from them).
  if (job.compiled_later.valid()) compiled = job.compiled_later.get();
  for (LaunchTrace& t : job.run.launches) {
    if (t.resources.known()) continue;
    if (const KernelResources* r = FindKernelResources(compiled, t.kernel)) t.resources = *r;
  }
  if (events_modeled) {
    p.warnings.push_back(
        {0, 0, false,
         "cudaEventElapsedTime gave the model's time on the emulator (each launch: its sectors x "
         "32 B at the " +
             job.options.preset +
             " preset's DRAM bandwidth, plus 2 us), not a "
             "measurement: times and bandwidths the program printed from it are the model's"});
  }
  p.ran = c.started;
  p.signal = c.signal;
  DescribeEnding(job, c, last_progress);
  if (job.gpu && p.failure.empty()) RunAsWrittenOnGpu(job, args, limits);
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
  p.launch = r.launches.empty() ? 0 : r.launches.size() - 1;
  r.check.ok = p.ok() && p.exit_code == 0;
  r.check.message =
      p.ok() ? "the program exited with status " + std::to_string(p.exit_code) : p.failure;
  r.timing.kind = "none";
  r.timing.note =
      "A program's own cudaEvent times are in what it printed (on the emulator they are the "
      "model's: each launch's sectors at the preset's DRAM bandwidth; on a GPU, measured).";
  return std::move(r);
}

}  // namespace

//-----------------------------------------------------------------------------
// [SECTION] RunProgramText, RunProgramFile
//-----------------------------------------------------------------------------

LessonRun RunProgramText(const std::string& file_name, const std::filesystem::path& directory,
                         const std::string& text, const ProgramOptions& options) {
  using Clock = std::chrono::steady_clock;
  ProgramJob job(options);
  job.run.backend = options.backend;
  job.run.device = job.gpu ? "GPU" : "CPU emulator";
  job.run.program.emplace();
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
    job.run.backend = options.backend;
    job.run.device = job.gpu ? "GPU" : "CPU emulator";
    job.run.program.emplace();
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
