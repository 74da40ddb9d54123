// texture-2d: three 2D read patterns (a blur, a quarter-turn rotation, row sums) through global
// memory and through a texture, under three layouts, with the reads replayed through a model of
// the multiprocessor's cache (trace/cache_model.h).
#pragma once

#include "warpscope/kernels/lesson.h"
#include "warpscope/lesson_kernels/texture_2d.cuh"
#include "warpscope/trace/cache_model.h"
#include "warpscope/trace/layout_table.h"
#include "warpscope/trace/lesson_figures.h"

namespace ws::lessons::texture_2d {

inline constexpr const char* kPatterns[] = {"blur", "rotate", "row-sums"};

// The layouts the image reads are replayed under: row-major, Morton, and `tiled`'s tiles (left
// out when CheckLayout refuses them: a micro tile that does not divide the tile).
inline std::vector<Layout2D> ReplayLayouts(const Layout2D& used, const Layout2D& tiled) {
  std::vector<Layout2D> layouts;
  for (LayoutKind kind : {LayoutKind::kRowMajor, LayoutKind::kMorton, LayoutKind::kTiled}) {
    Layout2D to = tiled;
    to.kind = kind;
    to.width = used.width;
    to.height = used.height;
    if (CheckLayout(to).ok()) layouts.push_back(to);
  }
  return layouts;
}

// The image reads (buffer `image`, recorded at `used`'s positions) moved to where layout `to`
// puts each texel, through `cache`.
inline CacheProbe LayoutProbe(std::uint32_t image, const Layout2D& used, const Layout2D& to,
                              const CacheConfig& cache) {
  CacheProbe p;
  p.cache = cache;
  p.choice.site = [image](const SiteInfo& s) {
    return s.op == AccessOp::kLoad && s.space != MemorySpace::kShared && s.buffer == image;
  };
  p.choice.remap = [used, to](const SiteInfo&, std::uint32_t offset) -> std::uint64_t {
    const Pixel px = PixelAt(used, offset / sizeof(float));
    return px.x < 0 ? offset : to.Index(px.x, px.y) * sizeof(float) + offset % sizeof(float);
  };
  return p;
}

struct Lesson {
  static LessonInfo Info() {
    LessonInfo l;
    l.id = "texture-2d";
    l.title = "2D reads: global memory against texture, row-major against Morton and tiles";
    l.order = 130;
    const std::vector<std::string> texture_only = {"layout", "tile_width", "tile_height",
                                                   "micro_width", "micro_height"};
    l.variants = {{"global", "reads the image row-major from global memory", texture_only},
                  {"texture", "reads through tex2D (a real CUDA texture object on a GPU)"}};
    l.params = {{"pattern", 1, 0, 2, 1, "what each thread reads", {"blur", "rotate", "row-sums"}},
                {"width", 64, 8, 4096, 1, "image width (pixels)"},
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
                {"micro_height", 2, 1, 64, 1, "tiled layout: micro tile height"},
                {"cache_kb", 8, 1, 256, 1, "the modelled L1 / texture cache (KB)"}};
    l.explanation =
        "Pattern blur: each thread averages its pixel's 3x3 neighbourhood, so a warp of a "
        "16-wide block reads 16x2 patches. Pattern rotate turns the image a quarter turn: the "
        "same warp reads 2x16 strips, down two columns. Pattern row-sums: each thread adds up "
        "one row, so at every step a warp reads a column of 32 pixels. Row-major storage lays "
        "a column out 32 rows apart; Morton and tiled layouts keep pixels near in x and y near "
        "in memory - the 2D locality the slides credit the texture cache with. Each run's "
        "reads are replayed through a model of one multiprocessor's cache (128-byte lines of "
        "32-byte sectors, least recently used out; 8 KB by default, the texture cache of the "
        "slides' GPUs; every block, 1,024 threads' worth at a time on a multiprocessor) under "
        "all three layouts: sectors per request, hits and the sectors "
        "fetched from DRAM. The layouts view lists them. Honestly: for the blur the layouts "
        "come out close (a 16x2 patch is 4 sectors row-major, and up to 10 under Morton when "
        "it straddles a 4x2 sector row); rotate and row-sums are where Morton and tiles win, "
        "half the sectors per request, and for row-sums far fewer DRAM sectors once row-major's "
        "lines no longer fit the cache (drag cache_kb). The slides' reordered-address table "
        "(24x16, captioned Z-order) is in fact the tiled layout with 8x8 tiles of 2x2 micro "
        "tiles (warpscope-cli layout --layout tiled --micro-width 2 --micro-height 2); true "
        "Z-order goes down a row after two 2x2 blocks.";
    l.source_file = "texture_2d.cuh";
    l.read_figures = &ReadFigures<Texture2DFigures>;
    l.emulator_cost = [](const Params& p) {
      return At(p, "width") * At(p, "height") * (At(p, "pattern") == 0 ? 9 : 1);
    };
    l.front_panel = "layout";
    l.figures = {{"read_sectors_per_request", "Sectors per read request", "sectors"},
                 {"cache_hit_percent", "Cache hits (every block, modelled)", "%"},
                 {"dram_sectors", "Sectors from DRAM (every block, modelled)", "sectors"},
                 {"pattern", "Pattern", ""},
                 {"layout", "Layout", ""},
                 {"read_space", "Read through", ""}};
    l.presets = Presets();
    return l;
  }

  // Three questions on the slides' claim, each answered by hand below and in the tests.
  static std::vector<Preset> Presets() {
    const std::vector<std::string> answer = {"costs", "read_sectors_per_request"};
    return {
        {"rotate",
         "Optimizing CUDA, textures: \"helpful when coalescing is a problem\". A quarter-turn "
         "rotation of a 64 x 64 image in 16 x 16 blocks reads down columns. How many 32-byte "
         "sectors does one warp's read touch under row-major, Morton and tiled layouts?",
         "texture",
         {{"pattern", 1}, {"layout", 1}},
         "",
         answer,
         "A warp is 16 x 2 threads of the output, so it reads a 2 x 16 strip of the input. "
         "Row-major puts those 16 rows 256 bytes apart: 16 sectors, 8 useful bytes in each. "
         "Morton and the 8x8 / 2x2 tiles keep 4 x 2 pixels in a sector: 8 sectors. The least "
         "possible is 32 x 4 B / 32 B = 4. From DRAM it is 512 sectors either way (16 blocks x "
         "16 x 16 pixels x 4 B / 32 B): each sector comes once, but row-major asks the cache "
         "twice as often (1,536 of its 2,048 lookups hit, Morton 512 of 1,024)."},
        {"row sums",
         "Memory-model slides: texture memory \"is cached in a per-SM fashion\" and suits 2D "
         "spatial locality. Each thread adds up one row of a 64 x 128 image, so a warp reads a "
         "column at every step, through an 8 KB cache. How many sectors come from DRAM under "
         "each layout?",
         "texture",
         {{"pattern", 2}, {"height", 128}, {"layout", 1}},
         "",
         answer,
         "Row-major: a warp's column is 32 sectors in 32 different 128-byte lines, wanted again "
         "for the next 7 steps. Four warps keep 128 lines = 16 KB in use, twice the cache, so "
         "the least recently used line is always the one needed next: no hits, 256 requests x "
         "32 = 8,192 sectors from DRAM. Morton: a column of 32 pixels is 16 sectors in 8 lines "
         "(8 x 4 pixels a line); four warps keep 32 lines = 4 KB, which fit, so every sector "
         "comes once: 64 x 128 x 4 B / 32 B = 1,024, and 3 lookups in 4 hit. Eight times less "
         "DRAM traffic. Set cache_kb to 16 and row-major fits too (1,024 sectors, 7 in 8 hit)."},
        {"blur",
         "Does Morton beat row-major for the 3 x 3 blur of a 64 x 64 image in 16 x 16 blocks?",
         "texture",
         {{"pattern", 0}, {"layout", 1}},
         "",
         answer,
         "No. A warp reads 16 x 2 patches. Row-major: 2 rows of 64 bytes, 4 sectors when the "
         "patch starts on a sector, 6 when shifted a pixel; over the 9 reads 4.9 a request. "
         "Morton (4 x 2 pixels a sector): 4 or 5 sectors when the patch starts on an even row, "
         "8 or 10 when shifted a row, which straddles two sector rows: 7.4 a request. From DRAM "
         "560 against 608 sectors (each row of blocks runs on a multiprocessor of its own and "
         "fetches its halo rows itself). 2D layouts pay for square or column footprints, not for "
         "wide row patches; on a GPU the texture unit's own block-linear layout is tuned for "
         "this, and the docs/CACHE-MODEL.md table shows what an H100 did."}};
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
    const int pattern = c.I("pattern");
    const bool global = c.Is("global");
    const auto side = static_cast<std::uint32_t>(bs);
    auto blocks = [](int count, int per) {
      return static_cast<std::uint32_t>((count + per - 1) / per);
    };
    Texture2D<float> tex;
    if (!global) tex = b.MakeTexture2D(in, w, h, layout);
    // Every block's reads replayed as the launch runs, once per layout.
    const Layout2D used = global ? Layout2D{LayoutKind::kRowMajor, w, h} : layout;
    CacheConfig cache;
    cache.bytes = static_cast<std::uint64_t>(c.P("cache_kb")) * 1024;
    const std::vector<Layout2D> layouts = ReplayLayouts(used, layout);
    std::vector<CacheProbe> probes;
    for (const Layout2D& to : layouts) probes.push_back(LayoutProbe(in.buffer(), used, to, cache));
    b.ReplayLoadsThroughCache(probes);
    Status s;
    std::vector<float> want(pattern == 2 ? static_cast<std::size_t>(h) : n);
    auto out = b.template Alloc<float>("out", want.size());
    if (pattern == 0) {  // blur
      const Dim3 grid{blocks(w, bs), blocks(h, bs), 1}, block{side, side, 1};
      s = global ? WS_LAUNCH(b, blurGlobal, grid, block, 0, out, in, w, h)
                 : WS_LAUNCH(b, blurTexture, grid, block, 0, out, tex, w, h);
    } else if (pattern == 1) {  // rotate: the output is h wide and w tall
      const Dim3 grid{blocks(h, bs), blocks(w, bs), 1}, block{side, side, 1};
      s = global ? WS_LAUNCH(b, rotateGlobal, grid, block, 0, out, in, w, h)
                 : WS_LAUNCH(b, rotateTexture, grid, block, 0, out, tex, w, h);
    } else {  // row-sums: one thread per row, blocks of block x block threads in a line
      const Dim3 grid{blocks(h, bs * bs), 1, 1}, block{side * side, 1, 1};
      s = global ? WS_LAUNCH(b, rowSumsGlobal, grid, block, 0, out, in, w, h)
                 : WS_LAUNCH(b, rowSumsTexture, grid, block, 0, out, tex, w, h);
    }
    OnCpu(pattern, img, w, h, &want);
    if (!s.ok()) return s;
    c.check = CompareAt(b.Download(out), want, "texture-2d " + c.variant);
    const LaunchTrace& t = b.launches().back();
    Texture2DFigures f = FiguresOf(t, layout, used, cache, layouts, probes);
    f.width = w;
    f.height = h;
    f.block = bs;
    f.pattern = kPatterns[pattern];
    c.SetFigures(f);
    return {};
  }

  // The output the CPU computes for `pattern` from image `img` (w x h).
  static void OnCpu(int pattern, const std::vector<float>& img, int w, int h,
                    std::vector<float>* out) {
    std::vector<float>& want = *out;
    if (pattern == 0) {  // blur
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
    } else if (pattern == 1) {  // rotate: the output is h wide and w tall
      for (int y = 0; y < w; ++y) {
        for (int x = 0; x < h; ++x)
          want[static_cast<std::size_t>(y) * h + x] =
              img[static_cast<std::size_t>(h - 1 - x) * w + y];
      }
    } else {  // row-sums: one thread per row
      for (int y = 0; y < h; ++y) {
        float sum = 0;
        for (int x = 0; x < w; ++x) sum += img[static_cast<std::size_t>(y) * w + x];
        want[static_cast<std::size_t>(y)] = sum;
      }
    }
  }

  // The run's figures: the read sites' sectors per request, and the cache replays under every
  // layout.
  static Texture2DFigures FiguresOf(const LaunchTrace& t, const Layout2D& layout,
                                    const Layout2D& used, const CacheConfig& cache,
                                    const std::vector<Layout2D>& layouts,
                                    const std::vector<CacheProbe>& probes) {
    Texture2DFigures f;
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
    f.layout = ToString(used.kind);
    f.cache_bytes = cache.bytes;
    f.kept_blocks = static_cast<std::uint32_t>(t.blocks.size());
    f.grid_blocks = t.grid.count();
    f.blocks_together = BlocksTogether(t.block.count());
    for (std::size_t i = 0; i < layouts.size(); ++i) {
      // A backend that replayed nothing (the GPU's timing build): the kept blocks, after.
      const CacheCounts k =
          i < t.cache_replays.size() ? t.cache_replays[i] : ReplayLoads(t, cache, probes[i].choice);
      f.replayed_blocks = k.blocks;
      f.costs.push_back(
          {ToString(layouts[i].kind), k.requests, k.sectors, k.hits, k.misses(), k.distinct});
    }
    if (const TextureLayoutCost* own = f.CostOf(f.layout)) {
      f.cache_hit_percent = own->HitPercent();
      f.dram_sectors = own->dram_sectors;
    }
    return f;
  }
};

}  // namespace ws::lessons::texture_2d
