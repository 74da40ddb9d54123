#include "warpscope/trace/status.h"

#include <gtest/gtest.h>

namespace ws {
namespace {

TEST(Status, DefaultIsOk) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.message(), "ok");
}

TEST(Status, ErrorKeepsItsMessage) {
  Status s = Status::Error("block of 2048 threads is over the limit of 1024");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "block of 2048 threads is over the limit of 1024");
}

TEST(Result, HoldsValueOrError) {
  Result<int> good = 42;
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(*good, 42);
  Result<int> bad = Status::Error("no");
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "no");
}

}  // namespace
}  // namespace ws
