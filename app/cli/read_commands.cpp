// warpscope-cli's commands that only read: `devices`, `layout` and `show` (read_commands.h).
#include "cli/read_commands.h"

#include <iostream>
#include <nlohmann/json.hpp>

#include "core/capture.h"
#include "warpscope/kernels/devices.h"
#include "warpscope/trace/layout_table.h"
#include "warpscope/trace/printed_text.h"
#include "warpscope/trace/run_report.h"

namespace ws::cli {

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

// `layout`: which pixel each memory position holds, in memory order. Text: rows of `width`
// regular (row-major) addresses, the form of the slides' reordered-address table.
int LayoutCommand(const std::string& kind, int width, int height, int tile_w, int tile_h,
                  int micro_w, int micro_h, bool json) {
  auto k = ws::ParseLayoutKind(kind);
  if (!k.ok()) {
    std::cerr << "warpscope-cli: " << k.status().message() << "\n";
    return 2;
  }
  const ws::Layout2D layout{*k, width, height, tile_w, tile_h, micro_w, micro_h};
  auto order = ws::MemoryOrder(layout);
  if (!order.ok()) {
    std::cerr << "warpscope-cli: " << order.status().message() << "\n";
    return 2;
  }
  if (json) {
    nlohmann::json j = {{"layout", kind}, {"width", width}, {"height", height}};
    if (*k == ws::LayoutKind::kTiled) {
      j["tile"] = {tile_w, tile_h};
      j["micro_tile"] = {micro_w, micro_h};
    }
    for (const ws::LayoutCell& c : *order)
      j["cells"].push_back({{"position", c.position}, {"x", c.x}, {"y", c.y}});
    std::cout << j.dump() << "\n";
    return 0;
  }
  std::size_t i = 0;
  for (const ws::LayoutCell& c : *order) {
    std::cout << (c.y * width + c.x)
              << ((++i % static_cast<std::size_t>(width)) == 0 ? "\n" : "\t");
  }
  if (i % static_cast<std::size_t>(width) != 0) std::cout << "\n";
  return 0;
}

// `show`: a trace file's run as `run` prints it, and the command that runs it again.
int ShowCommand(const std::string& path, bool json, bool every_launch) {
  auto r = ws::LoadTraceAsRun(path);
  if (!r.ok()) {
    std::cerr << "warpscope-cli: " << r.status().message() << "\n";
    return 1;
  }
  const std::string again = ws::ReplayCommand(*r);
  if (json) {
    nlohmann::json j = ws::RunJson(*r);
    if (!again.empty()) j["replay"] = again;
    std::cout << ws::JsonText(j, 2) << "\n";
  } else {
    std::cout << ws::RunText(*r, every_launch);
    if (!again.empty()) std::cout << "run it again: " << again << "\n";
  }
  return 0;
}

}  // namespace ws::cli
