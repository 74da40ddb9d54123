// The GPU's own counters for a program run as written (kernel_counters.cpp), started by the
// kernel timer's injection entry point (kernel_timer.cpp) where WS_KERNEL_COUNTERS names a file.
#pragma once

namespace ws::prog {

// Opens `path` and asks CUPTI for every launch; false where neither could be done (the file, if
// opened, says why).
bool StartKernelCounters(const char* path);

}  // namespace ws::prog
