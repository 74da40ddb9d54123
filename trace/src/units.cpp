#include "warpscope/trace/units.h"

#include <cmath>
#include <cstdio>

namespace ws {

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

}  // namespace ws
