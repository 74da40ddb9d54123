// Which backends can run a lesson here: the CPU emulator always, and each CUDA GPU that the
// driver reports when Warpscope was built with the CUDA runner.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace ws {

// What cudaGetDeviceProperties says about one GPU (the subset the app and occupancy use).
struct GpuDevice {
  int index = 0;
  std::string name;
  int cc_major = 0;
  int cc_minor = 0;
  int multiprocessors = 0;
  int warp_size = 32;
  int max_threads_per_block = 0;
  int max_threads_per_multiprocessor = 0;
  int max_blocks_per_multiprocessor = 0;
  int registers_per_block = 0;
  int registers_per_multiprocessor = 0;
  std::size_t shared_mem_per_block = 0;
  std::size_t shared_mem_per_block_optin = 0;
  std::size_t shared_mem_per_multiprocessor = 0;
  std::size_t global_mem = 0;
  int clock_khz = 0;
  int memory_clock_khz = 0;
  int memory_bus_width_bits = 0;
};

// The properties trace files record for the GPU a run used (its "gpu" header field).
nlohmann::json GpuJson(const GpuDevice& g);

struct DeviceQuery {
  bool cuda_built = false;      // was the CUDA runner compiled in?
  std::vector<GpuDevice> gpus;  // empty when none could be used
  std::string why_no_gpu;       // a sentence for the user when gpus is empty
};

// Asks the CUDA runtime for every GPU. Never fails: with no driver, no GPU or no CUDA build it
// returns no GPUs and says why.
DeviceQuery QueryDevices();

// The label for the status bar: the first GPU's name, or "CPU emulator".
std::string DefaultBackendLabel(const DeviceQuery& query);

}  // namespace ws
