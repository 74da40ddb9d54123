// SVG figures of a run, for lecture notes: the same pictures the views draw, written as plain SVG
// text with no display (no ImGui, no GL), so a headless build and the tests can make them.
//
//   auto run = ws::RunLesson(id, variant, params, "emu", {});  // or a trace, or the app's run
//   std::string svg = ws::SvgCoalescingStrip(*run, site);    // site: index into the sites
//   if (!svg.empty()) std::ofstream("strip.svg") << svg;
//
// Every function returns a whole SVG document (<svg xmlns=... width height viewBox>, a <title>,
// axis labels with units, readable on white), or "" when the run has nothing for that figure (no
// launch, a site of the wrong memory space, block 0's records not kept, no figures of the kind).
// Output is deterministic: the same run gives the same bytes (numbers formatted without the
// locale, no time, no pointers), so notes built twice do not differ.
//
// Pitfalls:
//   - `site` is an index into run.main_launch().sites (as the views' selection), not a line.
//   - The strip and the heatmap read block 0's full records: a run must keep block 0 (the
//     default RunOptions do).
//   - Elements carry class names and data-* attributes ("sector", "cell" with data-words...)
//     so that tests and the notes' stylesheet can find them; they are part of the format.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "warpscope/trace/layout.h"
#include "warpscope/trace/lesson_run.h"

namespace ws {

// [SECTION] Global memory: one warp request and the 32-byte sectors it makes
// The first request of global-memory (or constant/texture) site `site` in block 0: 32 lane boxes
// wired to the bytes they touch in a strip of memory (the 128-byte lines touched, gaps where
// memory is skipped), and one rect per 32-byte sector under it (class "sector"). The title says
// "N sectors, B bytes moved for A asked".
std::string SvgCoalescingStrip(const LessonRun& run, std::size_t site);
std::string SvgCoalescingStrip(const LaunchTrace& t, std::size_t site);  // of launch t

// [SECTION] Shared memory: bank conflicts
// Shared-memory site `site` in block 0: 32 bank columns against the block's warp requests at
// that site (rows, in (iteration, warp) order; at most 256); colour and data-words = distinct
// 4-byte words the request needs from that bank (1: no conflict, 32: a 32-way conflict).
std::string SvgBankHeatmap(const LessonRun& run, std::size_t site);
std::string SvgBankHeatmap(const LaunchTrace& t, std::size_t site);  // of launch t

// [SECTION] Timing: time against a parameter
// What the timing view plots, filled by the caller: one series per variant.
struct TimingSeries {
  std::string name;                               // "naive"
  std::vector<std::pair<double, double>> points;  // (parameter, time); any order, drawn by x
};
struct TimingPlotData {
  std::string title;    // "transpose: time against width"
  std::string x_label;  // with its unit: "width (floats)"
  std::string y_label;  // "time (ms, modeled)"
  bool log_x = false;   // a log2 x axis (sweeps by doublings); x <= 0 is then left out
  std::vector<TimingSeries> series;
};
// Lines with a marker per point and a legend; "" when no series has a finite point.
std::string SvgTimingPlot(const TimingPlotData& plot);

// [SECTION] Transfers: copy bandwidth against size
// The transfers run's sweep: GB/s against bytes copied (log2 axis), host to GPU and back, pinned
// and pageable, as the transfers view plots it; "" for a run without transfer figures.
std::string SvgBandwidthPlot(const LessonRun& run);

// [SECTION] Occupancy: the slides' three graphs
// The occupancy lesson's vary_threads, vary_registers and vary_shared curves as three small
// stair plots (occupancy in % against each input), the run's own input marked; "" for a run
// without occupancy figures.
std::string SvgOccupancyGraphs(const LessonRun& run);

// [SECTION] Layouts: the memory-order table
// The texture-2d run's image under the layout its kernel read through (row-major for the global
// variant): every pixel's memory position written in its cell, the top-left 64 x 64 at most;
// "" for a run without texture-2d figures.
std::string SvgLayoutTable(const LessonRun& run);
// The same table for any layout (the layout view's own, the slides' 24 x 16); "" when the layout
// is refused (CheckLayout).
std::string SvgLayoutTable(const Layout2D& layout);

}  // namespace ws
