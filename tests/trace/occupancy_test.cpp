// The occupancy calculator against the slides' G80 example and the textbook's block exercise.
#include "warpscope/trace/occupancy.h"

#include <gtest/gtest.h>

namespace ws {
namespace {

OccupancyResult Occ(const std::string& device, int threads, int registers, int shared) {
  auto d = FindOccupancyDevice(device);
  EXPECT_TRUE(d.ok());
  auto r = ComputeOccupancy(*d, {threads, registers, shared});
  EXPECT_TRUE(r.ok()) << r.status().message();
  return *r;
}

TEST(Occupancy, SlidesG80Example) {
  // "Optimizing CUDA": G80, 192 threads, 20 registers, 68 bytes of shared memory.
  OccupancyResult r = Occ("cc1.0", 192, 20, 68);
  EXPECT_EQ(r.warps_per_block, 6);         // 192 / 32
  EXPECT_EQ(r.registers_per_block, 3840);  // 6 warps x 32 x 20 (the slide prints 3640: a typo)
  EXPECT_EQ(r.shared_per_block, 512);      // 68 rounded up to the 512-byte unit
  EXPECT_EQ(r.limit_warps, 4);             // 24 / 6
  EXPECT_EQ(r.limit_registers, 2);         // 8192 / 3840
  EXPECT_EQ(r.limit_shared, 32);           // 16384 / 512
  EXPECT_EQ(r.active_blocks, 2);
  EXPECT_EQ(r.active_warps, 12);
  EXPECT_EQ(r.active_threads, 384);
  EXPECT_DOUBLE_EQ(r.occupancy, 0.5);
  EXPECT_EQ(r.limiter, "registers");
}

TEST(Occupancy, TextbookBlockSizesOnG80) {
  // 8x8 = 64 threads: 8 blocks (the block limit) x 64 = 512 of 768 threads.
  OccupancyResult small = Occ("cc1.0", 64, 0, 0);
  EXPECT_EQ(small.active_blocks, 8);
  EXPECT_EQ(small.active_threads, 512);
  EXPECT_EQ(small.limiter, "blocks");
  // 16x16 = 256 threads: 3 blocks fill all 768 thread slots.
  OccupancyResult mid = Occ("cc1.0", 256, 0, 0);
  EXPECT_EQ(mid.active_blocks, 3);
  EXPECT_EQ(mid.active_threads, 768);
  EXPECT_DOUBLE_EQ(mid.occupancy, 1.0);
  EXPECT_EQ(mid.limiter, "warps");
  // 32x32 = 1024 threads: over the 512 threads per block of the G80, so no block runs.
  OccupancyResult big = Occ("cc1.0", 1024, 0, 0);
  EXPECT_EQ(big.active_blocks, 0);
  EXPECT_EQ(big.limiter, "threads_per_block");
}

TEST(Occupancy, ModernGpuRegistersPerWarp) {
  // cc9.0: 256 threads, 64 registers: 64 x 32 = 2048 registers per warp, 65536 / 2048 = 32 warps,
  // 8 warps per block -> 4 blocks = 32 of 64 warps = 50 %.
  OccupancyResult r = Occ("cc9.0", 256, 64, 0);
  EXPECT_EQ(r.limit_registers, 4);
  EXPECT_EQ(r.active_blocks, 4);
  EXPECT_DOUBLE_EQ(r.occupancy, 0.5);
  EXPECT_EQ(r.limiter, "registers");
  // Shared memory: 48 KB + 1 KB reserved = 50176 B per block; 233472 / 50176 = 4 blocks.
  OccupancyResult s = Occ("cc9.0", 128, 0, 48 * 1024);
  EXPECT_EQ(s.limit_shared, 4);
  EXPECT_EQ(s.limiter, "shared");
}

TEST(Occupancy, BadInputNamesTheLimit) {
  auto d = *FindOccupancyDevice("cc2.0");
  auto r = ComputeOccupancy(d, {256, 64, 0});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "registers = 64 is over the limit of 63 registers per thread on cc2.0");
  EXPECT_FALSE(FindOccupancyDevice("cc4.2").ok());
}

}  // namespace
}  // namespace ws
