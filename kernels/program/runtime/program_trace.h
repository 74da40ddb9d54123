// What both program runtimes (libws_program_emu, libws_program_cuda) do with a finished launch
// and with the whole run: name the launch's sites after the rewriter's numbers, and write the
// launches to the trace file the parent reads (program.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "warpscope/trace/launch.h"

namespace ws::prog {

inline constexpr std::size_t kMaxLaunchesWithRecords = 32;

// An access's place is its site number (bits 16..31) and line: gives each site its columns (from
// the rewriter's table, `SiteDesc` as the shim declares it) and every site, barrier and warp
// meeting the program's file.
template <typename SiteDesc>
void NameProgramSites(LaunchTrace& t, const std::vector<SiteDesc>& sites, const std::string& file,
                      std::uint16_t file_tag) {
  for (SiteInfo& s : t.sites) {
    const std::uint32_t site = s.file_tag;
    if (site >= 1 && site <= sites.size()) {
      s.column = static_cast<std::uint16_t>(sites[site - 1].column);
      s.end_column = static_cast<std::uint16_t>(sites[site - 1].end_column);
    }
    s.file_tag = file_tag;
    s.file = file;
  }
  for (BarrierSite& b : t.barrier_sites) b.file = file;
  for (WarpOpSite& w : t.warp_op_sites) w.file = file;
}

struct ProgramRun {
  std::string file, backend, preset, error;
  std::size_t launches_without_records = 0;
  std::vector<LaunchTrace> launches;
};

// Keeps `t`; past kMaxLaunchesWithRecords launches only its figures are kept.
void KeepLaunch(std::vector<LaunchTrace>& launches, std::size_t& launches_without_records,
                LaunchTrace t);
// Writes `run` to the file named by WS_PROGRAM_OUT (nothing when it is not set).
void WriteProgramRun(ProgramRun& run);

}  // namespace ws::prog
