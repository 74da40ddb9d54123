// The local-memory lesson: where a thread's array lives, the compiler's figures, and the local
// traffic of an array indexed at run time.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "warpscope/kernels/catalog.h"
#include "warpscope/trace/occupancy.h"

namespace ws {
namespace {

struct Figures {
  int registers = -1;
  std::uint64_t local_bytes = 0, spill_store_bytes = 0;
  std::uint64_t local_load_requests = 0, local_store_requests = 0;
  std::uint64_t local_load_sectors = 0, local_store_sectors = 0;
  double local_sectors_per_load = 0;
};

Figures RunLocal(const std::string& lesson, const std::string& variant, Params p) {
  auto r = RunLesson(lesson, variant, p, "emu", RunOptions{});
  EXPECT_TRUE(r.ok()) << r.status().message();
  if (!r.ok()) return {};
  EXPECT_TRUE(r->check.ok) << r->check.message;
  const nlohmann::json m = r->metrics();
  Figures f;
  f.registers = m.at("registers").get<int>();
  f.local_bytes = m.at("local_bytes").get<std::uint64_t>();
  f.spill_store_bytes = m.at("spill_store_bytes").get<std::uint64_t>();
  f.local_load_requests = m.at("local_load_requests").get<std::uint64_t>();
  f.local_store_requests = m.at("local_store_requests").get<std::uint64_t>();
  f.local_load_sectors = m.at("local_load_sectors").get<std::uint64_t>();
  f.local_store_sectors = m.at("local_store_sectors").get<std::uint64_t>();
  f.local_sectors_per_load = m.at("local_sectors_per_load").get<double>();
  return f;
}

// Word k of lane l is word k * 32 + l of its warp's local memory (4-byte words, 32-byte
// sectors). One warp of 32 threads: at stride 0 every lane reads the same k (one 128-byte line,
// 4 sectors); at stride 2, k = i + 2l: 32 different k, a line and a sector each.
TEST(LocalMemory, SectorsFollowTheInterleavedLayout) {
  const std::string id = "local-memory";
  EXPECT_DOUBLE_EQ(RunLocal(id, "indexed", {{"threads", 32}, {"blocks", 1}, {"stride", 0}})
                       .local_sectors_per_load,
                   4.0);
  EXPECT_DOUBLE_EQ(RunLocal(id, "indexed", {{"threads", 32}, {"blocks", 1}, {"stride", 2}})
                       .local_sectors_per_load,
                   32.0);
  // One warp at stride 1 (k = i + l): 64 loads of 32 sectors, 64 stores of 4.
  const Figures f = RunLocal(id, "indexed", {{"threads", 32}, {"blocks", 1}, {"stride", 1}});
  EXPECT_EQ(f.local_load_sectors, 64u * 32);
  EXPECT_EQ(f.local_store_sectors, 64u * 4);
}

TEST(LocalMemory, AnArrayIndexedAtRunTimeMovesALinePerLane) {
  const std::string id = "local-memory";
  // 8 blocks of 256 threads: 64 warps, each storing a[0..63] and loading a[pick] 64 times.
  Figures f = RunLocal(id, "indexed", {{"threads", 256}, {"blocks", 8}, {"stride", 1}});
  EXPECT_EQ(f.local_store_requests, 64u * 64);
  EXPECT_EQ(f.local_load_requests, 64u * 64);
  EXPECT_EQ(f.local_store_sectors, 64u * 64 * 4);  // every lane at one k: 4 sectors
  EXPECT_EQ(f.local_load_sectors, 64u * 64 * 32);  // k = i + l: 32 lines, a sector each
  EXPECT_DOUBLE_EQ(f.local_sectors_per_load, 32.0);
  f = RunLocal(id, "indexed", {{"threads", 256}, {"blocks", 8}, {"stride", 0}});
  EXPECT_DOUBLE_EQ(f.local_sectors_per_load, 4.0);  // the same element: coalesced
  // The compiler: the 64 floats are the 256-byte stack frame (64 x 4 B).
  EXPECT_EQ(f.local_bytes, 64u * 4);
  EXPECT_GT(f.registers, 0);
}

// The slides say arrays live in local memory; indexed by constants they need not: registers.
// Held to 2 blocks of 1024 threads, a thread may have 65536 / 2048 = 32 registers, and spills.
TEST(LocalMemory, RegistersOrSpillsAsTheCompilerSays) {
  const std::string id = "local-memory";
  const Figures in_registers = RunLocal(id, "registers", {{"threads", 256}, {"blocks", 2}});
  EXPECT_EQ(in_registers.local_bytes, 0u);
  EXPECT_EQ(in_registers.local_load_requests, 0u);
  const Figures spilled = RunLocal(id, "spilled", {{"threads", 256}, {"blocks", 2}});
  EXPECT_EQ(spilled.registers, 32);
  EXPECT_GT(spilled.local_bytes, 0u);
  // ptxas (nvcc 13.0, sm_90): 508 B spilled, 536 B reloaded. Straight-line code, so 508 / 4 =
  // 127 stores and 536 / 4 = 134 loads a warp, of 4 sectors each (the lanes' same word); 2
  // blocks of 8 warps. An H200 under Nsight Compute: 127 and 134 local requests a warp too.
  EXPECT_EQ(spilled.spill_store_bytes, 508u);
  EXPECT_EQ(spilled.local_store_requests, 16u * 127);
  EXPECT_EQ(spilled.local_load_requests, 16u * 134);
  EXPECT_EQ(spilled.local_store_sectors, 16u * 127 * 4);
  EXPECT_DOUBLE_EQ(spilled.local_sectors_per_load, 4.0);
  // What the registers cost (Hopper: 65,536 registers a multiprocessor, 256 a unit, 64 warps):
  // 72 registers -> 2,304 a warp -> 28 warps -> 3 blocks of 8 warps = 24 warps, 37.5 %;
  // 32 registers -> 1,024 a warp -> 64 warps -> 8 blocks, 100 %.
  auto device = FindOccupancyDevice("cc9.0");
  ASSERT_TRUE(device.ok());
  auto fat = ComputeOccupancy(*device, {256, in_registers.registers, 0});
  auto thin = ComputeOccupancy(*device, {256, spilled.registers, 0});
  ASSERT_TRUE(fat.ok() && thin.ok());
  EXPECT_EQ(in_registers.registers, 72);  // ptxas, nvcc 13.0, sm_90 (the committed table)
  EXPECT_EQ(fat->active_blocks, 3);
  EXPECT_DOUBLE_EQ(fat->occupancy, 0.375);
  EXPECT_EQ(thin->active_blocks, 8);
  EXPECT_DOUBLE_EQ(thin->occupancy, 1.0);
}

}  // namespace
}  // namespace ws
