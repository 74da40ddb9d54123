// The view gallery (like imgui_demo.cpp): every view drawn side by side from small runs built
// here in code, not by a lesson, so that what a view draws for a known input can be looked at in
// one place and checked pixel by pixel (GuiGallery in tests/app/gui_views_test.cpp). Hidden until
// opened from View > View gallery or with `warpscope --panel gallery`.
//
// Each exhibit is a Session holding one synthetic run and one view panel reading it. The runs:
//   bank conflict     one warp stores word 32 k from lane k: 32 words in bank 0, a 32-way
//                     conflict (the wiring draws 32 lines into bank 0)
//   no conflict       lane k stores word k: one word per bank
//   aligned copy      lane k loads float k of a 256-byte aligned buffer: 128 bytes, sectors 0-3
//   offset copy       lane k loads float k + 1: bytes 4-131, sectors 0-4 (five transactions)
//   uneven barrier    thread t arrives at t x 10 units, all leave at 310: the barrier timeline
//   figures           a block schedule (4 blocks on 2 SMs: two waves), float sums, a latency
//                     timeline, transfers, multi-GPU and occupancy, each with hand-picked values
#include <imgui.h>

#include <memory>
#include <string>
#include <vector>

#include "view_util.h"
#include "warpscope/trace/analysis.h"
#include "warpscope/trace/block_view.h"
#include "warpscope/trace/figures.h"
#include "warpscope/trace/lesson_figures.h"
#include "warpscope/viz/source_panel.h"
#include "warpscope/viz/views.h"

namespace ws {
namespace {

constexpr const char* kGallerySource =
    "__global__ void exhibit(Global<float> out, Global<const float> in) {\n"  // line 1
    "  __shared__ SharedArray<float, 1024> s;\n"                              // line 2
    "  s[threadIdx.x * 32] = in[threadIdx.x + offset];\n"                     // line 3
    "  __syncthreads();\n"                                                    // line 4
    "  out[threadIdx.x] = s[threadIdx.x];\n"                                  // line 5
    "}\n";

// One warp (or `threads` threads) of one block with the given accesses, analysed as a backend
// would: sites, records, statistics, kept block 0.
struct RunBuilder {
  LaunchTrace t;
  BlockRecords block;
  explicit RunBuilder(std::uint32_t threads, std::string kernel = "exhibit") {
    t.kernel = std::move(kernel);
    t.grid = {1, 1, 1};
    t.block = {threads, 1, 1};
    t.buffers = {{"in", 4096, 0}, {"out", 4096, 0}};
    PlaceBuffers(t.buffers);
  }
  // A site at `line`; returns its index.
  std::uint16_t Site(std::uint32_t line, MemorySpace space, AccessOp op, std::uint16_t buffer) {
    SiteInfo s;
    s.line = line;
    s.space = space;
    s.op = op;
    s.size = 4;
    s.buffer = buffer;
    s.file = "gallery.cu";
    t.sites.push_back(s);
    return static_cast<std::uint16_t>(t.sites.size() - 1);
  }
  void Access(std::uint16_t site, std::uint32_t thread, std::uint32_t offset, std::uint32_t time,
              std::uint32_t epoch = 0) {
    block.accesses.push_back({offset, 0, time, static_cast<std::uint16_t>(thread), site, epoch});
  }
  std::shared_ptr<LessonRun> Finish(std::shared_ptr<const Figures> figures = nullptr) {
    t.stats.Resize(t.sites.size(), t.barrier_sites.size());
    BlockRecords kept = block;
    AnalyzeBlock(block.accesses, block.barriers, t.sites, t.buffers,
                 static_cast<std::uint32_t>(t.block.count()), &t.stats);
    t.blocks.push_back(std::move(kept));
    auto run = std::make_shared<LessonRun>();
    run->lesson = "gallery";
    run->variant = t.kernel;
    run->backend = "synthetic";
    run->launches.push_back(std::move(t));
    run->check = {true, "synthetic"};
    run->device = "none (built in code)";
    run->figures = std::move(figures);
    LessonRun::Capture c;
    c.source_file = "gallery.cu";
    c.source = kGallerySource;
    run->capture = c;
    return run;
  }
};

std::shared_ptr<LessonRun> SharedStores(std::uint32_t word_stride) {
  RunBuilder b(32, word_stride == 1 ? "no_conflict" : "bank_conflict");
  const std::uint16_t site = b.Site(3, MemorySpace::kShared, AccessOp::kStore, 0);
  for (std::uint32_t lane = 0; lane < 32; ++lane) b.Access(site, lane, lane * word_stride * 4, 0);
  return b.Finish();
}

std::shared_ptr<LessonRun> GlobalLoads(std::uint32_t offset_floats) {
  RunBuilder b(32, offset_floats == 0 ? "aligned_copy" : "offset_copy");
  const std::uint16_t site = b.Site(3, MemorySpace::kGlobal, AccessOp::kLoad, 0);
  for (std::uint32_t lane = 0; lane < 32; ++lane)
    b.Access(site, lane, (lane + offset_floats) * 4, 0);
  return b.Finish();
}

// 64 threads: a load before an uneven barrier (thread t arrives at 10 t) and a store after it.
std::shared_ptr<LessonRun> UnevenBarrier() {
  RunBuilder b(64, "uneven_barrier");
  const std::uint16_t load = b.Site(3, MemorySpace::kGlobal, AccessOp::kLoad, 0);
  const std::uint16_t store = b.Site(5, MemorySpace::kGlobal, AccessOp::kStore, 1);
  b.t.barrier_sites.push_back({4, "__syncthreads();", 0, "gallery.cu"});
  for (std::uint32_t th = 0; th < 64; ++th) {
    b.Access(load, th, th * 4, 0);
    b.block.barriers.push_back({10ull * th, 640, 0, static_cast<std::uint16_t>(th), 0, 0, 0});
    b.Access(store, th, th * 4, 641, 1);
  }
  return b.Finish();
}

std::shared_ptr<LessonRun> Figured(std::shared_ptr<const Figures> f, Params params = {}) {
  RunBuilder b(32, "figures");
  const std::uint16_t site = b.Site(3, MemorySpace::kGlobal, AccessOp::kLoad, 0);
  for (std::uint32_t lane = 0; lane < 32; ++lane) b.Access(site, lane, lane * 4, 0);
  auto run = b.Finish(std::move(f));
  run->params = std::move(params);
  return run;
}

// A modeled time, so that the timing view has a point: 128 bytes in 0.1 us is 1.28 GB/s.
std::shared_ptr<LessonRun> Timed(std::shared_ptr<LessonRun> run) {
  run->timing = {"modeled", 0.0001, "", 0, 0, 0, 0};
  return run;
}

std::shared_ptr<const Figures> Schedule() {
  ScheduleFigures s;  // 4 blocks of 100 units on 2 SMs, one block each at a time: two waves
  s.time_unit = "units";
  s.sms = 2;
  s.blocks_per_sm_limit = 1;
  s.makespan = 200;
  s.blocks_per_sm = {2, 2};
  s.most_resident = 1;
  s.busy = 1.0;
  s.waves = 2;
  s.timeline = {{0, 0, 0, 100}, {1, 1, 0, 100}, {2, 0, 100, 200}, {3, 1, 100, 200}};
  s.vary_sms = {{1, 400}, {2, 200}, {4, 100}};
  return MakeFigures(std::move(s));
}

std::shared_ptr<const Figures> Sums() {
  FpSumFigures f;  // 1e8 + 1 + ... : a float sum that loses the small terms in one order
  f.gpu_sum = 100000000.0f;
  f.cpu_sum = 100000008.0f;
  f.exact_sum = 100000016.0;
  f.tree_order_sum = 100000000.0f;
  f.error_bound = 24.0;
  f.vary_block = {{32, 100000000.0f}, {64, 100000008.0f}, {128, 100000016.0f}};
  return MakeFigures(std::move(f));
}

std::shared_ptr<const Figures> Latency() {
  LatencyFigures f;  // 2 warps, a 20-cycle load each: the issue slot idles while both wait
  f.utilisation = 0.25;
  f.slide_estimate = 5;
  f.issue_cycles_per_load = 4;
  f.cycles = 40;
  f.busy_cycles = 10;
  f.vary_warps = {{1, 0.15}, {2, 0.25}, {4, 0.5}, {8, 1.0}};
  f.warps_to_saturate = 8;
  f.timeline = {{0, 0, 4, 0}, {0, 4, 24, 1}, {1, 4, 8, 0}, {1, 8, 28, 1}, {-1, 8, 24, 2}};
  return MakeFigures(std::move(f));
}

std::shared_ptr<const Figures> Transfers() {
  TransferFigures f;  // pinned memory twice as fast as pageable
  f.sweep = {{1 << 20, 6, 12, 6, 12, 0.09}, {16 << 20, 10, 20, 10, 20, 0.8}};
  f.peak_gbps = 20;
  f.size_bytes = 16 << 20;
  f.h2d_pageable_gbps = 10;
  f.h2d_pinned_gbps = 20;
  f.d2h_pageable_gbps = 10;
  f.d2h_pinned_gbps = 20;
  // Two chunks: one stream does copy, kernel, copy back one after another (3 ms); two streams
  // overlap the second chunk's copy in with the first chunk's kernel (2 ms).
  f.overlap = {"pinned", 2, 2, 1, 16 << 20, 3.0, 2.0, 1.5, {}};
  for (int k = 0; k < 6; ++k) f.overlap.ops.push_back({0, 0, k % 3, k / 3, 0.5 * k, 0.5 * k + 0.5});
  for (int chunk = 0; chunk < 2; ++chunk) {
    for (int kind = 0; kind < 3; ++kind)
      f.overlap.ops.push_back(
          {1, chunk, kind, chunk, 0.5 * (chunk + kind), 0.5 * (chunk + kind + 1)});
  }
  return MakeFigures(std::move(f));
}

std::shared_ptr<const Figures> MultiGpu() {
  // 3 GPUs of 10 planes of 10 x 10 at 100 Mpoints/s (1 us a plane); 4-plane messages over
  // 1 GB/s with 2 us latency (3.6 us): the middle GPU exchanges twice, to 17.2 us, the ends idle.
  DecompositionParams p;
  p.nx = p.ny = 10;
  p.nz = 30;
  p.gpus = 3;
  p.mpoints = 100;
  p.link = {"gallery", "1 GB/s, 2 us", 1.0, 2.0, ""};
  MultiGpuFigures f;
  f.gpus = 3;
  f.nx = f.ny = 10;
  f.nz = 30;
  f.link = p.link.name;
  f.link_label = p.link.label;
  f.mpoints = p.mpoints;
  const DecompositionStep s = ModelStep(p);
  f.step_us = s.step_us;
  f.single_us = 30;
  f.speedup = Speedup(p);
  f.efficiency = f.speedup / 3;
  f.compute_us = s.compute_us;
  f.comm_us = s.comm_us;
  f.slab_planes = {10, 10, 10};
  f.timeline = s.segments;
  for (int n : {2, 4, 8}) {
    p.gpus = n;
    for (int z : {32, 64, 128, 256, 512}) {
      p.nz = z;
      f.scaling.push_back({n, z, Speedup(p)});
    }
  }
  p.gpus = 3;
  f.crossover_z = CrossoverZ(p);
  return MakeFigures(std::move(f));
}

struct Exhibit {
  std::string title;
  Session session;
  std::unique_ptr<Panel> view;
};

class GalleryPanel : public Panel {
 public:
  GalleryPanel() : Panel("gallery", "View gallery") { open = false; }

 protected:
  // Opens over the whole work area, floating (it is not part of the docked layout).
  void BeforeBegin() override {
    const ImGuiViewport* vp = ImGui::GetMainViewport();
    ImGui::SetNextWindowPos(vp->WorkPos, ImGuiCond_Appearing);
    ImGui::SetNextWindowSize(vp->WorkSize, ImGuiCond_Appearing);
  }

  void DrawContents() override {
    if (exhibits_.empty()) Build();
    ImGui::TextWrapped(
        "Every view drawn from a small run built in code (viz/src/gallery_panel.cpp), not by a "
        "lesson: what each view draws for a known input.");
    const float font = ImGui::GetFontSize();
    const float w = (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x) / 2;
    for (std::size_t i = 0; i < exhibits_.size(); ++i) {
      Exhibit& e = *exhibits_[i];
      if (i % 2 == 1) ImGui::SameLine();
      ImGui::PushID(static_cast<int>(i));
      if (ImGui::BeginChild("##exhibit", ImVec2(w, font * 22), ImGuiChildFlags_Borders)) {
        ImGui::SeparatorText(e.title.c_str());
        if (ImGui::BeginChild("##view", ImVec2(0, 0))) e.view->DrawBody();
        ImGui::EndChild();
      }
      ImGui::EndChild();
      ImGui::PopID();
    }
  }

 private:
  void Add(std::string title, std::shared_ptr<LessonRun> run,
           std::unique_ptr<Panel> (*make)(Session*)) {
    // Each exhibit on the heap: its view keeps a pointer to its session.
    exhibits_.push_back(std::make_unique<Exhibit>());
    Exhibit& e = *exhibits_.back();
    e.title = std::move(title);
    e.session.Install(run, BuildBlockView(run->main_launch(), 0));
    e.view = make(&e.session);
  }
  void Build() {
    Add("Banks: a 32-way conflict (lane k, word 32 k)", SharedStores(32), MakeBanksPanel);
    Add("Banks: no conflict (lane k, word k)", SharedStores(1), MakeBanksPanel);
    Add("Coalescing: aligned, 4 sectors", GlobalLoads(0), MakeCoalescingPanel);
    Add("Coalescing: offset by one float, 5 sectors", GlobalLoads(1), MakeCoalescingPanel);
    Add("Grid: one block of 64 threads", UnevenBarrier(), MakeGridPanel);
    Add("Barriers: thread t arrives at 10 t", UnevenBarrier(), MakeBarriersPanel);
    Add("Playback", UnevenBarrier(), MakePlaybackPanel);
    Add("Source", SharedStores(32),
        [](Session* s) -> std::unique_ptr<Panel> { return std::make_unique<SourcePanel>(s); });
    Add("Blocks on SMs: 4 blocks, 2 SMs, two waves", Figured(Schedule()), MakeScalabilityPanel);
    Add("Float sums", Figured(Sums(), {{"block", 64}}), MakeSumsPanel);
    Add("Latency: 2 warps", Figured(Latency(), {{"warps", 2}, {"latency", 20}}), MakeLatencyPanel);
    Add("Transfers: pinned twice pageable", Figured(Transfers()), MakeTransfersPanel);
    Add("Multi-GPU: 3 GPUs, the middle one exchanges twice", Figured(MultiGpu()),
        MakeMultiGpuPanel);
    Add("Texture layouts", GlobalLoads(0), MakeLayoutPanel);
    Add("Timing: one modeled point", Timed(GlobalLoads(0)), MakeTimingPanel);
    Add("Occupancy of a 32-thread block", GlobalLoads(0), MakeOccupancyPanel);
  }

  std::vector<std::unique_ptr<Exhibit>> exhibits_;
};

}  // namespace

std::unique_ptr<Panel> MakeGalleryPanel() {
  return std::make_unique<GalleryPanel>();
}

}  // namespace ws
