// SVG figures of a run (see svg_figures.h): the plots (time against a parameter, bandwidth,
// occupancy) and the layout table; the memory figures are in svg_figures.cpp, the writing of SVG
// in svg_doc.cpp. Index:
//   [SECTION] Timing plot
//   [SECTION] Occupancy graphs
//   [SECTION] Layout table
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <string>
#include <vector>

#include "svg_doc.h"
#include "warpscope/trace/layout_table.h"
#include "warpscope/trace/lesson_figures.h"
#include "warpscope/viz/svg_figures.h"

namespace ws {

using namespace svg;

// [SECTION] Timing plot ---------------------------------------------------------------------------

std::string SvgTimingPlot(const TimingPlotData& plot) {
  // The points drawn: finite, and positive x on a log axis; each series by x.
  std::vector<std::vector<std::pair<double, double>>> series;
  double xlo = 0, xhi = 0, yhi = 0;
  bool any = false;
  for (const TimingSeries& s : plot.series) {
    std::vector<std::pair<double, double>> p;
    for (const auto& [x, y] : s.points) {
      if (!std::isfinite(x) || !std::isfinite(y) || (plot.log_x && x <= 0)) continue;
      p.emplace_back(x, y);
      xlo = any ? std::min(xlo, x) : x;
      xhi = any ? std::max(xhi, x) : x;
      yhi = any ? std::max(yhi, y) : y;
      any = true;
    }
    std::stable_sort(p.begin(), p.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    series.push_back(std::move(p));
  }
  if (!any) return "";
  double ylo = 0;
  for (const auto& p : series) {
    for (const auto& pt : p) ylo = std::min(ylo, pt.second);
  }
  Axes a;
  a.left = 80;
  a.top = 48;
  a.width = 560;
  a.height = 300;
  a.log_x = plot.log_x;
  a.FitX(xlo, xhi, 8);
  a.FitY(ylo, yhi > ylo ? yhi : ylo + 1, 6);
  SvgDoc d(820, 400,
           plot.title.empty() ? Cat(plot.y_label, " against ", plot.x_label) : plot.title);
  d.Text(20, 24, plot.title, 15, kText, "start", " font-weight=\"bold\"");
  DrawAxes(d, a, plot.log_x ? Cat(plot.x_label, ", log2 scale") : plot.x_label, plot.y_label, "");
  for (std::size_t i = 0; i < series.size(); ++i) {
    // The warp palette without its yellow, which does not read on white.
    static constexpr std::uint32_t kSeriesColour[] = {1, 4, 5, 0, 6, 3, 7};
    const std::string c = Hex(Warp(kSeriesColour[i % std::size(kSeriesColour)]));
    std::string points;
    for (const auto& [x, y] : series[i]) {
      if (!points.empty()) points += ' ';
      points += Num(a.X(x)) + "," + Num(a.Y(y));
    }
    if (series[i].size() > 1)
      d.Raw(Cat("<polyline class=\"series\"", Attr("data-name", plot.series[i].name), " points=\"",
                points, "\" fill=\"none\" stroke=\"", c, "\" stroke-width=\"2\"/>\n"));
    for (const auto& [x, y] : series[i]) {
      d.Raw(Cat("<circle class=\"point\" cx=\"", Num(a.X(x)), "\" cy=\"", Num(a.Y(y)),
                "\" r=\"3.5\" fill=\"", c, "\"><title>",
                Escape(Cat(plot.series[i].name, ": ", Num(x), ", ", Num(y))),
                "</title></circle>\n"));
    }
    // The legend, right of the plot.
    const double ly = a.top + 10 + static_cast<double>(i) * 20;
    d.Line(a.left + a.width + 20, ly, a.left + a.width + 44, ly, c, 2);
    d.Text(a.left + a.width + 50, ly + 4, plot.series[i].name, 11, kText);
  }
  return d.Finish();
}

// [SECTION] Occupancy graphs ----------------------------------------------------------------------

std::string SvgBandwidthPlot(const LessonRun& run) {
  const TransferFigures* f = run.figures_as<TransferFigures>();
  if (f == nullptr || f->sweep.empty()) return "";
  TimingPlotData plot;
  plot.title = "Copy bandwidth against size on " + run.device;
  plot.x_label = "bytes copied";
  plot.y_label = "GB/s";
  plot.log_x = true;
  plot.series = {{"to GPU, pinned", {}},
                 {"to GPU, pageable", {}},
                 {"to host, pinned", {}},
                 {"to host, pageable", {}}};
  for (const TransferPoint& p : f->sweep) {
    plot.series[0].points.emplace_back(p.bytes, p.h2d_pinned);
    plot.series[1].points.emplace_back(p.bytes, p.h2d_pageable);
    plot.series[2].points.emplace_back(p.bytes, p.d2h_pinned);
    plot.series[3].points.emplace_back(p.bytes, p.d2h_pageable);
  }
  return SvgTimingPlot(plot);
}

std::string SvgOccupancyGraphs(const LessonRun& run) {
  const OccupancyFigures* f = run.figures_as<OccupancyFigures>();
  if (f == nullptr) return "";
  // The run's input (a file from before it was kept: -1, and no mark).
  auto mark = [](int v) { return static_cast<double>(v); };
  struct Graph {
    const char* what;
    const char* title;
    const char* x_label;
    const std::vector<OccupancyPoint>* points;
    double now;
  };
  const Graph graphs[3] = {
      {"threads", "Threads per block", "threads per block", &f->vary_threads, mark(f->threads)},
      {"registers", "Registers per thread", "registers per thread", &f->vary_registers,
       mark(f->registers)},
      {"shared", "Shared memory per block", "shared memory per block (B)", &f->vary_shared,
       mark(f->shared_bytes)}};
  const double percent = f->occupancy * 100;
  const std::string summary =
      Cat("Occupancy on ", f->device, ": ", Num(percent), " % (", std::to_string(f->active_blocks),
          " blocks, ", std::to_string(f->active_warps), " warps per SM; ", f->limiter, " bind)");
  SvgDoc d(990, 330, summary);
  d.Text(20, 24, summary, 15, kText, "start", " font-weight=\"bold\"");
  d.Text(20, 42,
         "Each graph varies one input and keeps the others; the run's input is marked. Every x "
         "from the previous point up to a point's x allocates like that point (stairs).",
         10, kDim);
  for (int g = 0; g < 3; ++g) {
    const Graph& gr = graphs[g];
    Axes a;
    a.left = 70 + g * 320.0;
    a.top = 80;
    a.width = 240;
    a.height = 180;
    double xmax = std::max(1.0, gr.now);
    for (const OccupancyPoint& p : *gr.points) xmax = std::max(xmax, static_cast<double>(p.x));
    a.FitX(0, xmax, 4);
    a.FitY(0, 100, 5);
    DrawAxes(d, a, gr.x_label, "occupancy (%)", gr.title);
    // Stairs: a point's y holds from the previous point's x up to its own.
    std::string points;
    double prev_x = 0;
    for (std::size_t i = 0; i < gr.points->size(); ++i) {
      const OccupancyPoint& p = (*gr.points)[i];
      const double y = a.Y(p.occupancy * 100);
      if (!points.empty()) points += ' ';
      points += Num(a.X(i == 0 ? p.x : prev_x)) + "," + Num(y) + " " + Num(a.X(p.x)) + "," + Num(y);
      prev_x = p.x;
    }
    if (!points.empty())
      d.Raw(Cat("<polyline class=\"curve\" data-graph=\"", gr.what, "\" data-points=\"",
                Int(gr.points->size()), "\" points=\"", points, "\" fill=\"none\" stroke=\"",
                Hex(Warp(1)), "\" stroke-width=\"2\"/>\n"));
    if (gr.now >= 0) {
      const std::string c = Hex(Warp(4));
      d.Line(a.X(gr.now), a.top, a.X(gr.now), a.top + a.height, c, 1.5,
             " stroke-dasharray=\"4 3\"");
      d.Raw(Cat("<circle class=\"current\" data-graph=\"", gr.what, "\" data-x=\"", Num(gr.now),
                "\" data-y=\"", Num(percent), "\" cx=\"", Num(a.X(gr.now)), "\" cy=\"",
                Num(a.Y(percent)), "\" r=\"4.5\" fill=\"", c, "\"/>\n"));
      d.Text(a.X(gr.now) + 6, a.Y(percent) - 6, Num(percent) + " %", 10, c);
    }
  }
  return d.Finish();
}

// [SECTION] Layout table --------------------------------------------------------------------------

namespace {

const char* LayoutName(LayoutKind k) {
  return k == LayoutKind::kMorton  ? "Morton (Z-order)"
         : k == LayoutKind::kTiled ? "tiled"
                                   : "row-major";
}

std::string LayoutTable(const Layout2D& layout, const std::string& caption) {
  if (!CheckLayout(layout).ok()) return "";
  constexpr int kMaxShown = 64;  // as the layout view: at most 64 x 64 cells
  const int sw = std::min(layout.width, kMaxShown), sh = std::min(layout.height, kMaxShown);
  std::uint64_t widest = 0;
  std::vector<std::uint64_t> pos(static_cast<std::size_t>(sw) * static_cast<std::size_t>(sh));
  for (int y = 0; y < sh; ++y) {
    for (int x = 0; x < sw; ++x) {
      pos[static_cast<std::size_t>(y * sw + x)] = layout.Index(x, y);
      widest = std::max(widest, layout.Index(x, y));
    }
  }
  const double cell = std::max(20.0, 6.5 * static_cast<double>(Int(widest).size()) + 8);
  // A line for the caption (the run it follows), one for the note, then the table.
  const double left = 56, note_y = caption.empty() ? 40 : 54, top = note_y + 46;
  std::string what = std::string(LayoutName(layout.kind));
  if (layout.kind == LayoutKind::kTiled)
    what += Cat(" ", Int(layout.tile_w), "x", Int(layout.tile_h), " tiles of ", Int(layout.micro_w),
                "x", Int(layout.micro_h));
  const std::string title =
      Cat("Memory order of a ", Int(layout.width), "x", Int(layout.height), " image, ", what);
  SvgDoc d(std::max(left + sw * cell + 30, 560.0), top + sh * cell + 30,
           caption.empty() ? title : Cat(title, " (", caption, ")"));
  d.Text(20, 22, title, 15, kText, "start", " font-weight=\"bold\"");
  if (!caption.empty()) d.Text(20, 40, caption, 10, kDim);
  std::string note = "Each cell: the pixel's memory position (element index; x 4 B for floats).";
  if (sw < layout.width || sh < layout.height)
    note += Cat(" The top-left ", Int(sw), "x", Int(sh), " is shown.");
  d.Text(20, note_y, note, 10, kDim);
  d.Text(left + sw * cell / 2, note_y + 22, "x (pixels)", 11, kDim, "middle");
  d.VerticalText(18, top + sh * cell / 2, "y (pixels)", 11);
  const int every = cell >= 20 ? 1 : 4;
  for (int x = 0; x < sw; x += every)
    d.Text(left + (x + 0.5) * cell, top - 6, std::to_string(x), 9, kDim, "middle");
  for (int y = 0; y < sh; y += every)
    d.Text(left - 6, top + (y + 0.5) * cell + 3, std::to_string(y), 9, kDim, "end");
  const double n = static_cast<double>(std::max<std::uint64_t>(widest, 1));
  for (int y = 0; y < sh; ++y) {
    for (int x = 0; x < sw; ++x) {
      const std::uint64_t p = pos[static_cast<std::size_t>(y * sw + x)];
      // Pale heat by memory position: near in memory, near in colour.
      const Rgb fill = Mix({255, 255, 255}, Heat(static_cast<double>(p) / n), 0.55);
      const double cx = left + x * cell, cy = top + y * cell;
      d.Rect(cx, cy, cell - 1, cell - 1, Hex(fill),
             Cat(" class=\"cell\" data-x=\"", std::to_string(x), "\" data-y=\"", std::to_string(y),
                 "\" data-position=\"", Int(p), "\""));
      d.Text(cx + (cell - 1) / 2, cy + cell / 2 + 3, Int(p), 9, TextOn(fill), "middle");
    }
  }
  if (layout.kind == LayoutKind::kTiled) {  // tile borders: each tile is one run of memory
    for (int x = layout.tile_w; x < sw; x += layout.tile_w)
      d.Line(left + x * cell - 0.5, top, left + x * cell - 0.5, top + sh * cell, kText, 1.5);
    for (int y = layout.tile_h; y < sh; y += layout.tile_h)
      d.Line(left, top + y * cell - 0.5, left + sw * cell, top + y * cell - 0.5, kText, 1.5);
  }
  return d.Finish();
}

}  // namespace

std::string SvgLayoutTable(const Layout2D& layout) {
  return LayoutTable(layout, "");
}

std::string SvgLayoutTable(const LessonRun& run) {
  const Texture2DFigures* f = run.figures_as<Texture2DFigures>();
  if (f == nullptr) return "";
  auto kind = ParseLayoutKind(f->layout);
  if (!kind.ok()) return "";
  const Layout2D layout{*kind,          f->width,       f->height,      f->tile_width,
                        f->tile_height, f->micro_width, f->micro_height};
  return LayoutTable(layout, Cat(run.lesson, " / ", run.variant, ": the kernel read through ",
                                 f->read_space.empty() ? "?" : f->read_space, " memory"));
}

}  // namespace ws
