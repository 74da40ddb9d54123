// The SVG figures' writer (svg_doc.h): numbers, escaping, colours, site labels, plot axes.
#include "svg_doc.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace ws::svg {

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

Rgb Warp(std::uint32_t warp) {
  return kWarp[warp % kWarp.size()];
}

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

double DegreeHeat(std::uint32_t words) {
  return words == 0 ? 0.0 : std::min(1.0, 0.15 + 0.85 * std::log2(static_cast<double>(words)) / 5);
}

Rgb Mix(Rgb a, Rgb b, double t) {
  auto ch = [&](int x, int y) { return static_cast<int>(x + (y - x) * t + 0.5); };
  return {ch(a.r, b.r), ch(a.g, b.g), ch(a.b, b.b)};
}

std::string TextOn(Rgb fill) {
  return 0.299 * fill.r + 0.587 * fill.g + 0.114 * fill.b > 140 ? "#000000" : "#ffffff";
}

std::string Attr(const char* name, const std::string& value) {
  return Cat(" ", name, "=\"", Escape(value), "\"");
}

std::string SiteLabel(const LaunchTrace& t, std::size_t site) {
  const SiteInfo& s = t.sites[site];
  std::string array;  // shared arrays have no name in the records
  if (s.space != MemorySpace::kShared && s.space != MemorySpace::kLocal)
    array = Cat(" ", s.buffer < t.buffers.size() ? t.buffers[s.buffer].name : "buffer");
  return Cat("line ", Int(s.line), " ", ToString(s.op), " ", ToString(s.space), array, " (",
             Int(s.size), " B)");
}

double NiceStep(double span, int target) {
  if (!(span > 0)) return 1;
  const double raw = span / target, p = std::pow(10.0, std::floor(std::log10(raw)));
  const double m = raw / p;
  return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
}

std::string TickLabel(double v, double step) {
  const int decimals = step >= 1 ? 0 : static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, std::clamp(v, -1e15, 1e15),
                               std::chars_format::fixed, std::min(decimals, 12));
  std::string s(buf, r.ptr);
  return s == "-0" ? "0" : s;
}

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

}  // namespace ws::svg
