// The compiled kernels' shared-memory instructions by source line: where nvcc serves a line's
// shared loads or stores wider than the source writes them (an unrolled `As[ty][k]` read four
// floats at a time by one LDS.128), so that the figures count the instructions the hardware runs
// (SiteInfo::compiled_width), as Nsight Compute does.
//
// The listing comes from `nvdisasm -g -c` on the program's kernels compiled as written with
// -lineinfo (which changes no instruction: the same SASS with and without it for the corpus's
// programs on nvcc 13, gpu_in's check in docs/ncu-agreement.md):
//
//   //--------------------- .text._Z6kernelPf --------------------------
//   	//## File "/tmp/x/0/matmul.cu", line 40
//           /*02c0*/                   LDS.128 R20, [R7] ;
//
//   CompiledCode code = CompiledCode::FromDisassembly(listing);
//   code.SharedWidth("kernel", "matmul.cu", 40, /*store=*/false) == 16
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "warpscope/trace/analysis.h"
#include "warpscope/trace/records.h"
#include "warpscope/trace/status.h"

namespace ws {

class CompiledCode {
 public:
  // Widths as bits: bit k for 2^k bytes (1 to 16).
  struct Line {
    std::uint8_t loads = 0, stores = 0;
    friend bool operator==(const Line&, const Line&) = default;
  };

  // nvdisasm's listing (-g: each instruction under the line it came from). Functions are keyed
  // by KernelKey of their demangled names; LDS/STS by their width suffix (.U8, .S16, .64, .128;
  // none: 4 bytes), never-run ones (@!PT) and LDSM (ldmatrix) left out.
  static CompiledCode FromDisassembly(std::string_view listing);
  // The table form (Table()): one line a (kernel, file, line), tab-separated:
  // "kernel\tfile\tline\tloads\tstores" with the widths' bits as numbers. Refuses a malformed line
  // with its number.
  static Result<CompiledCode> FromTable(std::string_view table);
  // Lines with a shared load or store of at least `min_width` bytes.
  std::string Table(std::uint32_t min_width = 1) const;
  void Merge(const CompiledCode& other);

  // The widest shared load (or store) the compiled `kernel` makes at `line` of `file`, in bytes
  // (0: none there, or the kernel or file is not in the listing). `kernel` as a launch names it:
  // by its key, or its name without template arguments where one kernel has that name. `file`
  // as the program names it ("matmul.cu", "common/tile.h"): the listing's path is that, or ends
  // with "/" and it.
  std::uint32_t SharedWidth(std::string_view kernel, std::string_view file, std::uint32_t line,
                            bool store) const;
  bool empty() const { return lines_.empty(); }
  std::size_t size() const { return lines_.size(); }

 private:
  // (kernel key, line) -> the listing's files at that line and their widths.
  std::map<std::tuple<std::string, std::uint32_t>, std::vector<std::pair<std::string, Line>>,
           std::less<>>
      lines_;
  void Add(const std::string& kernel, std::uint32_t line, const std::string& file, Line widths);
  const std::string* KernelOf(std::string_view kernel) const;
};

// The width a site gets from `code` (SiteInfo::compiled_width): the compiled line's widest
// shared load or store where it is wider than the site's accesses (2, 4, 8 or 16), else 0. Only
// a shared load or store that is not an asynchronous copy's write.
std::uint8_t CompiledWidthOf(const CompiledCode& code, std::string_view kernel,
                             const SiteInfo& site);

// The instruction a compiled width stands for: "LDS.128", "STS.64", "LDS.U16".
std::string CompiledInstruction(const SiteInfo& site);

// Whether any request of `site` was costed as a compiled run (its first place, a request of the
// compiled width): false where every request's lanes lay at different places of a run (at a line
// whose wide instructions are another site's: Nds[k][tx] beside Mds[ty][k]).
bool CompiledRunsMet(const SiteInfo& site, const SiteStats& stats);

// The report's words on such a site ("" where no run was met): "as compiled, LDS.128: the source's
// 8,192 requests are 2,048 of 16 bytes a lane" (and where some lanes lay at different places of a
// run, how many requests were costed as the source's).
std::string CompiledWidthText(const SiteInfo& site, const SiteStats& stats);

}  // namespace ws
