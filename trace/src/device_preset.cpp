#include "warpscope/trace/device_preset.h"

#include <sstream>

namespace ws {

double Fp32PeakGflops(const DevicePreset& p) {
  const std::uint32_t cc = p.compute_capability;
  const double lanes = cc < 20 ? 8 : cc < 30 ? 32 : cc < 90 ? 64 : 128;
  return static_cast<double>(p.multiprocessors) * lanes * 2.0 * p.clock_ghz;
}

const std::vector<DevicePreset>& DevicePresets() {
  // Limits from the CUDA C Programming Guide's "Technical Specifications per Compute Capability".
  static const std::vector<DevicePreset> presets = {
      {"g80",
       "compute 1.0 (GeForce 8800 GTX, the textbook's G80)",
       512,
       {512, 512, 64},
       {65535, 65535, 1},
       16 * 1024,
       16,
       86.4,
       1.35,
       10},
      {"gt200",
       "compute 1.3 (GTX 280, the slides' coalescing GPU)",
       512,
       {512, 512, 64},
       {65535, 65535, 1},
       16 * 1024,
       30,
       141,
       1.30,
       13},
      {"fermi",
       "compute 2.0 (GTX 480)",
       1024,
       {1024, 1024, 64},
       {65535, 65535, 65535},
       48 * 1024,
       15,
       177,
       1.40,
       20},
      {"turing",
       "compute 7.5 (T4)",
       1024,
       {1024, 1024, 64},
       {2147483647u, 65535, 65535},
       48 * 1024,
       40,
       320,
       1.59,
       75,
       64 * 1024},
      {"ampere",
       "compute 8.0 (A100)",
       1024,
       {1024, 1024, 64},
       {2147483647u, 65535, 65535},
       48 * 1024,
       108,
       1555,
       1.41,
       80,
       163 * 1024},
      {"hopper",
       "compute 9.0 (H100)",
       1024,
       {1024, 1024, 64},
       {2147483647u, 65535, 65535},
       48 * 1024,
       132,
       3350,
       1.98,
       90,
       227 * 1024},
  };
  return presets;
}

Result<DevicePreset> FindDevicePreset(const std::string& name) {
  std::string names;
  for (const DevicePreset& p : DevicePresets()) {
    if (p.name == name) return p;
    names += (names.empty() ? "" : ", ") + p.name;
  }
  return Status::Error("unknown device preset '" + name + "'; presets are: " + names);
}

Status CheckLaunch(const DevicePreset& p, Dim3 grid, Dim3 block, std::uint32_t shared_bytes) {
  std::ostringstream m;
  const char* axis[] = {"x", "y", "z"};
  const std::uint32_t b[] = {block.x, block.y, block.z},
                      bmax[] = {p.max_block.x, p.max_block.y, p.max_block.z};
  const std::uint32_t g[] = {grid.x, grid.y, grid.z},
                      gmax[] = {p.max_grid.x, p.max_grid.y, p.max_grid.z};
  for (int i = 0; i < 3; ++i) {
    if (b[i] == 0 || g[i] == 0) {
      m << "launch dimensions must be at least 1 (block." << axis[i] << " = " << b[i] << ", grid."
        << axis[i] << " = " << g[i] << ")";
      return Status::Error(m.str());
    }
  }
  if (block.count() > p.max_threads_per_block) {
    m << "a block of " << block.count() << " threads (" << block.x << "x" << block.y << "x"
      << block.z << ") is over the limit of " << p.max_threads_per_block << " threads per block on "
      << p.name << " (" << p.description << ")";
    return Status::Error(m.str());
  }
  for (int i = 0; i < 3; ++i) {
    if (b[i] > bmax[i]) {
      m << "block." << axis[i] << " = " << b[i] << " is over the limit of " << bmax[i] << " on "
        << p.name;
      return Status::Error(m.str());
    }
    if (g[i] > gmax[i]) {
      m << "grid." << axis[i] << " = " << g[i] << " is over the limit of " << gmax[i] << " on "
        << p.name;
      return Status::Error(m.str());
    }
  }
  if (shared_bytes > p.shared_per_block) {
    m << "the kernel's " << shared_bytes
      << " bytes of shared memory per block are over the limit of " << p.shared_per_block
      << " bytes on " << p.name;
    if (shared_bytes <= p.shared_per_block_optin)
      m << " (a block may have up to " << p.shared_per_block_optin
        << " once its kernel asks: cudaFuncSetAttribute(kernel, "
           "cudaFuncAttributeMaxDynamicSharedMemorySize, bytes))";
    return Status::Error(m.str());
  }
  return {};
}

}  // namespace ws
