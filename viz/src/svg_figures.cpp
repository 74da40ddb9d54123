// SVG figures of a run (see svg_figures.h): the memory figures, drawn as the coalescing and banks
// views draw them; the plots and the layout table are in svg_plots.cpp, the writing of SVG in
// svg_doc.cpp. Index:
//   [SECTION] Coalescing strip
//   [SECTION] Bank heatmap
#include "warpscope/viz/svg_figures.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "svg_doc.h"
#include "warpscope/trace/block_view.h"
#include "warpscope/trace/request.h"
#include "warpscope/viz/strip_layout.h"

namespace ws {

using namespace svg;

// [SECTION] Coalescing strip ---------------------------------------------------------------------

namespace {

// The strip's frame: the document's width and height, its left margin, the strip's width; the
// lanes' row and the memory strip's.
constexpr double kStripDocW = 960, kStripDocH = 290, kStripL = 20,
                 kStripW = kStripDocW - 2 * kStripL;
constexpr double kLaneW = kStripW / 32, kLaneY = 64, kLaneH = 22;
constexpr double kMemY = 170, kMemH = 26;

// Lanes: 32 boxes across the top, filled where the lane made the access.
void StripLanes(SvgDoc& d, const BlockRequest& req, Rgb colour) {
  bool active[32] = {};
  for (const LaneAccess& l : req.lanes) active[l.lane & 31] = true;
  for (int lane = 0; lane < 32; ++lane) {
    const double x = kStripL + lane * kLaneW + 1;
    d.Rect(x, kLaneY, kLaneW - 2, kLaneH, active[lane] ? Hex(colour) : "#ffffff",
           active[lane] ? std::string(" class=\"lane\"")
                        : Cat(" class=\"lane\" stroke=\"", kGrid, "\""));
    d.Text(x + (kLaneW - 2) / 2, kLaneY + 15, std::to_string(lane), 10,
           active[lane] ? TextOn(colour) : kDim, "middle");
  }
  d.Text(kStripL, kLaneY - 6, "the warp's 32 lanes (filled: the lanes that made the access)", 10,
         kDim);
}

// Memory: the touched 128-byte lines, sector boundaries thin and line boundaries thick, and the
// offsets from the buffer's start (`base`) at each line, where there is room to write them.
void StripMemory(SvgDoc& d, const StripLayout& strip, std::uint64_t base) {
  for (const StripLayout::Window& w : strip.windows) {
    const double x0 = kStripL + w.x;
    d.Rect(x0, kMemY, static_cast<double>(w.hi - w.lo) * strip.px_per_byte, kMemH, "#e1e1e8",
           " class=\"memory\"");
    for (std::uint64_t a = w.lo; a <= w.hi; a += 32) {
      double x = 0;
      if (!strip.X(a, &x)) continue;
      const bool line = a % 128 == 0;
      d.Line(kStripL + x, kMemY - (line ? 4 : 0), kStripL + x, kMemY + kMemH,
             line ? kText : "#a0a0aa", line ? 1.5 : 0.75);
    }
  }
  // Offsets from the buffer's start at each line, where there is room to write them.
  double label_end = -1e9;
  for (const StripLayout::Window& w : strip.windows) {
    for (std::uint64_t a = w.lo; a < w.hi; a += 128) {
      double x = 0;
      if (!strip.X(a, &x)) continue;
      const std::string label = Cat("+", Int(a - std::min(a, base)));
      if (kStripL + x < label_end) continue;
      d.Text(kStripL + x + 2, kMemY + kMemH + 12, label, 9, kDim);
      label_end = kStripL + x + 6.0 * static_cast<double>(label.size()) + 8;
    }
  }
}

// Each lane's bytes, and a wire from the lane to them.
void StripLaneBytes(SvgDoc& d, const StripLayout& strip, const BlockRequest& req, Rgb colour) {
  for (const LaneAccess& l : req.lanes) {
    double x0 = 0, x1 = 0;
    if (!strip.X(l.address, &x0) || !strip.X(l.address + l.size, &x1)) continue;
    const double inset = x1 - x0 > 4 ? 0.5 : 0;
    d.Rect(kStripL + x0 + inset, kMemY + 3, std::max(x1 - x0 - 2 * inset, 1.0), kMemH - 6,
           Hex(colour), " class=\"bytes\"");
    d.Line(kStripL + (l.lane + 0.5) * kLaneW, kLaneY + kLaneH, kStripL + (x0 + x1) / 2, kMemY,
           Hex(colour), 1, " class=\"wire\" stroke-opacity=\"0.7\"");
  }
}

// The sectors: one rect per 32-byte sector the request needs (one transaction each), and the
// two lines of legend under them.
void StripSectors(SvgDoc& d, const StripLayout& strip, const std::vector<Segment>& sectors,
                  std::uint64_t base) {
  const double sec_y = kMemY + kMemH + 22, sec_h = 16;
  int k = 0;
  for (const Segment& s : sectors) {
    double x0 = 0, x1 = 0;
    if (!strip.X(s.address, &x0) || !strip.X(s.address + s.bytes, &x1)) continue;
    d.Rect(
        kStripL + x0 + 0.5, sec_y, std::max(x1 - x0 - 1, 1.0), sec_h,
        Hex(Heat(0.25 + 0.6 * (k % 4) / 3.0)), " class=\"sector\"",
        Cat("sector at +", Int(s.address - std::min(s.address, base)), ", ", Int(s.bytes), " B"));
    ++k;
  }
  d.Text(kStripL, sec_y + sec_h + 18,
         "Strip: global memory, in bytes from the buffer's start (thick lines: 128-byte lines; "
         "gaps: memory skipped), each lane's bytes in its colour.",
         10, kDim);
  d.Text(kStripL, sec_y + sec_h + 32,
         Cat("Bars under it: the 32-byte sectors the request needs (", Int(sectors.size()),
             "); each is moved whole, one transaction."),
         10, kDim);
}

}  // namespace

std::string SvgCoalescingStrip(const LessonRun& run, std::size_t site) {
  return run.has_launch() ? SvgCoalescingStrip(run.main_launch(), site) : std::string();
}

std::string SvgCoalescingStrip(const LaunchTrace& t, std::size_t site) {
  if (site >= t.sites.size() || t.sites[site].space == MemorySpace::kShared) return "";
  const BlockView bv = BuildBlockView(t, 0);
  const int index = bv.FindRequest(static_cast<int>(site), -1);
  if (index < 0) return "";
  const BlockRequest& req = bv.requests[static_cast<std::size_t>(index)];
  const std::vector<Segment> sectors = GranuleSegments(req.lanes, 32);
  std::uint64_t moved = 0;
  for (const Segment& s : sectors) moved += s.bytes;
  const std::uint32_t asked = UniqueBytes(req.lanes), ideal = IdealSectors(req.lanes);
  const SiteInfo& si = t.sites[site];
  const std::uint64_t base = si.buffer < t.buffers.size() ? t.buffers[si.buffer].base : 0;

  const std::string headline =
      Cat(Int(sectors.size()), " sectors, ", Int(moved), " bytes moved for ", Int(asked), " asked");
  const std::string title = Cat("Coalescing: ", SiteLabel(t, site), ": ", headline);
  SvgDoc d(kStripDocW, kStripDocH, title);
  d.Text(kStripL, 22, headline, 16, kText, "start", " font-weight=\"bold\"");
  d.Text(kStripL, 40,
         Cat(SiteLabel(t, site), "; block 0, warp ", Int(req.warp), ", iteration ",
             Int(req.iteration), ", ", Int(req.lanes.size()), " lanes; ideal ", Int(ideal),
             " sectors (", Num(moved ? 100.0 * asked / static_cast<double>(moved) : 0.0),
             " % of the moved bytes used)"),
         11, kDim);
  const Rgb colour = Warp(req.warp);
  StripLanes(d, req, colour);
  // Memory: the touched 128-byte lines, sector boundaries thin and line boundaries thick.
  std::vector<std::uint64_t> lines;
  for (const LaneAccess& l : req.lanes) {
    for (std::uint64_t a = l.address / 128; a <= (l.address + l.size - 1) / 128; ++a)
      lines.push_back(a);
  }
  const StripLayout strip = StripLayout::Of(lines, kStripW);
  StripMemory(d, strip, base);
  StripLaneBytes(d, strip, req, colour);
  StripSectors(d, strip, sectors, base);
  return d.Finish();
}

// [SECTION] Bank heatmap --------------------------------------------------------------------------

std::string SvgBankHeatmap(const LessonRun& run, std::size_t site) {
  return run.has_launch() ? SvgBankHeatmap(run.main_launch(), site) : std::string();
}

std::string SvgBankHeatmap(const LaunchTrace& t, std::size_t site) {
  if (site >= t.sites.size() || t.sites[site].space != MemorySpace::kShared) return "";
  const BlockView bv = BuildBlockView(t, 0);
  std::vector<const BlockRequest*> rows;
  std::size_t total = 0;
  for (const BlockRequest& r : bv.requests) {
    if (r.site != site) continue;
    ++total;
    if (rows.size() < 256) rows.push_back(&r);
  }
  if (rows.empty()) return "";
  std::vector<std::vector<std::uint32_t>> words;
  std::uint32_t most = 0;
  for (const BlockRequest* r : rows) {
    words.push_back(WordsPerBank(r->lanes, 32));
    for (const std::uint32_t w : words.back()) most = std::max(most, w);
  }

  constexpr double kLeft = 86, kTop = 78, kCell = 22, kLegendX = kLeft + 32 * kCell + 30;
  const double row_h = rows.size() <= 64 ? 16 : rows.size() <= 128 ? 8 : 4;
  const double grid_h = row_h * static_cast<double>(rows.size());
  const double height = std::max(kTop + grid_h + 56, kTop + 250);
  const std::string headline =
      Cat("worst ", Int(most), "-way: up to ", Int(most), " distinct words from one bank");
  SvgDoc d(kLegendX + 120, height, Cat("Banks: ", SiteLabel(t, site), ", block 0: ", headline));
  d.Text(20, 22, Cat("Shared-memory banks: ", headline), 16, kText, "start",
         " font-weight=\"bold\"");
  d.Text(20, 40,
         SiteLabel(t, site) + "; block 0, " + Int(total) + " warp requests at this site" +
             (total > rows.size() ? Cat(" (the first ", Int(rows.size()), " drawn)") : ""),
         11, kDim);
  for (int b = 0; b < 32; ++b)
    d.Text(kLeft + (b + 0.5) * kCell, kTop - 6, std::to_string(b), 9, kDim, "middle");
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const double y = kTop + static_cast<double>(r) * row_h;
    if (row_h >= 12)
      d.Text(kLeft - 6, y + row_h - 4, Cat("w", Int(rows[r]->warp), ".", Int(rows[r]->iteration)),
             10, kDim, "end");
    for (int b = 0; b < 32; ++b) {
      const std::uint32_t w = words[r][static_cast<std::size_t>(b)];
      const Rgb fill = Heat(DegreeHeat(w));
      d.Rect(kLeft + b * kCell, y, kCell - 1, row_h - (row_h >= 8 ? 1 : 0),
             w == 0 ? kEmpty : Hex(fill),
             Cat(" class=\"cell\" data-request=\"", Int(r), "\" data-bank=\"", std::to_string(b),
                 "\" data-words=\"", Int(w), "\""));
      if (w > 1 && row_h >= 12)
        d.Text(kLeft + (b + 0.5) * kCell, y + row_h - 4, Int(w), 9, TextOn(fill), "middle");
    }
  }
  d.Text(kLeft + 16 * kCell, kTop + grid_h + 20, "bank (4-byte words; bank = word index mod 32)",
         11, kDim, "middle");
  d.VerticalText(24, kTop + grid_h / 2, "warp request (warp.iteration)", 11);
  // The key: the degrees' colours.
  d.Text(kLegendX, kTop - 6, "words per bank", 10, kDim);
  int i = 0;
  for (const std::uint32_t w : {0u, 1u, 2u, 4u, 8u, 16u, 32u}) {
    const double y = kTop + i++ * 20.0;
    d.Rect(kLegendX, y, 18, 16, w == 0 ? kEmpty : Hex(Heat(DegreeHeat(w))));
    d.Text(kLegendX + 24, y + 12,
           w == 0   ? "0 (unused)"
           : w == 1 ? "1 (no conflict)"
                    : Int(w) + "-way",
           10, kText);
  }
  return d.Finish();
}

}  // namespace ws
