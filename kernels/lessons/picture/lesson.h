// picture: a 2D grid over a picture, and the threads that fall outside it (Kirk & Hwu ch. 4).
#pragma once

#include "warpscope/kernels/lesson.h"
#include "warpscope/lesson_kernels/picture.cuh"  // picture.cuh, in the recording API

namespace ws::lessons::picture {

// The textbook's four regions: blocks wholly inside, cut by the right edge, by the bottom edge,
// and the corner block cut by both.
struct Regions {
  int inside = 0, right_edge = 0, bottom_edge = 0, corner = 0;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Regions, inside, right_edge, bottom_edge, corner)

struct Figures {
  static constexpr const char* kKind = "picture";
  static constexpr int kVersion = 1;
  std::uint64_t active_threads = 0, idle_threads = 0;  // passed / failed the bounds test
  std::vector<std::uint64_t> active_per_block;
  std::vector<std::uint32_t> grid;  // gridDim.x, gridDim.y
  Regions regions;
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Figures, active_threads, idle_threads, active_per_block, grid,
                                   regions)

struct Lesson {
  static LessonInfo Info() {
    LessonInfo l;
    l.id = "picture";
    l.title = "2D picture kernel: threads outside the image";
    l.order = 60;
    l.variants = {{"picture", "one thread per pixel, with a bounds test"}};
    l.params = {{"width", 76, 1, 2048, 1, "image width n (pixels)"},
                {"height", 62, 1, 2048, 1, "image height m (pixels)"},
                {"block", 16, 1, 32, 1, "threads per block side (blockDim.x = blockDim.y)"}};
    l.explanation =
        "The textbook covers a 76x62 picture with 16x16 blocks: a 5x4 grid of 80x64 threads. "
        "Threads whose Row or Col falls outside the picture fail the bounds test and do "
        "nothing, so the grid has four kinds of blocks: inside, cut by the right edge, cut by "
        "the bottom edge, and the corner block cut by both. Of the 5120 threads, 4712 have a "
        "pixel and 408 are idle. Change the block size and see how many threads are wasted.";
    l.source_file = "picture.cuh";
    l.keep_all_blocks = true;  // its figures count every block's stores
    l.read_figures = &ReadFigures<Figures>;
    l.emulator_cost = [](const Params& p) { return At(p, "width") * At(p, "height"); };
    l.front_panel = "grid";
    l.figures = {{"active_threads", "Threads that pass the bounds test", "threads"},
                 {"idle_threads", "Threads outside the picture (idle)", "threads"},
                 {"grid", "Grid (blocks in x, y)", ""}};
    // Kirk & Hwu 4.4 and 4.5: a 400 x 900 picture on compute 3.0, whose blocks take 1,024
    // threads: square blocks of 32 x 32.
    const Params ex44 = {{"width", 400}, {"height", 900}, {"block", 32}};
    l.presets = {
        {"4.4",
         "Kirk & Hwu 4.4: a kernel on a 400 x 900 picture, one thread per pixel, with square "
         "blocks of the most threads a block can have on compute capability 3.0. Which grid "
         "and block dimensions?",
         "",
         ex44,
         "",
         {"grid"},
         "Compute 3.0 allows 1,024 threads a block, so blocks of 32 x 32; the grid is "
         "ceil(400 / 32) x ceil(900 / 32) = 13 x 29 blocks."},
        {"4.5",
         "Kirk & Hwu 4.5: for the previous question, how many idle threads?",
         "",
         ex44,
         "",
         {"idle_threads", "active_threads"},
         "13 x 29 blocks of 1,024 threads are 416 x 928 = 386,048 threads for 400 x 900 = "
         "360,000 pixels: 26,048 threads fail the bounds test."}};
    return l;
  }

  template <LessonBackend B>
  static Status Run(B& b, LessonCall& c) {
    const long long n = c.P("width"), m = c.P("height"), bs = c.P("block");
    std::vector<float> in(static_cast<std::size_t>(n * m));
    for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<float>(i % 251);
    auto d_Pin = b.template Upload<float>("d_Pin", in);
    auto d_Pout = b.template Alloc<float>("d_Pout", in.size());
    const Dim3 grid{static_cast<std::uint32_t>((n + bs - 1) / bs),
                    static_cast<std::uint32_t>((m + bs - 1) / bs), 1};
    const Dim3 block{static_cast<std::uint32_t>(bs), static_cast<std::uint32_t>(bs), 1};
    const int ni = static_cast<int>(n), mi = static_cast<int>(m);
    if (Status s = WS_LAUNCH(b, PictureKernel, grid, block, 0, d_Pin, d_Pout, ni, mi); !s.ok())
      return s;
    std::vector<float> want(in.size());
    for (std::size_t i = 0; i < in.size(); ++i) want[i] = 2 * in[i];
    c.check = CompareAt(b.Download(d_Pout), want, "picture");
    // Which threads passed the bounds test: the stores each block made (every block is kept).
    const LaunchTrace& t = b.launches().back();
    Figures f;
    f.active_per_block.assign(grid.count(), 0);
    for (const BlockRecords& rec : t.blocks) {
      for (const AccessRecord& a : rec.accesses) {
        if (t.sites[a.site].op == AccessOp::kStore) ++f.active_per_block[rec.block];
      }
    }
    for (std::uint32_t by = 0; by < grid.y; ++by) {
      for (std::uint32_t bx = 0; bx < grid.x; ++bx) {
        f.active_threads += f.active_per_block[by * grid.x + bx];
        const bool cut_x = (bx + 1) * bs > n, cut_y = (by + 1) * bs > m;
        Regions& r = f.regions;
        (cut_x && cut_y ? r.corner : cut_x ? r.right_edge : cut_y ? r.bottom_edge : r.inside) += 1;
      }
    }
    f.idle_threads = t.threads() - f.active_threads;
    f.grid = {grid.x, grid.y};
    c.SetFigures(f);
    return {};
  }
};

}  // namespace ws::lessons::picture
