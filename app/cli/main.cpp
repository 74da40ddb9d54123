// warpscope-cli: the headless command line (no GUI libraries, so it builds on a GPU server).
#include <CLI/CLI.hpp>

#include <iostream>
#include <nlohmann/json.hpp>

#include "warpscope/kernels/devices.h"

namespace {

int ListDevices(bool as_json) {
  const ws::DeviceQuery q = ws::QueryDevices();
  if (as_json) {
    nlohmann::json j;
    j["cuda_built"] = q.cuda_built;
    j["gpus"] = nlohmann::json::array();
    for (const auto& g : q.gpus) {
      j["gpus"].push_back(
          {{"index", g.index},
           {"name", g.name},
           {"compute_capability", std::to_string(g.cc_major) + "." + std::to_string(g.cc_minor)},
           {"multiprocessors", g.multiprocessors},
           {"warp_size", g.warp_size},
           {"max_threads_per_block", g.max_threads_per_block},
           {"max_threads_per_multiprocessor", g.max_threads_per_multiprocessor},
           {"shared_mem_per_block", g.shared_mem_per_block},
           {"shared_mem_per_multiprocessor", g.shared_mem_per_multiprocessor},
           {"registers_per_multiprocessor", g.registers_per_multiprocessor},
           {"global_mem", g.global_mem}});
    }
    if (q.gpus.empty()) j["why_no_gpu"] = q.why_no_gpu;
    j["default_backend"] = ws::DefaultBackendLabel(q);
    std::cout << j.dump(2) << "\n";
    return 0;
  }
  std::cout << "CPU emulator: always available\n";
  for (const auto& g : q.gpus) {
    std::cout << "GPU " << g.index << ": " << g.name << " (compute " << g.cc_major << "."
              << g.cc_minor << ", " << g.multiprocessors << " SMs, " << (g.global_mem >> 20)
              << " MiB)\n";
  }
  if (q.gpus.empty()) std::cout << "No GPU: " << q.why_no_gpu << "\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{"warpscope-cli: run Warpscope's lessons without a display."};
  cli.set_version_flag("--version", std::string("warpscope-cli ") + WARPSCOPE_VERSION);
  cli.require_subcommand(1);
  bool json = false;
  auto* devices =
      cli.add_subcommand("devices", "List the backends: the CPU emulator and CUDA GPUs");
  devices->add_flag("--json", json, "One JSON object");
  CLI11_PARSE(cli, argc, argv);
  if (*devices) return ListDevices(json);
  return 2;
}
