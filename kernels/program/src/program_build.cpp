// Stages 1-3 of a program's run (program_job.h): read its translation units, rewrite them
// (warpscope-rewrite, in a child), compile and link them (cached).
//
// Index
//   [SECTION] The record's failures
//   [SECTION] 1. Read the translation units
//   [SECTION] 2. Rewrite them (warpscope-rewrite, in a child)
//   [SECTION] 3. Compile and link (cached)
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <future>
#include <utility>

#include "program_job.h"
#include "warpscope/trace/device_preset.h"
#include "warpscope/trace/file_io.h"

namespace ws::prog_internal {

//-----------------------------------------------------------------------------
// [SECTION] The record's failures
//-----------------------------------------------------------------------------

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

namespace {

// Where the compiler reads a unit's files from: each program file at its absolute path under
// `root`, so that "kernel.cuh" beside it and "../common/book.h" above it are found as they are
// beside the originals.
std::filesystem::path Staged(const std::filesystem::path& root, const std::filesystem::path& abs) {
  return root / abs.relative_path();
}

}  // namespace

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

namespace {

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
  if (all.wmma_at.empty()) all.wmma_at = one.wmma_at;
  if (all.async_at.empty()) all.async_at = one.async_at;
  if (all.group_copy_at.empty()) all.group_copy_at = one.group_copy_at;
  if (all.cublas_at.empty()) all.cublas_at = one.cublas_at;
  if (all.curand_at.empty()) all.curand_at = one.curand_at;
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

}  // namespace

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

namespace {

// The compile and link commands: the host compiler for the emulator, nvcc for a GPU.
bool Commands(ProgramJob& job) {
  // What the GPU backend cannot record yet: the first call's line, what it is and why.
  const std::pair<const std::string*, const char*> not_on_gpu[] = {
      {&job.rewritten.group_copy_at,
       "A group's asynchronous copy (cooperative_groups::memcpy_async, wait, wait_prior) is not "
       "supported (yet) on the GPU backend: the toolkit cuts it among the group's threads inside "
       "its own header, where the recording does not see the pieces"},
      {&job.rewritten.cublas_at,
       "cuBLAS is not supported (yet) on the GPU backend: its kernels are the library's, which "
       "the recording does not reach (on the emulator its calls run, unrecorded, and the run "
       "says so)"},
      {&job.rewritten.curand_at,
       "cuRAND is not supported (yet) on the GPU backend: its generators are the toolkit's "
       "header's, which the recording has not been checked against (on the emulator its device "
       "API runs)"}};
  for (const auto& [at, why] : not_on_gpu) {
    if (job.gpu && !at->empty())
      return CompileFailure(job, *at + ": " + why + ". Run it on the emulator (--backend emu)");
  }
  if (job.gpu) {
#if defined(WS_PROGRAM_NVCC)
    // The shim by its full path: its folder also holds the emulator's cuda_runtime.h.
    // The shim's gpu/ folder: its cooperative groups before the toolkit's. At most 64 registers
    // a thread: the recorder's code (and the dynamic instances) must not make a 1024-thread
    // block fail to launch (cudaErrorLaunchOutOfResources) where the program as written
    // launches; spills cost the recording run only (the timings come from the plain run).
    if (Paths().nvcc.empty())
      return CompileFailure(job, "nvcc is not where this Warpscope was built with it (" +
                                     std::string(WS_PROGRAM_NVCC) +
                                     ") and none is on PATH: install the CUDA toolkit");
    // WS_GPU_MAXRREGCOUNT (16-64): a lower cap, for measuring what the recorder's registers cost
    // (docs/GPU.md: at 48 registers a 1,024-thread block runs alone on its SM); above 64 a
    // 1,024-thread block could not launch. The compile cache keys on the command.
    long cap = 64;
    if (const char* v = std::getenv("WS_GPU_MAXRREGCOUNT"); v != nullptr && *v != '\0') {
      char* end = nullptr;
      cap = std::strtol(v, &end, 10);
      if (*end != '\0' || cap < 16 || cap > 64)
        return CompileFailure(job, "WS_GPU_MAXRREGCOUNT is '" + std::string(v) +
                                       "': a register count from 16 to 64 (a 1,024-thread "
                                       "block needs at most 64 a thread)");
    }
    job.cmd = {Paths().nvcc,
               "-std=c++17",
               "-O2",
               "-lineinfo",
               "-arch=native",
               "-w",
               "-maxrregcount=" + std::to_string(cap),
               "-cudart",
               "shared",
               "-I",
               Paths().api,
               "-I",
               Paths().record,
               "-I",
               Paths().shim + "/gpu"};
    job.link = {"-L", Paths().runtime, "-Xlinker=-rpath," + Paths().runtime, "-lws_program_cuda"};
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
  if (Paths().cxx.empty())
    return CompileFailure(job, "no C++ compiler: " + std::string(WS_PROGRAM_CXX) +
                                   " is not there and no c++ is on PATH (install g++)");
  job.cmd = {Paths().cxx};
  for (const std::string& f : SplitFlags(WS_PROGRAM_FLAGS)) job.cmd.push_back(f);
  job.cmd.insert(job.cmd.end(), {"-w", "-I", Paths().shim});
  job.link = {"-L", Paths().runtime, "-Wl,-rpath," + Paths().runtime, "-lws_program_emu"};
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
  const auto runtime_lib = std::filesystem::path(Paths().runtime) /
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
  // Its cache key is what nvcc reads of the program (each unit as written, its name and folder;
  // the program's own headers, by their rewritten text), not the host compiler's command nor
  // the runtime library's time, which have no part in it: the release and sanitizer builds'
  // tests share one report of each program (CI's time, docs/BUILD.md).
  if (job.gpu || cc >= 50) {
    std::string as_written = "as written";
    for (const Unit& u : job.units) {
      as_written += "\n--unit " + u.name + "\n" + u.directory.string() + "\n" + u.text;
      for (const ProgramFile& f : u.rewritten.files)
        as_written += "\n--file " + f.path.string() + "\n" + f.rewritten;
    }
    job.compiled_later =
        std::async(std::launch::async, CompilerResources, job.units, job.include_dirs, job.defines,
                   job.gpu ? std::string("native") : "sm_" + std::to_string(cc),
                   std::move(as_written), job.cache);
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
    c.insert(c.end(), {"-include",
                       Paths().shim + (host ? "/ws_program_cuda_host.h" : "/ws_program_cuda.h")});
  if (!job.gpu && !host)
    c.insert(c.end(), {"-include", shim_header, "-DWS_CUDA_UNIT=1",
                       "-D__CUDA_ARCH__=" + CudaArch(job.options.preset)});
  if (!job.gpu) c.insert(c.end(), {"-x", "c++"});
  c.insert(c.end(), {"-c", src.string(), "-o", object});
  // nvcc's device passes over a recorded unit take minutes where a sample instantiates a template
  // kernel for every type and block size (cuda-samples' reduction: 10 kernels x 3 types x up to
  // 10 block sizes); the host compiler's take seconds.
  const int limit_s = job.gpu ? 600 : 120;
  ChildLimits cl;
  cl.timeout = std::chrono::seconds(limit_s);
  ChildResult r = RunChild(c, NoIncludeEnvironment(), cl);
  if (r.started && !r.timed_out && r.signal == 0 && r.exit_code == 0) return true;
  // The SIMT path's warp functions (collector_simt.cpp) are the rewriter's own text: where the
  // host compiler refuses them, the unit is built without them and its kernels run on the
  // per-thread path, with a note (the rewriter should have named a reason instead).
  if (!job.gpu && !host && r.started && !r.timed_out &&
      u.rewritten.source.find("__ws_warp") != std::string::npos) {
    std::vector<std::string> plain = c;
    plain.insert(plain.end() - 4, "-DWS_NO_SIMT=1");
    ChildResult r2 = RunChild(plain, NoIncludeEnvironment(), cl);
    if (r2.started && !r2.timed_out && r2.signal == 0 && r2.exit_code == 0) {
      job.p().warnings.push_back(
          {0, 0, false,
           "the SIMT engine's rewrite of " + u.name +
               " did not compile, so its kernels ran on the per-thread path (the same figures, "
               "slower; please report it): " +
               FirstError(r.err, 2)});
      return true;
    }
  }
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
  return CompileFailure(
      job, !r.started    ? "could not start the compiler " + c[0] + ": " + r.start_error
           : r.timed_out ? "the compiler took longer than " + std::to_string(limit_s) + " s"
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

}  // namespace

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
  // (A compiled program another run found old and pruned while this one ran it was "No such
  // file" at exec: a test of the CI's, 1 run in many.)
  if (UseCached(job.exe)) {
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

}  // namespace ws::prog_internal
