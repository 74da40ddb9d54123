// texture-2d: a 2D blur through global memory and through a texture, under three layouts.
#pragma once

#include "texture_2d.cuh"
#include "warpscope/kernels/lesson.h"
#include "warpscope/trace/layout_table.h"
#include "warpscope/trace/lesson_figures.h"

namespace ws::lessons::texture_2d {

struct Lesson {
  static LessonInfo Info() {
    LessonInfo l;
    l.id = "texture-2d";
    l.title = "2D blur: global memory against texture, row-major against Morton and tiles";
    l.order = 130;
    const std::vector<std::string> texture_only = {"layout", "tile_width", "tile_height",
                                                   "micro_width", "micro_height"};
    l.variants = {{"global", "reads the image row-major from global memory", texture_only},
                  {"texture", "reads through tex2D (a real CUDA texture object on a GPU)"}};
    l.params = {{"width", 64, 8, 4096, 1, "image width (pixels)"},
                {"height", 64, 8, 4096, 1, "image height (pixels)"},
                {"block", 16, 4, 32, 1, "threads per block side"},
                {"layout",
                 0,
                 0,
                 2,
                 1,
                 "texture variant: where texels lie in memory",
                 {"row-major", "morton", "tiled"}},
                {"tile_width", 8, 1, 64, 1, "tiled layout: tile width"},
                {"tile_height", 8, 1, 64, 1, "tiled layout: tile height"},
                {"micro_width", 2, 1, 64, 1, "tiled layout: micro tile width inside a tile"},
                {"micro_height", 2, 1, 64, 1, "tiled layout: micro tile height"}};
    l.explanation =
        "Each thread averages its pixel's 3x3 neighbourhood, so a warp reads a small 2D "
        "patch, and the warps of a block read overlapping patches. Row-major storage lays a "
        "patch out as separate rows; Morton and tiled layouts keep pixels that are near in x "
        "and in y near in memory, which is the 2D spatial locality the slides credit the "
        "texture cache with. Per warp request the layouts come out close (a 32-byte sector "
        "holds 8 floats of a row or a 4x2 Morton block); the gain the slides mean is reuse "
        "in the texture cache across neighbouring rows, which these sector counts do not "
        "model. The slides' reordered-address table (24x16, captioned Z-order) is in fact "
        "the tiled layout with 8x8 tiles of 2x2 micro tiles (warpscope-cli layout --layout "
        "tiled --micro-width 2 --micro-height 2); true Z-order goes down a row after two 2x2 "
        "blocks.";
    l.source_file = "texture_2d.cuh";
    l.read_figures = &ReadFigures<Texture2DFigures>;
    l.emulator_cost = [](const Params& p) { return At(p, "width") * At(p, "height") * 9; };
    l.front_panel = "layout";
    l.figures = {{"read_sectors_per_request", "Sectors per read request", "sectors"},
                 {"layout", "Layout", ""},
                 {"read_space", "Read through", ""}};
    return l;
  }

  template <LessonBackend B>
  static Status Run(B& b, LessonCall& c) {
    const int w = c.I("width"), h = c.I("height"), bs = c.I("block");
    Layout2D layout{static_cast<LayoutKind>(c.P("layout")),
                    w,
                    h,
                    c.I("tile_width"),
                    c.I("tile_height"),
                    c.I("micro_width"),
                    c.I("micro_height")};
    if (layout.kind == LayoutKind::kTiled &&
        (layout.tile_w % layout.micro_w != 0 || layout.tile_h % layout.micro_h != 0)) {
      return Status::Error("micro tile " + std::to_string(layout.micro_w) + "x" +
                           std::to_string(layout.micro_h) + " must divide the tile " +
                           std::to_string(layout.tile_w) + "x" + std::to_string(layout.tile_h));
    }
    const std::size_t n = static_cast<std::size_t>(w) * static_cast<std::size_t>(h);
    std::vector<float> img(n);
    for (std::size_t i = 0; i < n; ++i) img[i] = static_cast<float>((i * 7) % 251);
    Global<const float> in = b.template Upload<float>("image", img);
    auto out = b.template Alloc<float>("out", n);
    const Dim3 grid{static_cast<std::uint32_t>((w + bs - 1) / bs),
                    static_cast<std::uint32_t>((h + bs - 1) / bs), 1};
    const Dim3 block{static_cast<std::uint32_t>(bs), static_cast<std::uint32_t>(bs), 1};
    const bool global = c.Is("global");
    Status s;
    if (global) {
      s = WS_LAUNCH(b, blurGlobal, grid, block, 0, out, in, w, h);
    } else {
      Texture2D<float> tex = b.MakeTexture2D(in, w, h, layout);
      s = WS_LAUNCH(b, blurTexture, grid, block, 0, out, tex, w, h);
    }
    if (!s.ok()) return s;
    std::vector<float> want(n);
    for (int y = 0; y < h; ++y) {
      for (int x = 0; x < w; ++x) {
        float sum = 0;
        for (int dy = -1; dy <= 1; ++dy) {
          for (int dx = -1; dx <= 1; ++dx) {
            const int sx = std::clamp(x + dx, 0, w - 1), sy = std::clamp(y + dy, 0, h - 1);
            sum += img[static_cast<std::size_t>(sy) * w + sx];
          }
        }
        want[static_cast<std::size_t>(y) * w + x] = sum / 9.0f;
      }
    }
    c.check = CompareAt(b.Download(out), want, "texture-2d " + c.variant);
    const LaunchTrace& t = b.launches().back();
    Texture2DFigures f;
    f.width = w;
    f.height = h;
    f.block = bs;
    f.tile_width = layout.tile_w;
    f.tile_height = layout.tile_h;
    f.micro_width = layout.micro_w;
    f.micro_height = layout.micro_h;
    for (std::size_t i = 0; i < t.sites.size(); ++i) {
      if (t.sites[i].op == AccessOp::kLoad && t.sites[i].space != MemorySpace::kShared) {
        f.read_sectors_per_request = t.stats.sites[i].SectorsPerRequest();
        f.read_space = ToString(t.sites[i].space);
      }
    }
    f.layout = global ? "row-major" : ToString(layout.kind);
    c.SetFigures(f);
    return {};
  }
};

}  // namespace ws::lessons::texture_2d
