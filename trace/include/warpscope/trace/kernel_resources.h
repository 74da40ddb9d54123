// What the compiler gave a kernel: registers per thread, the stack frame (local memory: spilled
// registers and arrays indexed at run time live there, in device memory), the bytes spilled,
// and static shared memory. On a GPU the figures come from cudaFuncGetAttributes; on the
// emulator from a table of ptxas's report (nvcc --resource-usage) made when the lessons were
// compiled for a GPU (kernels/resources/, scripts/resource_table.py).
//
//   ResourceTable t;
//   ParseResourceTable("# compiler: nvcc 13.0, -arch=sm_90\ntransposePadded<32> 16 0 0 0 4224 1\n",
//                      &t);
//   t.Find("transposePadded<32>")->registers == 16
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

#include "warpscope/trace/status.h"

namespace ws {

struct KernelResources {
  int registers = -1;              // per thread; -1: not known
  std::uint32_t local_bytes = 0;   // per thread: the stack frame in local memory
  std::uint32_t spill_stores = 0;  // bytes of registers spilled (ptxas only; 0 on a GPU)
  std::uint32_t spill_loads = 0;   // bytes read back
  std::uint32_t shared_bytes = 0;  // static shared memory per block
  std::uint32_t barriers = 0;      // named barriers used (ptxas only)
  bool spills_known = false;       // the spill figures come from ptxas
  std::string source;              // where the figures come from, for the views
  bool known() const { return registers >= 0; }
  friend bool operator==(const KernelResources&, const KernelResources&) = default;
};

// "14 registers, 0 B local memory per thread, 4,224 B shared memory" (+ ", 64 B spilled"
// where ptxas counted spills); "" when not known.
std::string ResourceSummary(const KernelResources& r);

// As trace files and `run --json` keep them; ResourcesFromJson throws std::runtime_error (or
// nlohmann's) on a field missing or out of range (registers 0..255).
nlohmann::json ResourcesJson(const KernelResources& r);
KernelResources ResourcesFromJson(const nlohmann::json& j);

// The table of a build's kernels by name ("transposePadded<32>", no spaces, no namespaces).
class ResourceTable {
 public:
  const KernelResources* Find(std::string_view kernel) const;
  const std::string& compiler() const { return compiler_; }  // "nvcc 13.0, -arch=sm_90"
  int arch() const { return arch_; }  // 90 for "-arch=sm_90" in compiler(); 0 when not said
  std::size_t size() const { return kernels_.size(); }

 private:
  friend Status ParseResourceTable(std::string_view text, ResourceTable* out);
  std::string compiler_;
  int arch_ = 0;
  std::map<std::string, KernelResources, std::less<>> kernels_;
};

// One kernel a line: "name registers stack_bytes spill_store_bytes spill_load_bytes
// shared_bytes barriers"; '#' starts a comment, and "# compiler: X" names the compiler. A line
// that is not that is refused with its number; so is a kernel named twice.
Status ParseResourceTable(std::string_view text, ResourceTable* out);

// ptxas's report (nvcc --resource-usage, or -Xptxas -v) on a program's own kernels, as a table:
// each entry function by KernelKey of its demangled name ("void tiled<16>(float*)" ->
// "tiled<16>"), with its registers, stack frame, spills, static shared memory and barriers;
// `source` says where they come from ("ptxas, sm_90"). Lines it does not know are passed over.
//   "ptxas info : Compiling entry function '_Z3addPfPKfi' for 'sm_90'"
//   "ptxas info : Function properties for _Z3addPfPKfi"
//   "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads"
//   "ptxas info : Used 10 registers, used 0 barriers, 1088 bytes smem"
std::map<std::string, KernelResources, std::less<>> ParsePtxasReport(std::string_view text,
                                                                     const std::string& source);
// The figures of the kernel a launch names (as a program's launch list writes it): by its key,
// or else by its name without template arguments where exactly one kernel has that name.
const KernelResources* FindKernelResources(
    const std::map<std::string, KernelResources, std::less<>>& table, std::string_view kernel);

// A kernel's name as the tables hold it: the function's name and template arguments, with the
// namespaces, parameters and spaces taken out: "ws::lessons::m::Tiled<16, 2>" -> "Tiled<16,2>".
std::string KernelKey(std::string_view qualified_name);
// The same from a compiled symbol ("_Z6tiledILi16EEvPf" -> "tiled<16>"; extern "C" as written).
std::string KernelKeyOfSymbol(const std::string& symbol);

}  // namespace ws
