// occupancy: the calculator of the "Optimizing CUDA" slides (no kernel).
#pragma once

#include <algorithm>

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
    // Kirk & Hwu 4.7 and 4.9 on the devices they name (registers and shared memory left out:
    // the questions are about threads and blocks).
    const auto device = [&](const std::string& name) {
      return static_cast<long long>(std::find(devices.begin(), devices.end(), name) -
                                    devices.begin());
    };
    const auto ex47 = [&](const char* part, int blocks, int threads, const char* cc,
                          const char* answer) {
      return Preset{std::string("4.7 ") + part,
                    std::string("Kirk & Hwu 4.7 ") + part + ": " + std::to_string(blocks) +
                        " blocks with " + std::to_string(threads) +
                        " threads each per multiprocessor, on a device of compute capability " +
                        cc + ". Possible? If not, what limits it?",
                    "",
                    {{"threads", threads},
                     {"registers", 0},
                     {"shared_bytes", 0},
                     {"device", device(std::string("cc") + cc)}},
                    "",
                    {"active_blocks", "active_warps", "limiter"},
                    answer};
    };
    l.presets = {
        ex47("a", 8, 128, "1.0",
             "No: 8 x 128 threads are 32 warps, over compute 1.0's 24 warps (768 threads) per "
             "multiprocessor. 6 blocks fit; the warps (threads) limit binds."),
        ex47("b", 8, 128, "1.2",
             "Yes: 32 warps is exactly compute 1.2's limit (1,024 threads), and 8 blocks exactly "
             "its block limit."),
        ex47("c", 8, 128, "3.0",
             "Yes: compute 3.0 holds 16 blocks and 64 warps (2,048 threads); 8 blocks of 4 "
             "warps use half of each."),
        ex47("d", 16, 64, "1.0",
             "No: compute 1.0 runs at most 8 blocks per multiprocessor (and 16 x 64 = 1,024 "
             "threads are over its 768 as well). 8 blocks fit; the block limit binds."),
        ex47("e", 16, 64, "1.2",
             "No: at most 8 blocks per multiprocessor on compute 1.2, although its 1,024 "
             "threads would hold the 16 x 64. 8 blocks fit; the block limit binds."),
        ex47("f", 16, 64, "3.0",
             "Yes: 16 blocks is compute 3.0's block limit, and 16 x 64 = 1,024 threads are half "
             "its 2,048."),
        {"4.9",
         "Kirk & Hwu 4.9: a student multiplied two 1,024 x 1,024 matrices with a tiled kernel "
         "and 32 x 32 thread blocks, one thread per result element, on a device that allows "
         "512 threads per block and 8 blocks per multiprocessor. Your reaction?",
         "",
         {{"threads", 1024}, {"registers", 0}, {"shared_bytes", 0}, {"device", device("cc1.0")}},
         "",
         {"active_blocks", "limiter"},
         "It cannot have run as described: a 32 x 32 block is 1,024 threads, twice the 512 a "
         "block may have, so the launch fails and no block runs (limited by threads per "
         "block). With 16 x 16 blocks (256 threads) it works: 3 of them fit on a compute 1.0 "
         "multiprocessor's 768 threads."}};
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
    f.threads = in.threads;
    f.registers = in.registers;
    f.shared_bytes = in.shared_bytes;
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
