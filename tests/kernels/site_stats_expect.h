// Every figure of two sites' statistics equal (GoogleTest expectations): for tests that get the
// same requests two ways (written as events or counted on the device, a GPU or the emulator).
#pragma once

#include <gtest/gtest.h>

#include "warpscope/trace/analysis.h"

namespace ws::test_support {

inline void ExpectSameSiteStats(const SiteStats& a, const SiteStats& b) {
  EXPECT_EQ(a.requests, b.requests);
  EXPECT_EQ(a.accesses, b.accesses);
  EXPECT_EQ(a.bytes, b.bytes);
  EXPECT_EQ(a.sectors, b.sectors);
  EXPECT_EQ(a.ideal_sectors, b.ideal_sectors);
  EXPECT_EQ(a.lines128, b.lines128);
  EXPECT_EQ(a.cc10_transactions, b.cc10_transactions);
  EXPECT_EQ(a.cc12_transactions, b.cc12_transactions);
  EXPECT_EQ(a.cc12_bytes, b.cc12_bytes);
  EXPECT_EQ(a.sectors_histogram, b.sectors_histogram);
  EXPECT_EQ(a.wavefronts, b.wavefronts);
  EXPECT_EQ(a.ideal_wavefronts, b.ideal_wavefronts);
  EXPECT_EQ(a.bank_conflict_sum, b.bank_conflict_sum);
  EXPECT_EQ(a.bank_conflict_max, b.bank_conflict_max);
  EXPECT_EQ(a.halfwarp16_conflict_sum, b.halfwarp16_conflict_sum);
  EXPECT_EQ(a.halfwarp16_conflict_max, b.halfwarp16_conflict_max);
  EXPECT_EQ(a.atomic_conflict_max, b.atomic_conflict_max);
  EXPECT_EQ(a.atomic_conflict_histogram, b.atomic_conflict_histogram);
  EXPECT_EQ(a.constant_addresses_max, b.constant_addresses_max);
  EXPECT_EQ(a.constant_addresses_sum, b.constant_addresses_sum);
  EXPECT_EQ(a.divergent_requests, b.divergent_requests);
}

}  // namespace ws::test_support
