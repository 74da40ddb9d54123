#include "warpscope/viz/text_wrap.h"

#include <algorithm>
#include <cctype>
#include <cmath>

namespace ws {
namespace {
// A name's characters, and `.` so that a member access (threadIdx.x) is not split.
// Bytes of a UTF-8 sequence (0x80 and up: a letter of a comment in another script) too, so that
// no character is cut in two.
bool IsNameChar(char c) {
  const auto u = static_cast<unsigned char>(c);
  return std::isalnum(u) != 0 || c == '_' || c == '.' || u >= 0x80;
}
}  // namespace

std::vector<WrappedRow> WrapCodeLine(const std::string& text, float width, float char_width) {
  constexpr std::size_t kMinChars = 16;
  const std::size_t fit =
      char_width > 0 && width > 0
          ? std::max(kMinChars, static_cast<std::size_t>(std::floor(width / char_width)))
          : kMinChars;
  std::vector<WrappedRow> rows;
  if (text.size() <= fit) return {{0, text.size(), 0}};
  const std::size_t lead = std::min(text.find_first_not_of(' '), text.size());
  // Continuation rows: under the code, 4 further in, never past half the row.
  const std::size_t indent = std::min(lead + 4, fit / 2);
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t room = rows.empty() ? fit : fit - indent;
    if (text.size() - at <= room) {
      rows.push_back({at, text.size(), rows.empty() ? 0 : indent * char_width});
      break;
    }
    std::size_t end = at + room;
    const std::size_t space = text.rfind(' ', end);
    if (space != std::string::npos && space >= at + room / 2) {
      end = space;
    } else {
      // No space late enough: after the last punctuation instead (`tile[i][` | `j]`), never
      // inside a name or a member (`threadIdx.x` stays whole); cut at the limit only in a name
      // longer than the row.
      // A short row is better than a name cut in two: any boundary after the row's first
      // character will do, the latest first.
      for (std::size_t p = at + room; p > at + 1; --p) {
        if (!IsNameChar(text[p - 1]) || !IsNameChar(text[p])) {
          end = p;
          break;
        }
      }
    }
    rows.push_back({at, end, rows.empty() ? 0 : indent * char_width});
    at = text.find_first_not_of(' ', end);
    if (at == std::string::npos) break;
  }
  return rows;
}

}  // namespace ws
