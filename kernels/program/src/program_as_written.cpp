// The program as written, through nvcc without Warpscope: ptxas's report on its kernels (their
// registers, on both roads) and, on a GPU, the unrecorded run whose output the user sees
// (program_internal.h declares what program.cpp calls).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "program_internal.h"
#include "warpscope/program/child_process.h"
#include "warpscope/trace/compiled_code.h"
#include "warpscope/trace/file_io.h"

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
// whose output the user sees (program_run.cpp: RunAsWrittenOnGpu). Builds it (cached): the program,
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

}  // namespace ws::prog_internal
