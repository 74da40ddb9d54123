#include "program_trace.h"

#include <cstdlib>
#include <iostream>

#include "warpscope/trace/trace_file.h"

namespace ws::prog {

void KeepLaunch(std::vector<LaunchTrace>& launches, std::size_t& launches_without_records,
                LaunchTrace t) {
  if (launches.size() >= kMaxLaunchesWithRecords) {
    t.blocks.clear();
    t.thread_active.clear();
    ++launches_without_records;
  }
  launches.push_back(std::move(t));
}

void WriteProgramRun(ProgramRun& run) {
  const char* out = std::getenv("WS_PROGRAM_OUT");
  if (out == nullptr) return;
  TraceContents contents;
  contents.header = {{"program", run.file},
                     {"backend", run.backend},
                     {"preset", run.preset},
                     {"launches_without_records", run.launches_without_records}};
  if (!run.error.empty()) contents.header["error"] = run.error;
  contents.launches = std::move(run.launches);
  if (Status s = WriteTraceFile(out, contents); !s.ok())
    std::cerr << "warpscope: could not write the run: " << s.message() << "\n";
}

}  // namespace ws::prog
