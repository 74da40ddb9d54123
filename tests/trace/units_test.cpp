#include "warpscope/trace/units.h"

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

}  // namespace
}  // namespace ws
