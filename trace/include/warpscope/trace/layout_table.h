// The memory-order table of a layout: which pixel each memory position holds, in order (the form
// of the slides' reordered-address table), and checks of the layout's parameters.
#pragma once

#include <string>
#include <vector>

#include "warpscope/trace/layout.h"
#include "warpscope/trace/status.h"

namespace ws {

struct LayoutCell {
  std::uint64_t position = 0;  // memory position (element index)
  int x = 0, y = 0;
};

// Refuses sizes and tiles that do not fit, naming the limit and the value.
Status CheckLayout(const Layout2D& layout);
// Every pixel, sorted by memory position (Morton and padded tiles leave gaps in positions).
Result<std::vector<LayoutCell>> MemoryOrder(const Layout2D& layout);
Result<LayoutKind> ParseLayoutKind(const std::string& name);
const char* ToString(LayoutKind kind);

}  // namespace ws
