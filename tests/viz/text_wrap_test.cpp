#include "warpscope/viz/text_wrap.h"

#include <gtest/gtest.h>

namespace ws {
namespace {

std::vector<std::string> Rows(const std::string& text, float width) {
  std::vector<std::string> out;
  for (const WrappedRow& r : WrapCodeLine(text, width, 10.0f))
    out.push_back(std::string(static_cast<std::size_t>(r.indent / 10.0f), ' ') +
                  text.substr(r.begin, r.end - r.begin));
  return out;
}

TEST(WrapCodeLine, ALineThatFitsIsOneRow) {
  const auto rows = WrapCodeLine("  int i = threadIdx.x;", 400.0f, 10.0f);  // 22 chars, 40 fit
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].begin, 0u);
  EXPECT_EQ(rows[0].end, 22u);
  EXPECT_EQ(rows[0].indent, 0.0f);
}

TEST(WrapCodeLine, BreaksAtTheLastSpaceAndIndentsUnderTheCode) {
  // 30 characters fit: the first row ends at the space before "out" (column 26 of 30), the
  // second starts at "out", indented 2 (the line's) + 4.
  const std::string line = "  tile[ty][tx] = in[y * w + x]; out[i] = tile[tx][ty];";
  EXPECT_EQ(Rows(line, 300.0f),
            (std::vector<std::string>{"  tile[ty][tx] = in[y * w +",
                                      "      x]; out[i] =", "      tile[tx][ty];"}));
}

TEST(WrapCodeLine, WithoutASpaceItBreaksAfterPunctuationNotInsideAName) {
  // 20 characters fit, no space in the second half of the first row: it ends after the `[` at
  // column 18 ("tile[threadIdx.y][" is 18), not inside "threadIdx"; then after "]" or a space.
  const std::string line = "tile[threadIdx.y][threadIdx.x] = in[i];";
  EXPECT_EQ(Rows(line, 200.0f),
            (std::vector<std::string>{"tile[threadIdx.y][", "    threadIdx.x] =", "    in[i];"}));
}

TEST(WrapCodeLine, ARowEndsEarlyRatherThanCutAName) {
  // 16 characters fit (the least); the second row, 12 after its indent, would end inside
  // "threadIdx" ("+ i][thread"): it ends after "][" instead.
  const std::string line = "tile[threadIdx.y + i][threadIdx.x] = a;";
  const std::vector<std::string> rows = Rows(line, 160.0f);
  for (const std::string& r : rows) {
    EXPECT_EQ(r.find("threadId") != std::string::npos && r.find("threadIdx") == std::string::npos,
              false)
        << r;
  }
  // The third row has 12 characters (16 less the indent of 4): "threadIdx.x]" exactly.
  EXPECT_EQ(rows, (std::vector<std::string>{"tile[threadIdx.y", "    + i][", "    threadIdx.x]",
                                            "    = a;"}));
}

TEST(WrapCodeLine, AWordLongerThanARowIsCutAtTheLimit) {
  const std::string word(60, 'a');  // no space: rows of 24 (240 / 10), then 20 after indent 4
  const auto rows = WrapCodeLine(word, 240.0f, 10.0f);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].end - rows[0].begin, 24u);
  EXPECT_EQ(rows[1].end - rows[1].begin, 20u);
  EXPECT_EQ(rows[1].indent, 40.0f);
  EXPECT_EQ(rows[2].end, 60u);
}

}  // namespace
}  // namespace ws
