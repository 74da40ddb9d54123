// SVG figures of a run (see svg_figures.h). Index:
//   [SECTION] Writing SVG: numbers without the locale, escaping, colours, the document
//   [SECTION] Plot axes: nice ticks, a frame with labelled axes (timing and occupancy plots)
//   [SECTION] Coalescing strip
//   [SECTION] Bank heatmap
//   [SECTION] Timing plot
//   [SECTION] Occupancy graphs
//   [SECTION] Layout table
#include "warpscope/viz/svg_figures.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <string_view>

#include "warpscope/trace/block_view.h"
#include "warpscope/trace/layout_table.h"
#include "warpscope/trace/lesson_figures.h"
#include "warpscope/trace/request.h"
#include "warpscope/viz/strip_layout.h"

namespace ws {
namespace {

// [SECTION] Writing SVG -------------------------------------------------------------------------

// A coordinate or value: fixed, at most two decimals, trailing zeros dropped ("12.5", "3"). No
// printf: std::to_chars ignores the locale, so a German desktop writes "12.5" too.
std::string Num(double v) {
  if (!std::isfinite(v)) v = 0;
  v = std::clamp(v, -1e12, 1e12);
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, 2);
  std::string s(buf, r.ptr);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

std::string Int(std::uint64_t v) {
  return std::to_string(v);
}

// Appends its parts into one string. (GCC 12 at -O3 warns, falsely, of overlapping copies in
// "literal" + std::string&&: bug 105651. Figures are built with this instead.)
template <typename... Parts>
std::string Cat(const Parts&... parts) {
  std::string s;
  (s.append(std::string_view(parts)), ...);
  return s;
}

// Text for an XML attribute or element: the five special characters as entities, and control
// characters (not allowed in XML 1.0) as spaces.
std::string Escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const char* entity = c == '&'    ? "&amp;"
                         : c == '<'  ? "&lt;"
                         : c == '>'  ? "&gt;"
                         : c == '"'  ? "&quot;"
                         : c == '\'' ? "&apos;"
                                     : nullptr;
    if (entity != nullptr)
      out += entity;
    else
      out += static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' ? ' ' : c;
  }
  return out;
}

struct Rgb {
  int r = 0, g = 0, b = 0;
};

std::string Hex(Rgb c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r & 255, c.g & 255, c.b & 255);
  return buf;
}

// The views' colours (palette.h, which needs ImGui): warps in Okabe-Ito order, the heat ramp.
constexpr std::array<Rgb, 8> kWarp = {{{230, 159, 0},
                                       {0, 114, 178},
                                       {240, 228, 66},
                                       {86, 180, 233},
                                       {213, 94, 0},
                                       {0, 158, 115},
                                       {204, 121, 167},
                                       {170, 170, 170}}};
const std::string kText = "#14161c", kDim = "#5a5e68", kGrid = "#c8c8d0", kEmpty = "#e8e8ee";

Rgb Warp(std::uint32_t warp) {
  return kWarp[warp % kWarp.size()];
}

// Sequential ramp, t in [0, 1]: dark blue -> teal -> yellow (lightness rises: reads in grey).
Rgb Heat(double t) {
  static constexpr double kStops[5][3] = {
      {68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
  t = std::clamp(t, 0.0, 1.0) * 4.0;
  const int i = std::min(3, static_cast<int>(std::floor(t)));
  const double f = t - i;
  auto mix = [&](int c) {
    return static_cast<int>(kStops[i][c] + (kStops[i + 1][c] - kStops[i][c]) * f + 0.5);
  };
  return {mix(0), mix(1), mix(2)};
}

// Ramp position of a bank conflict degree (as the banks view): 1-way low but visible, 32 top.
double DegreeHeat(std::uint32_t words) {
  return words == 0 ? 0.0 : std::min(1.0, 0.15 + 0.85 * std::log2(static_cast<double>(words)) / 5);
}

Rgb Mix(Rgb a, Rgb b, double t) {
  auto ch = [&](int x, int y) { return static_cast<int>(x + (y - x) * t + 0.5); };
  return {ch(a.r, b.r), ch(a.g, b.g), ch(a.b, b.b)};
}

// Black or white, whichever reads on `fill`.
std::string TextOn(Rgb fill) {
  return 0.299 * fill.r + 0.587 * fill.g + 0.114 * fill.b > 140 ? "#000000" : "#ffffff";
}

// One SVG document: a white background, then elements in the order they are added.
class SvgDoc {
 public:
  SvgDoc(double width, double height, const std::string& title) {
    s_ = Cat("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"", Num(width), "\" height=\"",
             Num(height), "\" viewBox=\"0 0 ", Num(width), " ", Num(height),
             "\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n");
    s_ += Cat("<title>", Escape(title), "</title>\n");
    s_ += Cat("<rect width=\"", Num(width), "\" height=\"", Num(height), "\" fill=\"#ffffff\"/>\n");
  }
  // `extra`: more attributes, written as given (" class=\"cell\""); `tip`: a hover <title>.
  void Rect(double x, double y, double w, double h, const std::string& fill,
            const std::string& extra = "", const std::string& tip = "") {
    s_ += Cat("<rect x=\"", Num(x), "\" y=\"", Num(y), "\" width=\"", Num(std::max(0.0, w)),
              "\" height=\"", Num(std::max(0.0, h)), "\" fill=\"", fill, "\"", extra);
    s_ += tip.empty() ? std::string("/>\n") : Cat("><title>", Escape(tip), "</title></rect>\n");
  }
  void Line(double x1, double y1, double x2, double y2, const std::string& stroke, double width,
            const std::string& extra = "") {
    s_ += Cat("<line x1=\"", Num(x1), "\" y1=\"", Num(y1), "\" x2=\"", Num(x2), "\" y2=\"", Num(y2),
              "\" stroke=\"", stroke, "\" stroke-width=\"", Num(width), "\"", extra, "/>\n");
  }
  void Text(double x, double y, std::string_view text, double size, const std::string& fill,
            const char* anchor = "start", const std::string& extra = "") {
    s_ += Cat("<text x=\"", Num(x), "\" y=\"", Num(y), "\" font-size=\"", Num(size), "\" fill=\"",
              fill, "\"");
    if (std::string_view(anchor) != "start") s_ += Cat(" text-anchor=\"", anchor, "\"");
    s_ += Cat(extra, ">", Escape(text), "</text>\n");
  }
  // A y-axis label, read bottom to top, centred on (x, y).
  void VerticalText(double x, double y, std::string_view text, double size) {
    Text(x, y, text, size, kDim, "middle",
         Cat(" transform=\"rotate(-90 ", Num(x), " ", Num(y), ")\""));
  }
  void Raw(const std::string& element) { s_ += element; }
  std::string Finish() { return Cat(s_, "</svg>\n"); }

 private:
  std::string s_;
};

std::string Attr(const char* name, const std::string& value) {
  return Cat(" ", name, "=\"", Escape(value), "\"");
}

// "line 18 load global idata (4 B)", "line 38 load shared (4 B)": a site, as the views name it.
std::string SiteLabel(const LaunchTrace& t, std::size_t site) {
  const SiteInfo& s = t.sites[site];
  std::string array;  // shared arrays have no name in the records
  if (s.space != MemorySpace::kShared && s.space != MemorySpace::kLocal)
    array = Cat(" ", s.buffer < t.buffers.size() ? t.buffers[s.buffer].name : "buffer");
  return Cat("line ", Int(s.line), " ", ToString(s.op), " ", ToString(s.space), array, " (",
             Int(s.size), " B)");
}

// [SECTION] Plot axes ---------------------------------------------------------------------------

// A step of 1, 2 or 5 times a power of ten that cuts `span` into about `target` parts.
double NiceStep(double span, int target) {
  if (!(span > 0)) return 1;
  const double raw = span / target, p = std::pow(10.0, std::floor(std::log10(raw)));
  const double m = raw / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

// A tick value, with as many decimals as the step needs.
std::string TickLabel(double v, double step) {
  const int decimals = step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, std::clamp(v, -1e15, 1e15),
                               std::chars_format::fixed, std::min(decimals, 12));
  std::string s(buf, r.ptr);
  return s == "-0" ? "0" : s;
}

struct Axes {
  double left = 0, top = 0, width = 100, height = 100;  // the plot area, pixels
  double x0 = 0, x1 = 1, y0 = 0, y1 = 1;                // the data range shown
  bool log_x = false;                                   // x0, x1 powers of two then
  double x_step = 1, y_step = 1;                        // tick spacing (log: in doublings)

  double X(double x) const {
    const double u = log_x ? (std::log2(x) - std::log2(x0)) / (std::log2(x1) - std::log2(x0))
                           : (x - x0) / (x1 - x0);
    return left + u * width;
  }
  double Y(double y) const { return top + height - (y - y0) / (y1 - y0) * height; }

  // Widens [lo, hi] to whole ticks, about `target` of them.
  void FitY(double lo, double hi, int target) {
    if (!(hi > lo)) hi = lo + 1;
    y_step = NiceStep(hi - lo, target);
    y0 = std::floor(lo / y_step) * y_step;
    y1 = std::ceil(hi / y_step - 1e-9) * y_step;
  }
  void FitX(double lo, double hi, int target) {
    if (log_x) {
      const double a = std::floor(std::log2(lo)), b = std::max(a + 1, std::ceil(std::log2(hi)));
      x0 = std::exp2(a);
      x1 = std::exp2(b);
      x_step = std::max(1.0, std::ceil((b - a) / target));
      return;
    }
    if (!(hi > lo)) hi = lo + 1;
    x_step = NiceStep(hi - lo, target);
    x0 = std::floor(lo / x_step) * x_step;
    x1 = std::ceil(hi / x_step - 1e-9) * x_step;
  }
};

// The frame, grid lines and tick labels, the axis labels and a title above.
void DrawAxes(SvgDoc& d, const Axes& a, const std::string& x_label, const std::string& y_label,
              const std::string& title) {
  d.Rect(a.left, a.top, a.width, a.height, "#ffffff", Cat(" stroke=\"", kDim, "\""));
  for (int i = 0;; ++i) {
    const double v = a.y0 + i * a.y_step;
    if (v > a.y1 + a.y_step * 1e-6 || i > 100) break;
    const double y = a.Y(v);
    if (i > 0 && v < a.y1 - a.y_step * 1e-6) d.Line(a.left, y, a.left + a.width, y, kGrid, 1);
    d.Text(a.left - 5, y + 4, TickLabel(v, a.y_step), 10, kDim, "end");
  }
  for (int i = 0;; ++i) {
    const double v = a.log_x ? a.x0 * std::exp2(i * a.x_step) : a.x0 + i * a.x_step;
    if (v > a.x1 * (1 + 1e-9) + (a.log_x ? 0 : a.x_step * 1e-6) || i > 100) break;
    const double x = a.X(v);
    if (i > 0 && x < a.left + a.width - 0.5) d.Line(x, a.top, x, a.top + a.height, kGrid, 1);
    d.Text(x, a.top + a.height + 14, a.log_x ? Num(v) : TickLabel(v, a.x_step), 10, kDim, "middle");
  }
  d.Text(a.left + a.width / 2, a.top + a.height + 32, x_label, 11, kDim, "middle");
  d.VerticalText(a.left - 40, a.top + a.height / 2, y_label, 11);
  if (!title.empty()) d.Text(a.left, a.top - 8, title, 12, kText);
}

// [SECTION] Coalescing strip --------------------------------------------------------------------

}  // namespace

std::string SvgCoalescingStrip(const LessonRun& run, std::size_t site) {
  if (!run.has_launch()) return "";
  const LaunchTrace& t = run.main_launch();
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
  constexpr double kW = 960, kH = 290, kL = 20, kStripW = kW - 2 * kL;
  SvgDoc d(kW, kH, title);
  d.Text(kL, 22, headline, 16, kText, "start", " font-weight=\"bold\"");
  d.Text(kL, 40,
         Cat(SiteLabel(t, site), "; block 0, warp ", Int(req.warp), ", iteration ",
             Int(req.iteration), ", ", Int(req.lanes.size()), " lanes; ideal ", Int(ideal),
             " sectors (", Num(moved ? 100.0 * asked / static_cast<double>(moved) : 0.0),
             " % of the moved bytes used)"),
         11, kDim);

  // Lanes: 32 boxes across the top, filled where the lane made the access.
  const double lane_w = kStripW / 32, lane_y = 64, lane_h = 22;
  bool active[32] = {};
  for (const LaneAccess& l : req.lanes) active[l.lane & 31] = true;
  const Rgb colour = Warp(req.warp);
  for (int lane = 0; lane < 32; ++lane) {
    const double x = kL + lane * lane_w + 1;
    d.Rect(x, lane_y, lane_w - 2, lane_h, active[lane] ? Hex(colour) : "#ffffff",
           active[lane] ? std::string(" class=\"lane\"")
                        : Cat(" class=\"lane\" stroke=\"", kGrid, "\""));
    d.Text(x + (lane_w - 2) / 2, lane_y + 15, std::to_string(lane), 10,
           active[lane] ? TextOn(colour) : kDim, "middle");
  }
  d.Text(kL, lane_y - 6, "the warp's 32 lanes (filled: the lanes that made the access)", 10, kDim);

  // Memory: the touched 128-byte lines, sector boundaries thin and line boundaries thick.
  std::vector<std::uint64_t> lines;
  for (const LaneAccess& l : req.lanes) {
    for (std::uint64_t a = l.address / 128; a <= (l.address + l.size - 1) / 128; ++a)
      lines.push_back(a);
  }
  const StripLayout strip = StripLayout::Of(lines, kStripW);
  const double mem_y = 170, mem_h = 26;
  for (const StripLayout::Window& w : strip.windows) {
    const double x0 = kL + w.x;
    d.Rect(x0, mem_y, static_cast<double>(w.hi - w.lo) * strip.px_per_byte, mem_h, "#e1e1e8",
           " class=\"memory\"");
    for (std::uint64_t a = w.lo; a <= w.hi; a += 32) {
      double x = 0;
      if (!strip.X(a, &x)) continue;
      const bool line = a % 128 == 0;
      d.Line(kL + x, mem_y - (line ? 4 : 0), kL + x, mem_y + mem_h, line ? kText : "#a0a0aa",
             line ? 1.5 : 0.75);
    }
  }
  // Offsets from the buffer's start at each line, where there is room to write them.
  double label_end = -1e9;
  for (const StripLayout::Window& w : strip.windows) {
    for (std::uint64_t a = w.lo; a < w.hi; a += 128) {
      double x = 0;
      if (!strip.X(a, &x)) continue;
      const std::string label = Cat("+", Int(a - std::min(a, base)));
      if (kL + x < label_end) continue;
      d.Text(kL + x + 2, mem_y + mem_h + 12, label, 9, kDim);
      label_end = kL + x + 6.0 * static_cast<double>(label.size()) + 8;
    }
  }
  // Each lane's bytes, and a wire from the lane to them.
  for (const LaneAccess& l : req.lanes) {
    double x0 = 0, x1 = 0;
    if (!strip.X(l.address, &x0) || !strip.X(l.address + l.size, &x1)) continue;
    const double inset = x1 - x0 > 4 ? 0.5 : 0;
    d.Rect(kL + x0 + inset, mem_y + 3, std::max(x1 - x0 - 2 * inset, 1.0), mem_h - 6, Hex(colour),
           " class=\"bytes\"");
    d.Line(kL + (l.lane + 0.5) * lane_w, lane_y + lane_h, kL + (x0 + x1) / 2, mem_y, Hex(colour), 1,
           " class=\"wire\" stroke-opacity=\"0.7\"");
  }
  // The sectors: one rect per 32-byte sector the request needs (one transaction each).
  const double sec_y = mem_y + mem_h + 22, sec_h = 16;
  int k = 0;
  for (const Segment& s : sectors) {
    double x0 = 0, x1 = 0;
    if (!strip.X(s.address, &x0) || !strip.X(s.address + s.bytes, &x1)) continue;
    d.Rect(
        kL + x0 + 0.5, sec_y, std::max(x1 - x0 - 1, 1.0), sec_h,
        Hex(Heat(0.25 + 0.6 * (k % 4) / 3.0)), " class=\"sector\"",
        Cat("sector at +", Int(s.address - std::min(s.address, base)), ", ", Int(s.bytes), " B"));
    ++k;
  }
  d.Text(kL, sec_y + sec_h + 18,
         "Strip: global memory, in bytes from the buffer's start (thick lines: 128-byte lines; "
         "gaps: memory skipped), each lane's bytes in its colour.",
         10, kDim);
  d.Text(kL, sec_y + sec_h + 32,
         Cat("Bars under it: the 32-byte sectors the request needs (", Int(sectors.size()),
             "); each is moved whole, one transaction."),
         10, kDim);
  return d.Finish();
}

// [SECTION] Bank heatmap --------------------------------------------------------------------------

std::string SvgBankHeatmap(const LessonRun& run, std::size_t site) {
  if (!run.has_launch()) return "";
  const LaunchTrace& t = run.main_launch();
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
