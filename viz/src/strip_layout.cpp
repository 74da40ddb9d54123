#include "warpscope/viz/strip_layout.h"

#include <algorithm>

namespace ws {

StripLayout StripLayout::Of(std::vector<std::uint64_t> lines, double width) {
  StripLayout s;
  std::sort(lines.begin(), lines.end());
  lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
  if (lines.empty()) return s;
  if (lines.back() - lines.front() + 1 <= 16) {
    s.windows.push_back({lines.front() * 128, (lines.back() + 1) * 128, 0});
  } else {
    for (const std::uint64_t l : lines) {
      if (!s.windows.empty() && s.windows.back().hi == l * 128)
        s.windows.back().hi += 128;
      else
        s.windows.push_back({l * 128, l * 128 + 128, 0});
    }
  }
  std::uint64_t bytes = 0;
  for (const Window& w : s.windows) bytes += w.hi - w.lo;
  s.gap = s.windows.size() > 24 ? 6 : 14;
  const double gaps = s.gap * static_cast<double>(s.windows.size() - 1);
  s.px_per_byte = std::max(0.05, (width - gaps) / static_cast<double>(bytes));
  double x = 0;
  for (Window& w : s.windows) {
    w.x = x;
    x += static_cast<double>(w.hi - w.lo) * s.px_per_byte + s.gap;
  }
  return s;
}

bool StripLayout::X(std::uint64_t a, double* x) const {
  for (const Window& w : windows) {
    if (a >= w.lo && a <= w.hi) {
      *x = w.x + static_cast<double>(a - w.lo) * px_per_byte;
      return true;
    }
  }
  return false;
}

}  // namespace ws
