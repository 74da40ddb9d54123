#include "warpscope/trace/units.h"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "warpscope/trace/lesson_run.h"

namespace ws {

double RoundForJson(double v, int digits) {
  const double f = digits == 4 ? 1e4 : 1e6;
  return static_cast<double>(static_cast<long long>(v * f + (v >= 0 ? 0.5 : -0.5))) / f;
}

std::string FormatDuration(double ms) {
  if (!std::isfinite(ms) || ms < 0) return "\u2014";
  if (ms == 0) return "0 ms";
  // Rounded to 3 significant digits first, so that 999.96 µs reads "1.00 ms", not "1000 µs".
  const int exponent = static_cast<int>(std::floor(std::log10(ms)));
  const double step = std::pow(10.0, exponent - 2);
  double ns = std::round(ms / step) * step * 1e6;
  static constexpr const char* kUnits[] = {"ns", "\u00b5s", "ms", "s"};
  int unit = 0;
  while (unit < 3 && ns >= 1000 * std::pow(1000.0, unit) * (1 - 1e-12)) ++unit;
  const double v = ns / std::pow(1000.0, unit);
  const int decimals = v >= 100 ? 0 : v >= 10 ? 1 : 2;
  char text[48];
  std::snprintf(text, sizeof text, "%.*f %s", v < 1 ? 3 : decimals, v, kUnits[unit]);
  return text;
}

namespace {

// "5995309.15" -> "5,995,309.15": the digits before the point (or exponent) in groups of three.
std::string GroupThousands(const std::string& text) {
  const std::size_t start = (!text.empty() && text[0] == '-') ? 1 : 0;
  std::size_t end = text.find_first_of(".e", start);
  if (end == std::string::npos) end = text.size();
  std::string out = text.substr(0, start);
  for (std::size_t i = start; i < end; ++i) {
    out += text[i];
    const std::size_t left = end - i - 1;
    if (left > 0 && left % 3 == 0) out += ',';
  }
  return out + text.substr(end);
}

}  // namespace

std::string FormatNumber(double value, int digits) {
  if (!std::isfinite(value)) return "\u2014";
  char text[64];
  if (value == std::floor(value) && std::fabs(value) < 1e15) {
    std::snprintf(text, sizeof text, "%.0f", value);
    return GroupThousands(text);
  }
  // %g keeps `digits` significant digits; below 1e-4 or past the digits it turns to an exponent.
  std::snprintf(text, sizeof text, "%.*g", digits, value);
  std::string s = text;
  if (s.find('e') != std::string::npos && std::fabs(value) >= 1) {
    // 68573508.47 at 3 digits: "68,600,000", not "6.86e+07".
    const double step = std::pow(10.0, std::floor(std::log10(std::fabs(value))) - digits + 1);
    std::snprintf(text, sizeof text, "%.0f", std::round(value / step) * step);
    s = text;
  }
  return GroupThousands(s);
}

std::string FormatFigure(const FigureSpec& spec, const nlohmann::json& figures) {
  if (!figures.is_object() || !figures.contains(spec.key)) return "";
  const nlohmann::json& v = figures[spec.key];
  std::string value;
  if (v.is_number()) {
    value = FormatNumber(v.get<double>() * spec.scale, spec.digits);
  } else if (v.is_string()) {
    value = v.get<std::string>();
  } else if (v.is_boolean()) {
    value = v.get<bool>() ? "yes" : "no";
  } else if (v.is_array() && !v.empty() && v.size() <= 8) {
    for (const nlohmann::json& e : v) {
      if (!e.is_number()) return "";
      value +=
          (value.empty() ? "" : ", ") + FormatNumber(e.get<double>() * spec.scale, spec.digits);
    }
  } else {
    return "";
  }
  std::string unit = spec.unit;
  if (!unit.empty() && unit[0] == '@') {
    const auto from = figures.find(unit.substr(1));
    unit = from != figures.end() && from->is_string() ? from->get<std::string>() : "";
    if (unit == "logical") unit = "logical time units";  // the emulator's barrier clock
  }
  if (unit.empty()) return spec.label + ": " + value;
  // "32-way", "16x": a suffix; "524,288 elements", "50 %": a unit.
  const bool suffix = unit[0] == '-' || unit == "x";
  return spec.label + ": " + value + (suffix ? "" : " ") + unit;
}

}  // namespace ws
