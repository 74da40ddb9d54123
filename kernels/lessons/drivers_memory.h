// Drivers of the memory lessons: vecadd, constant, atomics, reverse (see drivers.h).
#pragma once

#include <nlohmann/json.hpp>

#include "atomics.cuh"
#include "constant.cuh"
#include "reverse.cuh"
#include "texture_2d.cuh"
#include "vecadd.cuh"
#include "warpscope/kernels/lesson_api.h"
#include "warpscope/trace/layout_table.h"

namespace ws::lessons {

template <typename B>
Status RunVecAdd(B& b, const std::string& variant, const Params& p, OutputCheck* check,
                 nlohmann::json* metrics) {
  const long long vpt = p.at("values_per_thread"), threads = p.at("block"), blocks = p.at("grid");
  const std::size_t n = static_cast<std::size_t>(vpt * threads * blocks);
  std::vector<float> ha = Ramp(n), hb(n);
  for (std::size_t i = 0; i < n; ++i) hb[i] = static_cast<float>(i % 7);
  auto A = b.template Upload<float>("A", ha);
  auto B_ = b.template Upload<float>("B", hb);
  auto C = b.template Alloc<float>("C", n);
  const Dim3 grid{static_cast<std::uint32_t>(blocks), 1, 1},
      block{static_cast<std::uint32_t>(threads), 1, 1};
  const int v = static_cast<int>(vpt);
  Status s = variant == "chunked" ? WS_LAUNCH(b, vecAddChunked, grid, block, 0, C, A, B_, v)
                                  : WS_LAUNCH(b, vecAddInterleaved, grid, block, 0, C, A, B_, v);
  if (!s.ok()) return s;
  std::vector<float> want(n);
  for (std::size_t i = 0; i < n; ++i) want[i] = ha[i] + hb[i];
  *check = CompareAt(b.Download(C), want, "vecadd " + variant);
  const LaunchTrace& t = b.launches().back();
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    if (t.sites[i].op == AccessOp::kLoad)
      (*metrics)["load_sectors_per_request"] = t.stats.sites[i].SectorsPerRequest();
  }
  return {};
}

template <typename B>
Status RunConstant(B& b, const std::string& variant, const Params& p, OutputCheck* check,
                   nlohmann::json* metrics) {
  const long long threads = p.at("threads"), blocks = p.at("blocks");
  const std::size_t n = static_cast<std::size_t>(threads * blocks);
  std::vector<float> coeffs(64);
  for (int i = 0; i < 64; ++i) coeffs[static_cast<std::size_t>(i)] = static_cast<float>(i) + 0.25f;
  Global<const float> c = b.template Upload<float>("coeffs", coeffs);
  auto out = b.template Alloc<float>("out", n);
  const Dim3 grid{static_cast<std::uint32_t>(blocks), 1, 1},
      block{static_cast<std::uint32_t>(threads), 1, 1};
  Status s = variant == "broadcast"
                 ? WS_LAUNCH(b, constantBroadcast, grid, block, 0, out, Constant<float>(c))
                 : WS_LAUNCH(b, constantSerialized, grid, block, 0, out, Constant<float>(c));
  if (!s.ok()) return s;
  std::vector<float> want(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t idx = variant == "broadcast" ? (i / static_cast<std::size_t>(threads)) % 64
                                                   : (i % static_cast<std::size_t>(threads)) % 64;
    want[i] = coeffs[idx] * 2.0f;
  }
  *check = CompareAt(b.Download(out), want, "constant " + variant);
  const LaunchTrace& t = b.launches().back();
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    if (t.sites[i].space != MemorySpace::kConstant) continue;
    const SiteStats& st = t.stats.sites[i];
    (*metrics)["serialized_reads_max"] = st.constant_addresses_max;
    (*metrics)["serialized_reads_avg"] =
        st.requests ? double(st.constant_addresses_sum) / st.requests : 0.0;
  }
  return {};
}

template <typename B>
Status RunAtomics(B& b, const Params& p, OutputCheck* check, nlohmann::json* metrics) {
  const long long bins = p.at("bins"), threads = p.at("threads"), blocks = p.at("blocks");
  const std::size_t n = static_cast<std::size_t>(threads * blocks);
  std::vector<int> data(n);
  for (std::size_t i = 0; i < n; ++i) data[i] = static_cast<int>(i);
  Global<const int> d = b.template Upload<int>("data", data);
  auto h = b.template Alloc<int>("bins", static_cast<std::size_t>(bins));
  const Dim3 grid{static_cast<std::uint32_t>(blocks), 1, 1},
      block{static_cast<std::uint32_t>(threads), 1, 1};
  const int nb = static_cast<int>(bins);
  if (Status s = WS_LAUNCH(b, histogram, grid, block, 0, h, d, nb); !s.ok()) return s;
  std::vector<int> want(static_cast<std::size_t>(bins), 0);
  for (std::size_t i = 0; i < n; ++i) ++want[i % static_cast<std::size_t>(bins)];
  *check = CompareAt(b.Download(h), want, "atomics histogram");
  const LaunchTrace& t = b.launches().back();
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    if (t.sites[i].op != AccessOp::kAtomic) continue;
    (*metrics)["conflict_degree_max"] = t.stats.sites[i].atomic_conflict_max;
    (*metrics)["conflict_degree_hist"] = t.stats.sites[i].atomic_conflict_histogram;
  }
  return {};
}

template <typename B>
Status RunReverse(B& b, const std::string& variant, const Params& p, OutputCheck* check,
                  nlohmann::json* metrics) {
  const long long n = p.at("n");
  std::vector<int> a(static_cast<std::size_t>(n)), r(static_cast<std::size_t>(n));
  for (long long i = 0; i < n; ++i) {
    a[static_cast<std::size_t>(i)] = static_cast<int>(i);
    r[static_cast<std::size_t>(i)] = static_cast<int>(n - i - 1);
  }
  auto d_d = b.template Upload<int>("d", a);
  const Dim3 grid{1, 1, 1}, block{static_cast<std::uint32_t>(n), 1, 1};
  const int ni = static_cast<int>(n);
  const auto dyn = static_cast<std::uint32_t>(n * sizeof(int));
  Status s = variant == "static"
                 ? WS_LAUNCH(b, staticReverse, grid, block, 1024 * sizeof(int), d_d, ni)
                 : WS_LAUNCH_DYNAMIC(b, dynamicReverse, grid, block, 0, dyn, d_d, ni);
  if (!s.ok()) return s;
  *check = CompareAt(b.Download(d_d), r, "reverse " + variant);
  (*metrics)["shared_bytes"] = variant == "static" ? 1024 * sizeof(int) : dyn;
  return {};
}

template <typename B>
Status RunTexture2D(B& b, const std::string& variant, const Params& p, OutputCheck* check,
                    nlohmann::json* metrics) {
  const int w = static_cast<int>(p.at("width")), h = static_cast<int>(p.at("height"));
  const int bs = static_cast<int>(p.at("block"));
  Layout2D layout{static_cast<LayoutKind>(p.at("layout")),
                  w,
                  h,
                  static_cast<int>(p.at("tile_width")),
                  static_cast<int>(p.at("tile_height")),
                  static_cast<int>(p.at("micro_width")),
                  static_cast<int>(p.at("micro_height"))};
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
  Status s;
  if (variant == "global") {
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
  *check = CompareAt(b.Download(out), want, "texture-2d " + variant);
  const LaunchTrace& t = b.launches().back();
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    if (t.sites[i].op == AccessOp::kLoad && t.sites[i].space != MemorySpace::kShared) {
      (*metrics)["read_sectors_per_request"] = t.stats.sites[i].SectorsPerRequest();
      (*metrics)["read_space"] = ToString(t.sites[i].space);
    }
  }
  (*metrics)["layout"] = variant == "global" ? "row-major" : ToString(layout.kind);
  return {};
}

}  // namespace ws::lessons
