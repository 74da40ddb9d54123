// The occupancy calculator against the slides' G80 example and the textbook's block exercise.
#include "warpscope/trace/occupancy.h"

#include <gtest/gtest.h>

#include <utility>

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

// Kirk & Hwu exercise 4.7: which assignments per multiprocessor are possible, by hand from the
// limits (cc1.0: 768 threads = 24 warps, 8 blocks; cc1.2: 1024 threads = 32 warps, 8 blocks;
// cc3.0: 2048 threads = 64 warps, 16 blocks).
TEST(Occupancy, Exercise4_7) {
  auto blocks = [](const char* device, int threads) {
    const OccupancyResult r = *ComputeOccupancy(*FindOccupancyDevice(device), {threads, 0, 0});
    return std::make_pair(r.active_blocks, r.limiter);
  };
  // a. 8 x 128 on 1.0: 32 warps > 24: no, threads (warps) limit: 24 / 4 = 6 blocks.
  EXPECT_EQ(blocks("cc1.0", 128), std::make_pair(6, std::string("warps")));
  // b. 8 x 128 on 1.2: 32 warps = 32: yes, 8 blocks (both limits at once).
  EXPECT_EQ(blocks("cc1.2", 128).first, 8);
  // c. 8 x 128 on 3.0: yes (16 blocks of 4 warps fit: 64 warps).
  EXPECT_EQ(blocks("cc3.0", 128).first, 16);
  // d, e. 16 x 64 on 1.0 and 1.2: no, 8 blocks per SM at most.
  EXPECT_EQ(blocks("cc1.0", 64), std::make_pair(8, std::string("blocks")));
  EXPECT_EQ(blocks("cc1.2", 64), std::make_pair(8, std::string("blocks")));
  // f. 16 x 64 on 3.0: yes: 16 blocks, 32 of 64 warps.
  EXPECT_EQ(blocks("cc3.0", 64).first, 16);
  // 3.0 allows 63 registers a thread (3.5: 255).
  EXPECT_FALSE(ComputeOccupancy(*FindOccupancyDevice("cc3.0"), {128, 64, 0}).ok());
}

// Every compute capability the seeds name is a choice. The Optimizing CUDA slides: hiding a
// register dependency takes 192 threads (6 warps) per multiprocessor, "at least 25 % occupancy
// (1.0/1.1), 18.75 % (1.2/1.3)": 6 of 24 warps, 6 of 32. One block of 192 threads, limited to
// a single block by its 16 KB of shared memory, is exactly that.
TEST(Occupancy, EveryComputeCapabilityTheSeedsNameAndTheRegisterDependencySlide) {
  for (const char* name : {"cc1.0", "cc1.1", "cc1.2", "cc1.3", "cc2.0", "cc3.0", "cc3.5"})
    EXPECT_TRUE(FindOccupancyDevice(name).ok()) << name;
  for (const auto& [name, occupancy] : {std::pair{"cc1.0", 0.25}, std::pair{"cc1.1", 0.25},
                                        std::pair{"cc1.2", 0.1875}, std::pair{"cc1.3", 0.1875}}) {
    auto r = ComputeOccupancy(*FindOccupancyDevice(name), {192, 0, 16384 - 512});
    ASSERT_TRUE(r.ok()) << name;
    EXPECT_EQ(r->active_blocks, 1) << name;
    EXPECT_DOUBLE_EQ(r->occupancy, occupancy) << name;
  }
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
