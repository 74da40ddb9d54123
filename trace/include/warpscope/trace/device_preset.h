// The limits of a GPU generation, so the emulator refuses what that GPU would refuse, with a
// message naming the limit and the value.
#pragma once

#include <string>
#include <vector>

#include "warpscope/trace/records.h"
#include "warpscope/trace/status.h"

namespace ws {

struct DevicePreset {
  std::string name;         // "hopper"
  std::string description;  // "compute 9.0 (H100)"
  std::uint32_t max_threads_per_block = 1024;
  Dim3 max_block = {1024, 1024, 64};
  Dim3 max_grid = {2147483647u, 65535, 65535};
  std::uint32_t shared_per_block = 48 * 1024;  // static __shared__ limit
  std::uint32_t multiprocessors = 132;
  double bandwidth_gbps = 3350;  // DRAM, for modeled times
  double clock_ghz = 1.98;
  std::uint32_t compute_capability = 90;  // major * 10 + minor: 90 is compute 9.0
  // The most a block may have once its kernel asks (cudaFuncSetAttribute(k,
  // cudaFuncAttributeMaxDynamicSharedMemorySize, n)): 0 where no more than shared_per_block.
  std::uint32_t shared_per_block_optin = 0;
};

// The preset's peak single-precision rate in GFLOP/s: SMs x FP32 lanes per SM (8 on compute 1.x,
// 32 on 2.0, 64 on 7.x and 8.0, 128 on 9.0) x 2 (an FMA is two operations) x clock. Hopper:
// 132 x 128 x 2 x 1.98 GHz = 66.9 TFLOP/s, the H100 SXM's figure.
double Fp32PeakGflops(const DevicePreset& p);

const std::vector<DevicePreset>& DevicePresets();
Result<DevicePreset> FindDevicePreset(const std::string& name);

// Checks a launch against the preset's limits before anything runs.
Status CheckLaunch(const DevicePreset& preset, Dim3 grid, Dim3 block, std::uint32_t shared_bytes);

}  // namespace ws
