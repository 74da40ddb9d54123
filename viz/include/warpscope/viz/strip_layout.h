// The coalescing view's memory strip as numbers, with no ImGui: which byte ranges of a request's
// memory are drawn and where. The panel and its SVG export both lay their strip out with this.
#pragma once

#include <cstdint>
#include <vector>

namespace ws {

// Byte addresses onto a strip `width` wide: the 128-byte lines a request touches (or their whole
// span when it is at most 16 lines), side by side, a gap wherever memory is skipped (14 wide, or
// 6 past 24 windows so that many windows keep their bytes readable).
struct StripLayout {
  struct Window {
    std::uint64_t lo = 0, hi = 0;  // bytes [lo, hi)
    double x = 0;                  // x of lo, from the strip's left
  };
  std::vector<Window> windows;
  double px_per_byte = 1, gap = 14;

  // `lines`: the 128-byte line numbers touched, in any order, repeats allowed.
  static StripLayout Of(std::vector<std::uint64_t> lines, double width);
  // The x of byte address `a` (a window's end included); false outside every window.
  bool X(std::uint64_t a, double* x) const;
};

}  // namespace ws
