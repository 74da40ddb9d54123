// Where a line of code wraps when the source view is narrower than the line (monospace text:
// widths in characters). No ImGui here, so the unit tests check it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace ws {

struct WrappedRow {
  std::size_t begin = 0, end = 0;  // [begin, end) of the line's characters
  float indent = 0;                // pixels: rows after the first sit under the line's code
};

// Splits `text` into rows of at most `width` pixels of `char_width`-pixel characters (never
// fewer than 16 characters a row). A row ends at its last space when there is one in its second
// half, else after its last punctuation or space (never inside a name or `a.b`), else at the
// limit;
// the rows after the first are indented 4 characters past the line's own indentation (at most half
// a row) and start at its next non-space. A line that fits is one row.
std::vector<WrappedRow> WrapCodeLine(const std::string& text, float width, float char_width);

}  // namespace ws
