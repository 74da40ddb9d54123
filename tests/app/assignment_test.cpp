// Where a goal's marker points (core/assignment.h: MarkerLines).
#include "core/assignment.h"

#include <gtest/gtest.h>

namespace ws {
namespace {

// Line 1 mentions the marker inside another comment (as the shipped programs' headers do): not a
// marker. Line 3 ends with one: its own line. Line 4 is a marker alone: the next line with code
// (6, past the blank 5). Line 7 names another marker; line 8's name only starts with "tree".
TEST(Assignment, AMarkerNamesItsOwnLineOrTheNextLineWithCode) {
  const std::string source =
      "// Keep `// goal: tree` on the line that adds.\n"  // 1
      "__global__ void k(float* s) {\n"                   // 2
      "  s[0] += s[1];  // goal: tree\n"                  // 3
      "  // goal: tree\n"                                 // 4
      "\n"                                                // 5
      "  s[2] += s[3];\n"                                 // 6
      "  s[4] = 0;  // goal: store\n"                     // 7
      "  s[5] = 0;  // goal: trees\n"                     // 8
      "}\n";
  EXPECT_EQ(MarkerLines(source, "tree"), (std::vector<std::uint32_t>{3, 6}));
  EXPECT_EQ(MarkerLines(source, "store"), (std::vector<std::uint32_t>{7}));
  EXPECT_EQ(MarkerLines(source, "load"), (std::vector<std::uint32_t>{}));
}

}  // namespace
}  // namespace ws
