// The program as written, through nvcc without Warpscope: ptxas's report on its kernels (their
// registers, on both roads) and, on a GPU, the unrecorded run whose output the user sees
// (program_internal.h declares what program.cpp calls).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "program_job.h"
#include "warpscope/program/child_process.h"
#include "warpscope/trace/compiled_code.h"
#include "warpscope/trace/file_io.h"
#include "warpscope/trace/kernel_resources.h"

namespace ws::prog_internal {
namespace {

// nvcc on the program as written (no Warpscope in it), for `arch`, with its defines and include
// folders, then `extra`; and the name its output is cached under (from everything the compile
// reads, `key_text`, and the command).
struct AsWritten {
  std::vector<std::string> cmd;
  std::string name;
};
AsWritten NvccAsWritten(const std::string& nvcc, const std::string& arch,
                        std::initializer_list<const char*> extra,
                        const std::vector<std::string>& defines,
                        const std::vector<std::filesystem::path>& include_dirs,
                        const std::string& key_text) {
  AsWritten w;
  w.cmd = {nvcc, "-std=c++17", "-O2", "-arch=" + arch, "-w"};
  w.cmd.insert(w.cmd.end(), extra.begin(), extra.end());
  for (const std::string& d : defines) w.cmd.push_back("-D" + d);
  for (const auto& d : include_dirs) w.cmd.insert(w.cmd.end(), {"-I", d.string()});
  std::string key = key_text;
  for (const std::string& c : w.cmd) key += "\n" + c;
  char name[17];
  std::snprintf(name, sizeof name, "%016llx", static_cast<unsigned long long>(Fnv64(key)));
  w.name = name;
  return w;
}

// Unit `k`'s text (its defines applied) in `stage`, in a folder of its own under its own name
// (its quoted includes are found through -I its folder): the path, or empty when it could not be
// written.
std::filesystem::path StageUnitText(const std::filesystem::path& stage, std::size_t k,
                                    const Unit& unit) {
  std::error_code ec;
  const std::filesystem::path src =
      stage / std::to_string(k) / std::filesystem::path(unit.name).filename();
  std::filesystem::create_directories(src.parent_path(), ec);
  return WriteFileAtomically(src, unit.text).ok() ? src : std::filesystem::path();
}

}  // namespace

// The program's kernels as ptxas compiles them, as written (nvcc -cubin --resource-usage on each
// CUDA unit, for `arch`: "sm_90", or "native" on a GPU), the report cached beside the compiled
// program. Empty when there is no nvcc or it does not compile the program.
CompiledReport CompilerResources(const std::vector<Unit>& units,
                                 const std::vector<std::filesystem::path>& include_dirs,
                                 const std::vector<std::string>& defines, const std::string& arch,
                                 const std::string& key_text, const std::filesystem::path& cache) {
  const std::string nvcc = Paths().resources_nvcc;
  if (nvcc.empty()) return {};
  // nvdisasm beside this nvcc (a toolkit's bin), else on PATH; none: no listing. The test
  // suites set WARPSCOPE_NO_NVDISASM, so that their figures do not depend on the machine's
  // toolkit (a listing given in ProgramOptions still counts).
  std::string nvdisasm = (std::filesystem::path(nvcc).parent_path() / "nvdisasm").string();
  if (access(nvdisasm.c_str(), X_OK) != 0) nvdisasm = FindTool("", "nvdisasm");
  if (const char* no = std::getenv("WARPSCOPE_NO_NVDISASM"); no != nullptr && *no != '\0')
    nvdisasm.clear();
  // nvcc's time too: a toolkit installed anew at the same path gives its own report.
  std::error_code ec;
  const auto nvcc_time = std::filesystem::last_write_time(nvcc, ec);
  const AsWritten w = NvccAsWritten(
      nvcc, arch, {"-cubin", "--resource-usage", "-lineinfo"}, defines, include_dirs,
      key_text + "\n" + std::to_string(ec ? 0 : nvcc_time.time_since_epoch().count()) +
          "\nnvdisasm " + nvdisasm);
  const std::filesystem::path report = cache / (w.name + ".ptxas.txt");
  const std::filesystem::path listed = cache / (w.name + ".sass.txt");
  std::string text;
  CompiledCode code;
  // Cached only with its listing where there is an nvdisasm (a listing that failed is not kept:
  // the next run compiles and lists again).
  if (UseCached(report) && (nvdisasm.empty() || UseCached(listed))) {
    // (made the newest: pruned after the programs that use it)
    text = ReadAll(report);
    if (!nvdisasm.empty()) {
      Result<CompiledCode> cached = CompiledCode::FromTable(ReadAll(listed));
      if (cached.ok()) code = std::move(*cached);
    }
  } else {
    bool listed_all = true;
    const std::filesystem::path stage = cache / ("ptxas-" + w.name + "-" + UniqueSuffix());
    for (std::size_t k = 0; k < units.size(); ++k) {
      if (IsHostUnit(units[k].name)) continue;
      const std::filesystem::path src = StageUnitText(stage, k, units[k]);
      if (src.empty()) break;
      std::vector<std::string> c = w.cmd;
      c.insert(c.end(), {"-I", units[k].directory.string(), src.string(), "-o",
                         (stage / (std::to_string(k) + ".cubin")).string()});
      ChildLimits cl;
      cl.timeout = std::chrono::seconds(120);
      ChildResult r = RunChild(c, NoIncludeEnvironment(), cl);
      if (!r.started || r.timed_out || r.signal != 0 || r.exit_code != 0) {
        text.clear();
        break;
      }
      text += r.out + r.err;
      // The kernels' instructions by line: their shared loads' and stores' widths.
      if (!nvdisasm.empty()) {
        ChildLimits dl = cl;
        dl.output_bytes = std::uint64_t{256} << 20;  // a listing is about 150 KB a kernel
        ChildResult d =
            RunChild({nvdisasm, "-g", "-c", (stage / (std::to_string(k) + ".cubin")).string()},
                     NoIncludeEnvironment(), dl);
        if (d.started && !d.timed_out && d.signal == 0 && d.exit_code == 0 && d.out_dropped == 0)
          code.Merge(CompiledCode::FromDisassembly(d.out));
        else
          listed_all = false;
      }
    }
    std::filesystem::remove_all(stage, ec);
    if (text.empty()) return {};
    (void)WriteFileAtomically(report, text);
    if (!nvdisasm.empty() && listed_all) (void)WriteFileAtomically(listed, code.Table());
  }
  CompiledReport out;
  out.resources = ParsePtxasReport(
      text, "ptxas: nvcc --resource-usage -arch=" + arch + " on the program as written");
  out.code_table = code.Table();
  return out;
}

#if defined(WS_PROGRAM_NVCC)
// On a GPU, the program as written, built by nvcc with nothing of Warpscope in it, for the run
// whose output the user sees (RunAsWrittenOnGpu, below). Builds it (cached): the program,
// or an empty path and nvcc's first error in `failure`.
std::filesystem::path BuildPlainOnGpu(const std::vector<Unit>& units,
                                      const std::vector<std::filesystem::path>& include_dirs,
                                      const std::vector<std::string>& defines,
                                      const std::string& key_text,
                                      const std::filesystem::path& cache, std::string* failure) {
  const AsWritten w =
      NvccAsWritten(Paths().nvcc, "native", {}, defines, include_dirs, key_text + "\nplain");
  const std::filesystem::path exe = cache / (w.name + ".plain.bin");
  std::error_code ec;
  if (UseCached(exe)) return exe;
  const std::filesystem::path stage = cache / ("plain-" + w.name + "-" + UniqueSuffix());
  std::vector<std::string> c = w.cmd;
  for (std::size_t k = 0; k < units.size(); ++k) {
    const std::filesystem::path src = StageUnitText(stage, k, units[k]);
    if (src.empty()) {
      std::filesystem::remove_all(stage, ec);
      *failure = "could not write the program for its run without recording";
      return {};
    }
    c.insert(c.end(), {"-I", units[k].directory.string()});
    c.push_back(src.string());
  }
  const std::filesystem::path tmp = exe.string() + ".tmp" + std::to_string(getpid());
  c.insert(c.end(), {"-o", tmp.string()});
  ChildLimits cl;
  cl.timeout = std::chrono::seconds(240);
  ChildResult r = RunChild(c, NoIncludeEnvironment(), cl);
  std::filesystem::remove_all(stage, ec);
  if (!r.started || r.timed_out || r.signal != 0 || r.exit_code != 0) {
    std::filesystem::remove(tmp, ec);
    *failure = r.started ? FirstError(r.err, 2) : r.start_error;
    return {};
  }
  std::filesystem::rename(tmp, exe, ec);
  return exe;
}
#endif

// The kernel timer's file after the run as written: the kernels' times, or why there are none.
void ReadKernelTimes(ProgramRecord& p, const std::filesystem::path& file, bool ran) {
  if (file.empty()) {
    p.kernel_times_missing = "this build of Warpscope has no CUPTI to time the kernels with";
    return;
  }
  bool read = false;
  const std::string text = ReadAll(file, &read);
  std::error_code ec;
  std::filesystem::remove(file, ec);
  if (!ran) {
    p.kernel_times_missing = "the program as written did not run to the end";
  } else if (!read) {
    p.kernel_times_missing = "the kernel timer wrote nothing (the CUDA driver did not load it)";
  } else if (text.rfind("error: ", 0) == 0) {
    p.kernel_times_missing = text.substr(7, text.find('\n') - 7);
  } else {
    KernelTimesRead times = ParseKernelTimes(text);
    p.kernel_times = std::move(times.times);
    p.kernel_times_missing = times.error;
    if (p.kernel_times.empty() && times.error.empty())
      p.kernel_times_missing = "the program as written launched no kernel";
  }
}

// "2.5 s".
std::string FormatSeconds(std::chrono::milliseconds t) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f s", static_cast<double>(t.count()) / 1000.0);
  return text;
}

// The counters' file after the counting run: each kernel's first launch's counters, or why there
// are none.
void ReadKernelCounters(ProgramRecord& p, const std::filesystem::path& file, bool ran) {
  bool read = false;
  const std::string text = ReadAll(file, &read);
  std::error_code ec;
  std::filesystem::remove(file, ec);
  KernelCountersRead counters = ParseKernelCounters(read ? text : std::string());
  p.kernel_counters = std::move(counters.counters);
  p.counters_unavailable = std::move(counters.unavailable);
  p.kernel_counters_missing = counters.error;
  if (!read)
    p.kernel_counters_missing =
        "the counting run wrote nothing (the CUDA driver did not load the kernel timer)";
  else if (!ran && p.kernel_counters_missing.empty())
    p.kernel_counters_missing =
        "the counting run did not run to the end: the kernels launched "
        "before it stopped were counted";
  else if (p.kernel_counters.empty() && p.kernel_counters_missing.empty() &&
           counters.not_counted.empty())
    p.kernel_counters_missing = "the program as written launched no kernel";
  p.kernels_not_counted.clear();
  for (const std::string& k : counters.not_counted) {  // "SYMBOL (why)"
    const std::size_t space = k.find(' ');
    std::string why = space == std::string::npos ? std::string() : k.substr(space + 1);
    if (why.size() >= 2 && why.front() == '(' && why.back() == ')')
      why = why.substr(1, why.size() - 2);
    p.kernels_not_counted.push_back({k.substr(0, space), why});
  }
}

#if defined(WS_PROGRAM_NVCC)
// The sandbox's scratch folder emptied before another run of the program, so that each run starts
// where the first did: with none of the files an earlier run wrote (a program that skips its work
// when its output file is there, or appends to a log). Nothing when not sandboxed.
void EmptyScratch(const std::filesystem::path& scratch) {
  std::error_code ec;
  if (scratch.empty()) return;
  for (auto it = std::filesystem::directory_iterator(scratch, ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    std::error_code removed;
    std::filesystem::remove_all(it->path(), removed);
  }
}
#endif

// On a GPU the output the user sees is that of the program as written (built by nvcc with nothing
// of Warpscope in it), run without recording, in the sandbox when the recorded run was, with the
// kernel timer (CUPTI) in it: its cudaEvent times, and the kernels' own, are not the recording's.
void RunAsWrittenOnGpu(ProgramJob& job, const std::vector<std::string>& args,
                       const ChildLimits& limits, const std::filesystem::path& scratch) {
#if defined(WS_PROGRAM_NVCC)
  ProgramRecord& p = job.p();
  std::string failure;
  const std::filesystem::path exe =
      BuildPlainOnGpu(job.units, job.include_dirs, job.defines, job.key_text, job.cache, &failure);
  ChildResult child;
  std::vector<std::string> env;
  std::filesystem::path times;
  std::chrono::milliseconds plain_time{0};  // the run as written's, wall clock
  // A profiler run over Warpscope (Nsight Compute, Nsight Systems) injects itself into the
  // program through CUDA_INJECTION64_PATH: the kernel timer's would replace it (ncu then lost the
  // program as written, which exited 1), so it stays, and the kernels are not timed by ours.
  const char* injected = std::getenv("CUDA_INJECTION64_PATH");
  const bool profiled = injected != nullptr && *injected != '\0';
  EmptyScratch(scratch);
#if defined(WS_PROGRAM_KERNEL_TIMER)
  std::error_code ec;
  if (!profiled) {
    times = (scratch.empty() ? std::filesystem::temp_directory_path(ec) : scratch) /
            ("warpscope-kernel-times-" + UniqueSuffix() + ".txt");
    env = {std::string("CUDA_INJECTION64_PATH=") + Paths().kernel_timer,
           "WS_KERNEL_TIMES=" + times.string()};
  }
#endif
  if (exe.empty()) {
    failure = "nvcc did not build the program as written (" + failure + ")";
  } else {
    const auto started = std::chrono::steady_clock::now();
    child = RunMaybeSandboxed(args, env, limits, exe.string(), scratch, true);
    plain_time = std::chrono::duration_cast<std::chrono::milliseconds>(
        std::chrono::steady_clock::now() - started);
    if (!child.started) failure = "it could not start: " + child.start_error;
  }
  const bool ran = failure.empty() && !child.timed_out;
  if (profiled)
    p.kernel_times_missing =
        "a profiler is attached (CUDA_INJECTION64_PATH is set): its times, not Warpscope's timer";
  else
    ReadKernelTimes(p, times, ran && child.signal == 0);
#if defined(WS_PROGRAM_KERNEL_TIMER)
  // The GPU's own counters, in a run of their own (each kernel's first launch replayed by CUPTI
  // as its metrics need: not a time the program's). Its output is not shown.
  if (profiled) {
    p.kernel_counters_missing =
        "a profiler is attached (CUDA_INJECTION64_PATH is set): the GPU's counters are its";
  } else if (!ran || child.signal != 0) {
    p.kernel_counters_missing = "the program as written did not run to the end";
  } else {
    EmptyScratch(scratch);
    const std::filesystem::path counters =
        (scratch.empty() ? std::filesystem::temp_directory_path(ec) : scratch) /
        ("warpscope-kernel-counters-" + UniqueSuffix() + ".txt");
    const std::vector<std::string> count_env = {
        std::string("CUDA_INJECTION64_PATH=") + Paths().kernel_timer,
        "WS_KERNEL_COUNTERS=" + counters.string()};
    // Replaying the first launches costs a few runs of them: the counting run gets 4 times the
    // program's own run and 10 s more, within the run's limit, so that a counting run that stalls
    // costs that much and no more.
    ChildLimits count_limits = limits;
    count_limits.timeout = std::min(
        limits.timeout, std::chrono::milliseconds(4 * plain_time + std::chrono::seconds(10)));
    const ChildResult counted =
        RunMaybeSandboxed(args, count_env, count_limits, exe.string(), scratch, true);
    ReadKernelCounters(p, counters, counted.started && !counted.timed_out && counted.signal == 0);
    if (counted.timed_out)
      p.kernel_counters_missing =
          "the counting run was stopped after " + FormatSeconds(count_limits.timeout) +
          (count_limits.timeout < limits.timeout ? " (4 times the program's own run and 10 s)"
                                                 : " (the run's time limit)") +
          ": the kernels first launched before that were counted";
  }
#else
  p.kernel_counters_missing = "this build of Warpscope has no CUPTI to read the GPU's counters";
#endif
  if (ran) {
    const int plain_exit = child.signal != 0 ? 128 + child.signal : child.exit_code;
    p.stdout_text = std::move(child.out);
    p.stderr_text = std::move(child.err);
    p.stdout_cut_bytes = child.out_dropped;
    p.stderr_cut_bytes = child.err_dropped;
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
             (failure.empty() ? std::string("it ran past the time limit") : failure) + ")"});
  }
#else
  (void)job, (void)args, (void)limits, (void)scratch;
#endif
}

}  // namespace ws::prog_internal
