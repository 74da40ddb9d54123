// libFuzzer target for the trace-file loader (built with -DWARPSCOPE_FUZZ=ON and clang):
//   build/fuzz/tests/ws_trace_fuzz tests/fuzz/corpus -max_total_time=60
// Whatever the bytes, ParseTrace returns a trace or an error; the corpus holds valid traces.
#include <cstddef>
#include <cstdint>

#include "warpscope/trace/trace_file.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto r = ws::ParseTrace(std::span<const std::uint8_t>(data, size));
  if (r.ok()) {
    // Touch what the views index, so a bad index the checks missed shows up under ASan.
    for (const ws::LaunchTrace& t : r->launches) {
      for (const ws::BlockRecords& b : t.blocks) {
        for (const ws::AccessRecord& a : b.accesses) (void)t.sites.at(a.site);
      }
    }
  }
  return 0;
}
