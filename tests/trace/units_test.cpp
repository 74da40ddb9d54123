#include "warpscope/trace/units.h"

#include <nlohmann/json.hpp>

#include "warpscope/trace/lesson_run.h"

#include <gtest/gtest.h>

#include <limits>

namespace ws {
namespace {

TEST(FormatDuration, ThreeSignificantDigitsInTheUnitThatFits) {
  EXPECT_EQ(FormatDuration(0.7212), "721 \u00b5s");  // the transpose's modeled time
  EXPECT_EQ(FormatDuration(4.402e-05), "44.0 ns");   // issue 17's "4.402e-05 ms"
  EXPECT_EQ(FormatDuration(1.131744), "1.13 ms");    // naive transpose at 8192x8192, H100
  EXPECT_EQ(FormatDuration(2500), "2.50 s");
  EXPECT_EQ(FormatDuration(0.0999996), "100 \u00b5s");  // rounds up within the unit
  EXPECT_EQ(FormatDuration(0.99996), "1.00 ms");        // and into the next unit
  EXPECT_EQ(FormatDuration(5e6), "5000 s");             // seconds are the largest unit
  EXPECT_EQ(FormatDuration(0), "0 ms");
  EXPECT_EQ(FormatDuration(-1), "\u2014");
  EXPECT_EQ(FormatDuration(std::numeric_limits<double>::quiet_NaN()), "\u2014");
}

TEST(FormatNumber, WholeNumbersInFullAndGroupedOthersToTheirDigits) {
  EXPECT_EQ(FormatNumber(524288), "524,288");  // matmul naive 64x64: 64 x 64 x 2 x 64 loads
  EXPECT_EQ(FormatNumber(32), "32");
  EXPECT_EQ(FormatNumber(-1234567), "-1,234,567");
  EXPECT_EQ(FormatNumber(5.425531914893617), "5.43");  // reduce's lanes per request
  EXPECT_EQ(FormatNumber(0.5925925925925926), "0.593");
  EXPECT_EQ(FormatNumber(68573508.474576), "68,600,000");         // 3 digits of 6.857e7
  EXPECT_EQ(FormatNumber(5995309.151775815, 9), "5,995,309.15");  // fp-order keeps 9
}

TEST(FormatFigure, LabelValueAndUnitNeverTheKey) {
  const nlohmann::json f = {{"global_load_elements", 524288},
                            {"occupancy", 0.5},
                            {"bank_conflict_max", 32},
                            {"max_wait", 310},
                            {"time_unit", "ns"},
                            {"grid", {5, 4}},
                            {"timeline", std::vector<int>(40, 1)}};
  EXPECT_EQ(FormatFigure({"global_load_elements", "Global loads", "elements"}, f),
            "Global loads: 524,288 elements");
  EXPECT_EQ(FormatFigure({"occupancy", "Occupancy", "%", 100}, f), "Occupancy: 50 %");
  EXPECT_EQ(FormatFigure({"bank_conflict_max", "Worst bank conflict", "-way"}, f),
            "Worst bank conflict: 32-way");
  EXPECT_EQ(FormatFigure({"max_wait", "Longest wait", "@time_unit"}, f), "Longest wait: 310 ns");
  EXPECT_EQ(FormatFigure({"grid", "Grid", ""}, f), "Grid: 5, 4");
  EXPECT_EQ(FormatFigure({"timeline", "Timeline", ""}, f), "");  // 40 values: the view's
  EXPECT_EQ(FormatFigure({"missing", "Missing", ""}, f), "");
}

}  // namespace
}  // namespace ws
