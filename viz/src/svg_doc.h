// The SVG figures' writer (see svg_figures.h): numbers without the locale, XML escaping, the
// views' colours, one SVG document, and plot axes with nice ticks. Shared by svg_figures.cpp and
// svg_plots.cpp; no display, no ImGui.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "warpscope/trace/launch.h"

namespace ws::svg {

// A coordinate or value: fixed, at most two decimals, trailing zeros dropped ("12.5", "3"). No
// printf: std::to_chars ignores the locale, so a German desktop writes "12.5" too.
std::string Num(double v);

// A whole number.
std::string Int(std::uint64_t v);

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
std::string Escape(std::string_view text);

struct Rgb {
  int r = 0, g = 0, b = 0;
};

// "#rrggbb".
std::string Hex(Rgb c);

// The figures' text colours: text, dimmed text, grid lines, an empty cell.
inline const std::string kText = "#14161c", kDim = "#5a5e68", kGrid = "#c8c8d0", kEmpty = "#e8e8ee";

// A warp's colour: the views' warp colours (palette.h, which needs ImGui), in Okabe-Ito order.
Rgb Warp(std::uint32_t warp);

// Sequential ramp, t in [0, 1]: dark blue -> teal -> yellow (lightness rises: reads in grey).
Rgb Heat(double t);

// Ramp position of a bank conflict degree (as the banks view): 1-way low but visible, 32 top.
double DegreeHeat(std::uint32_t words);

// `a` moved `t` of the way to `b`.
Rgb Mix(Rgb a, Rgb b, double t);

// Black or white, whichever reads on `fill`.
std::string TextOn(Rgb fill);

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

// An attribute, its value escaped: ` name="value"`.
std::string Attr(const char* name, const std::string& value);

// "line 18 load global idata (4 B)", "line 38 load shared (4 B)": a site, as the views name it.
std::string SiteLabel(const LaunchTrace& t, std::size_t site);

// A step of 1, 2 or 5 times a power of ten that cuts `span` into about `target` parts.
double NiceStep(double span, int target);

// A tick value, with as many decimals as the step needs.
std::string TickLabel(double v, double step);

// A plot's area in pixels, the data range it shows and its ticks; maps data to pixels.
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
              const std::string& title);

}  // namespace ws::svg
