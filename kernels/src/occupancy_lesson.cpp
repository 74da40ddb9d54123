// The occupancy lesson: the calculator itself, no kernel. Its figures and the slides' three
// graphs (occupancy against block size, register count and shared memory) go to the metrics.
#include <algorithm>

#include "lesson_entry_points.h"
#include "warpscope/kernels/devices.h"
#include "warpscope/trace/occupancy.h"

namespace ws {
namespace {

// The picked GPU's limits from cudaGetDeviceProperties; allocation units as on compute 7.0+.
Result<OccupancyDevice> GpuOccupancyDevice(int index) {
  const DeviceQuery q = QueryDevices();
  if (q.gpus.empty())
    return Status::Error("device = gpu needs a GPU, and there is none: " + q.why_no_gpu);
  auto it = std::find_if(q.gpus.begin(), q.gpus.end(),
                         [&](const GpuDevice& g) { return g.index == index; });
  if (it == q.gpus.end())
    return Status::Error("device = gpu: GPU " + std::to_string(index) +
                         " does not exist; this machine has " + std::to_string(q.gpus.size()));
  const GpuDevice& g = *it;
  OccupancyDevice d = *FindOccupancyDevice(g.cc_major >= 9   ? "cc9.0"
                                           : g.cc_major >= 8 ? "cc8.0"
                                                             : "cc7.0");
  d.name = "gpu";
  d.description =
      g.name + " (compute " + std::to_string(g.cc_major) + "." + std::to_string(g.cc_minor) + ")";
  d.multiprocessors = g.multiprocessors;
  d.max_threads_per_block = g.max_threads_per_block;
  d.max_warps_per_sm = g.max_threads_per_multiprocessor / g.warp_size;
  if (g.max_blocks_per_multiprocessor > 0) d.max_blocks_per_sm = g.max_blocks_per_multiprocessor;
  d.registers_per_sm = g.registers_per_multiprocessor;
  d.shared_per_sm = static_cast<int>(g.shared_mem_per_multiprocessor);
  return d;
}

nlohmann::json Point(const std::string& x_name, int x, const Result<OccupancyResult>& r) {
  return {{x_name, x},
          {"occupancy", r.ok() ? r->occupancy : 0.0},
          {"active_blocks", r.ok() ? r->active_blocks : 0}};
}

}  // namespace

Status RunOccupancyLesson(const Params& p, int gpu, LessonRun* run) {
  const long long device_index = p.at("device");
  // The choices are the calculator's generations, then "gpu" (catalog.cpp).
  const auto& generations = OccupancyDevices();
  const std::string device_name =
      device_index >= 0 && device_index < static_cast<long long>(generations.size())
          ? generations[static_cast<std::size_t>(device_index)].name
          : "gpu";
  auto device = device_name == "gpu" ? GpuOccupancyDevice(gpu) : FindOccupancyDevice(device_name);
  if (!device.ok()) return device.status();
  const OccupancyDevice& d = *device;
  const OccupancyInput in{static_cast<int>(p.at("threads")), static_cast<int>(p.at("registers")),
                          static_cast<int>(p.at("shared_bytes"))};
  auto r = ComputeOccupancy(d, in);
  if (!r.ok()) return r.status();
  run->device = d.name + " " + d.description;
  run->check = {true, "calculator: no kernel output to check"};
  run->timing = {"none", 0, "the calculator runs no kernel"};
  nlohmann::json& m = run->metrics;
  m["device"] = d.name;
  m["active_blocks"] = r->active_blocks;
  m["active_warps"] = r->active_warps;
  m["active_threads"] = r->active_threads;
  m["occupancy"] = r->occupancy;
  m["limiter"] = r->limiter;
  m["warps_per_block"] = r->warps_per_block;
  m["registers_per_block"] = r->registers_per_block;
  m["shared_per_block"] = r->shared_per_block;
  m["limits"] = {{"warps", r->limit_warps},
                 {"registers", r->limit_registers},
                 {"shared", r->limit_shared},
                 {"blocks", r->limit_blocks}};
  m["blocks_per_gpu"] = r->active_blocks * d.multiprocessors;
  // The slides' three graphs: vary one input, keep the others.
  for (int t = 32; t <= d.max_threads_per_block; t += 32) {
    m["vary_threads"].push_back(
        Point("threads", t, ComputeOccupancy(d, {t, in.registers, in.shared_bytes})));
  }
  for (int reg = 0; reg <= d.max_registers_per_thread; reg += (reg < 32 ? 1 : 4)) {
    m["vary_registers"].push_back(
        Point("registers", reg, ComputeOccupancy(d, {in.threads, reg, in.shared_bytes})));
  }
  const int step = std::max(d.shared_unit, d.shared_per_sm / 64 / d.shared_unit * d.shared_unit);
  for (int sh = 0; sh <= d.shared_per_sm; sh += step) {
    m["vary_shared"].push_back(
        Point("shared_bytes", sh, ComputeOccupancy(d, {in.threads, in.registers, sh})));
  }
  return {};
}

}  // namespace ws
