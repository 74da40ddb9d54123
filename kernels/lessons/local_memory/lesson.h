// local-memory: where a thread's array lives: registers, spilled to local memory, or local
// memory because it is indexed at run time (the memory-model slides).
#pragma once

#include <set>

#include "warpscope/kernels/lesson.h"
#include "warpscope/lesson_kernels/local_memory.cuh"  // local_memory.cuh, in the recording API

namespace ws::lessons::local_memory {

constexpr int kItems = 64;  // ITEMS in local_memory.cuh

struct Figures {
  static constexpr const char* kKind = "local-memory";
  static constexpr int kVersion = 1;
  int registers = -1;                   // per thread, from the compiler (-1: not known)
  std::uint32_t local_bytes = 0;        // per thread: the stack frame in local memory
  std::uint32_t spill_store_bytes = 0;  // ptxas's count of spilled bytes
  std::uint64_t local_load_requests = 0, local_store_requests = 0;  // a[...] in local memory
  std::uint64_t local_load_sectors = 0, local_store_sectors = 0;
  double local_sectors_per_load = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Figures, registers, local_bytes, spill_store_bytes,
                                   local_load_requests, local_store_requests, local_load_sectors,
                                   local_store_sectors, local_sectors_per_load)

// The 32-byte sectors a warp's access to a[k[lane]] touches in local memory, which is laid out
// so that "consecutive 32-bit words are accessed by consecutive thread IDs" (CUDA C++
// Programming Guide, Device Memory Accesses): word k of lane l is word k * 32 + l of the warp's
// part, so lanes reading the same k fill one 128-byte line (4 sectors), and lanes reading
// different k touch a line each.
inline std::uint32_t LocalSectors(const std::vector<int>& k) {
  std::set<std::uint32_t> sectors;
  for (std::size_t lane = 0; lane < k.size(); ++lane)
    sectors.insert((static_cast<std::uint32_t>(k[lane]) * 32 + static_cast<std::uint32_t>(lane)) *
                   4 / 32);
  return static_cast<std::uint32_t>(sectors.size());
}

struct Lesson {
  static LessonInfo Info() {
    LessonInfo l;
    l.id = "local-memory";
    l.title = "Registers and local memory: where a thread's array lives";
    l.order = 135;
    l.variants = {
        {"registers",
         "64 floats indexed by constants: the compiler keeps them in registers",
         {"stride"}},
        {"spilled",
         "the same kernel held to 32 registers (__launch_bounds__(1024, 2)): spills",
         {"stride"}},
        {"indexed", "the array indexed at run time (a[pick[...]]): all of it in local memory"}};
    l.params = {{"threads", 256, 32, 512, 32,
                 "threads per block (at most 512: 1024 threads of 72 registers need 73,728 "
                 "registers, over a multiprocessor's 65,536, and a GPU refuses the launch)"},
                {"blocks", 8, 1, 4096, 1, "blocks in the grid"},
                {"stride", 1, 0, 8, 1,
                 "indexed: lane l reads a[(i + stride * l) % 64]; 0: every lane the same element"}};
    l.explanation =
        "The slides list per-thread local memory beside registers and say that \"automatic "
        "variables reside in a register, except arrays that reside in local memory\". That was "
        "never the whole story and is not today: an array whose indices the compiler can work "
        "out (the loops unroll) lives in registers, 72 of them here, with no local memory at "
        "all. Local memory is for what cannot be in registers: an array indexed at run time "
        "(the slides' \"indexes cannot be defined in compilation time\"), and spills, when the "
        "kernel needs more registers than it may have (__launch_bounds__ or -maxrregcount). "
        "Local memory is in device memory, as slow as global memory but cached in L1. Each "
        "thread's words are interleaved with its warp's, so lanes reading the same element "
        "fill one 128-byte line (4 sectors) and lanes reading different elements a line each "
        "(32 sectors): try stride 0 and 1. Registers and local bytes come from the compiler "
        "(the source and occupancy views show them): fewer registers let more warps run at "
        "once, at the price of local-memory traffic. The spilled kernel has no loops left, so "
        "each 4-byte register ptxas spills is one store a warp makes, and each one it reloads "
        "one load: on an H200 Nsight Compute counted exactly these requests. The modeled time "
        "charges every local sector at DRAM bandwidth; on a GPU most of them hit L1, which is "
        "why the measured costs are smaller (docs/GPU.md has the H200's figures).";
    l.source_file = "local_memory.cuh";
    l.read_figures = &ReadFigures<Figures>;
    l.figures_from_timed_build = true;  // on a GPU: the registers of the kernel, not the recorder
    l.emulator_cost = [](const Params& p) { return At(p, "threads") * At(p, "blocks") * kItems; };
    l.front_panel = "occupancy";
    l.figures = {{"registers", "Registers per thread (compiler)", ""},
                 {"local_bytes", "Local memory per thread (compiler)", "B"},
                 {"spill_store_bytes", "Bytes spilled (ptxas)", "B"},
                 {"local_load_requests", "Local load requests", ""},
                 {"local_sectors_per_load", "Local sectors per load request", ""}};
    return l;
  }

  template <LessonBackend B>
  static Status Run(B& b, LessonCall& c) {
    const long long threads = c.P("threads"), blocks = c.P("blocks");
    const int stride = c.I("stride");
    const auto n = static_cast<std::size_t>(threads * blocks);
    // Small whole numbers: every product and sum is exact in float, on any GPU (FMA or not).
    std::vector<float> in(n * kItems);
    std::vector<int> pick(n * kItems);
    for (std::size_t i = 0; i < static_cast<std::size_t>(kItems); ++i) {
      for (std::size_t t = 0; t < n; ++t) {
        in[i * n + t] = static_cast<float>((i * 7 + t) % 16);
        pick[i * n + t] = static_cast<int>((i + static_cast<std::size_t>(stride) * (t % 32)) %
                                           static_cast<std::size_t>(kItems));
      }
    }
    auto in_d = b.template Upload<float>("in", in);
    auto out = b.template Alloc<float>("out", n);
    const Dim3 grid = Grid1D(blocks), block = Grid1D(threads);
    const int ni = static_cast<int>(n);
    const bool indexed = c.Is("indexed");
    Status s;
    if (indexed) {
      auto pick_d = b.template Upload<int>("pick", pick);
      s = WS_LAUNCH(b, arrayInLocalMemory, grid, block, 0, out, in_d, pick_d, ni);
    } else if (c.Is("spilled")) {
      s = WS_LAUNCH(b, arraySpilled, grid, block, 0, out, in_d, ni);
    } else {
      s = WS_LAUNCH(b, arrayInRegisters, grid, block, 0, out, in_d, ni);
    }
    if (!s.ok()) return s;
    std::vector<float> want(n, 0.0f);
    for (std::size_t t = 0; t < n; ++t) {
      float sum = 0.0f;
      for (std::size_t i = 0; i < static_cast<std::size_t>(kItems); ++i) {
        sum += indexed ? in[static_cast<std::size_t>(pick[i * n + t]) * n + t] *
                             static_cast<float>(i + 1)
                       : in[i * n + t] * in[(kItems - 1 - i) * n + t];
      }
      want[t] = sum;
    }
    c.check = CompareAt(b.Download(out), want, "local-memory " + c.variant);
    const LaunchTrace& t = b.launches().back();
    Figures f;
    f.registers = t.resources.registers;
    f.local_bytes = t.resources.local_bytes;
    f.spill_store_bytes = t.resources.spill_stores;
    const std::size_t warps_per_block = static_cast<std::size_t>((threads + 31) / 32);
    const std::uint64_t warps = warps_per_block * static_cast<std::uint64_t>(blocks);
    if (indexed) {
      // Every thread stores a[0..63] (each request: the warp's 32 lanes at one k) and loads
      // a[pick] 64 times; the loads' sectors follow from `pick` (LocalSectors). `pick` depends
      // on the lane and i only, and every warp is whole (threads go in steps of 32), so one
      // warp's count times the warps is the grid's.
      for (std::size_t i = 0; i < static_cast<std::size_t>(kItems); ++i) {
        std::vector<int> k(32);
        for (std::size_t l = 0; l < 32; ++l) k[l] = pick[i * n + l];
        f.local_store_sectors += warps * LocalSectors(std::vector<int>(32, static_cast<int>(i)));
        f.local_load_sectors += warps * LocalSectors(k);
      }
      f.local_store_requests = warps * kItems;
      f.local_load_requests = warps * kItems;
    } else if (t.resources.spills_known) {
      // The spilled kernel is straight-line code (its loops unroll), so each spilled 4-byte
      // register in ptxas's count is one store (or load) every warp makes once: a request of
      // the 32 lanes' same word, one 128-byte line, 4 sectors (LocalSectors of one k).
      f.local_store_requests = warps * (t.resources.spill_stores / 4);
      f.local_load_requests = warps * (t.resources.spill_loads / 4);
      const std::uint32_t line = LocalSectors(std::vector<int>(32, 0));
      f.local_store_sectors = f.local_store_requests * line;
      f.local_load_sectors = f.local_load_requests * line;
    }
    if (f.local_load_requests > 0)
      f.local_sectors_per_load =
          static_cast<double>(f.local_load_sectors) / static_cast<double>(f.local_load_requests);
    c.unrecorded_sectors = f.local_load_sectors + f.local_store_sectors;
    c.SetFigures(f);
    return {};
  }
};

}  // namespace ws::lessons::local_memory
