// occupancy: the calculator of the "Optimizing CUDA" slides (no kernel).
#pragma once

#include "warpscope/kernels/devices.h"
#include "warpscope/kernels/lesson.h"
#include "warpscope/trace/lesson_figures.h"
#include "warpscope/trace/occupancy.h"

namespace ws::lessons::occupancy {

// The picked GPU's limits from cudaGetDeviceProperties; allocation units as on compute 7.0+.
inline Result<OccupancyDevice> GpuOccupancyDevice(int index) {
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

struct Lesson {
  static LessonInfo Info() {
    LessonInfo l;
    l.id = "occupancy";
    l.title = "Occupancy calculator";
    l.order = 140;
    l.kind = LessonKind::kCalculator;
    l.variants = {
        {"calculator", "blocks, warps and threads per multiprocessor; which limit binds"}};
    std::vector<std::string> devices = OccupancyDeviceNames();
    devices.push_back("gpu");  // this machine's GPU
    l.params = {{"threads", 192, 1, 1024, 1, "threads per block"},
                {"registers", 20, 0, 255, 1, "registers per thread"},
                {"shared_bytes", 68, 0, 232448, 1, "shared memory per block (bytes)"},
                {"device", 0, 0, static_cast<long long>(devices.size()) - 1, 1,
                 "the GPU generation", devices}};
    l.explanation =
        "Occupancy is the number of warps a multiprocessor runs at once divided by the most it "
        "can run. A block only starts when all of its warps, registers and shared memory fit, "
        "so the scarcest resource sets how many blocks are resident. The slides' G80 example "
        "(192 threads, 20 registers, 68 bytes of shared memory) is limited by registers: 2 "
        "blocks, 12 warps, 50 %. The slide prints 3640 registers per block; 6 warps x 32 "
        "threads x 20 registers is 3840, the figure used here. Move one input at a time and "
        "watch which limit binds.";
    l.read_figures = &ReadFigures<OccupancyFigures>;
    l.emulator_cost = [](const Params&) { return 1.0; };
    l.front_panel = "occupancy";
    l.figures = {{"occupancy", "Occupancy", "%", 100},
                 {"active_blocks", "Resident blocks per SM", "blocks"},
                 {"active_warps", "Resident warps per SM", "warps"},
                 {"active_threads", "Resident threads per SM", "threads"},
                 {"limiter", "Limited by", ""},
                 {"warps_per_block", "Warps per block", "warps"},
                 {"registers_per_block", "Registers per block", "registers"},
                 {"shared_per_block", "Shared memory per block", "B"},
                 {"blocks_per_gpu", "Blocks resident on the whole GPU", "blocks"},
                 {"device", "Device", ""}};
    return l;
  }

  static Status Model(LessonCall& c) {
    const std::vector<std::string> generations = OccupancyDeviceNames();
    const auto index = static_cast<std::size_t>(c.P("device"));
    const std::string name = index < generations.size() ? generations[index] : "gpu";
    auto device = name == "gpu" ? GpuOccupancyDevice(c.options.gpu) : FindOccupancyDevice(name);
    if (!device.ok()) return device.status();
    const OccupancyDevice& d = *device;
    const OccupancyInput in{c.I("threads"), c.I("registers"), c.I("shared_bytes")};
    auto r = ComputeOccupancy(d, in);
    if (!r.ok()) return r.status();
    c.device = d.name + " " + d.description;
    c.check = {true, "calculator: no kernel output to check"};
    c.timing = Timing{"none", 0, "the calculator runs no kernel"};
    OccupancyFigures f;
    f.device = d.name;
    f.active_blocks = r->active_blocks;
    f.active_warps = r->active_warps;
    f.active_threads = r->active_threads;
    f.occupancy = r->occupancy;
    f.limiter = r->limiter;
    f.warps_per_block = r->warps_per_block;
    f.registers_per_block = r->registers_per_block;
    f.shared_per_block = r->shared_per_block;
    f.limits = {r->limit_warps, r->limit_registers, r->limit_shared, r->limit_blocks};
    f.blocks_per_gpu = r->active_blocks * d.multiprocessors;
    OccupancyCurves curves = ComputeOccupancyCurves(d, in);  // the slides' three graphs
    f.vary_threads = std::move(curves.threads);
    f.vary_registers = std::move(curves.registers);
    f.vary_shared = std::move(curves.shared);
    c.SetFigures(std::move(f));
    return {};
  }
};

}  // namespace ws::lessons::occupancy
