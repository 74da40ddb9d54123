// REQUIRE_GPU(): a GPU test skips, saying why, where the machine has no GPU (CI has none; ctest
// label "gpu").
#pragma once

#include <gtest/gtest.h>

#include "warpscope/kernels/devices.h"

#define REQUIRE_GPU()                                               \
  do {                                                              \
    const ::ws::DeviceQuery q = ::ws::QueryDevices();               \
    if (q.gpus.empty()) GTEST_SKIP() << "no GPU: " << q.why_no_gpu; \
  } while (0)
