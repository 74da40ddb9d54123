// The occupancy calculator of the "Optimizing CUDA" slides (NVIDIA's CUDA_Occupancy_calculator):
// how many blocks of a kernel fit on one multiprocessor at once, given threads per block,
// registers per thread and shared memory per block, and which limit binds.
//
//   OccupancyInput in{192, 20, 68};
//   OccupancyResult r = ComputeOccupancy(*FindOccupancyDevice("cc1.0"), in);
//   // r.active_blocks == 2 (registers bind), r.occupancy == 0.5: the slides' G80 example
#pragma once

#include <string>
#include <vector>

#include "warpscope/trace/status.h"

namespace ws {

struct OccupancyDevice {
  std::string name;  // "cc1.0"
  std::string description;
  int multiprocessors = 16;
  int max_threads_per_block = 512;
  int max_warps_per_sm = 24;
  int max_blocks_per_sm = 8;
  int registers_per_sm = 8192;
  int register_unit = 256;          // registers are allocated in units of this many
  bool registers_per_block = true;  // allocation granularity: per block (1.x) or per warp
  int max_registers_per_thread = 124;
  int shared_per_sm = 16384;
  int shared_unit = 512;
  int shared_reserved_per_block = 0;  // system use per block (1 KB from compute 8.0)
  int warp_unit = 2;                  // warps are allocated in multiples of this
};

struct OccupancyInput {
  int threads = 256;     // per block
  int registers = 0;     // per thread (0: not limiting)
  int shared_bytes = 0;  // per block
};

struct OccupancyResult {
  int warps_per_block = 0;
  int registers_per_block = 0;  // as allocated
  int shared_per_block = 0;     // as allocated
  int limit_warps = 0, limit_registers = 0, limit_shared = 0, limit_blocks = 0;
  int active_blocks = 0, active_warps = 0, active_threads = 0;
  double occupancy = 0;  // active warps / max warps per multiprocessor
  std::string limiter;   // warps | registers | shared | blocks | threads_per_block
};

const std::vector<OccupancyDevice>& OccupancyDevices();  // cc1.0 ... cc9.0
std::vector<std::string> OccupancyDeviceNames();         // their names, in order
Result<OccupancyDevice> FindOccupancyDevice(const std::string& name);

// Refuses inputs the device cannot take at all (registers over its per-thread maximum, negative
// values) with a message naming the limit and the value. Threads over the per-block maximum give
// zero active blocks and the limiter "threads_per_block".
Result<OccupancyResult> ComputeOccupancy(const OccupancyDevice& d, const OccupancyInput& in);

// One point of the slides' graphs: occupancy as one input varies and the others stay.
struct OccupancyPoint {
  int x = 0;  // threads per block, registers per thread or shared bytes per block
  double occupancy = 0;
  int active_blocks = 0;
};
struct OccupancyCurves {
  std::vector<OccupancyPoint> threads, registers, shared;
};
// The three graphs around `in`: threads in warps (32, 64, ... the device's maximum), registers
// 0 ... the per-thread maximum, shared memory in allocation units (at most 2048 samples). Every
// x in (x[i-1], x[i]] allocates like x[i], so drawn as stairs they are exact. Inputs the device
// refuses count as 0 %.
OccupancyCurves ComputeOccupancyCurves(const OccupancyDevice& d, const OccupancyInput& in);

}  // namespace ws
