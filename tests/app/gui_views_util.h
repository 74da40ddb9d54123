// What the views' GUI tests share (gui_views_test.cpp, gui_views_lessons_test.cpp): a panel's
// screenshot or its state after the app ran with given arguments, and counting pixels near a
// colour. The colours are the views' own (viz/palette.h).
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "gui_test_util.h"
#include "warpscope/viz/image.h"

namespace ws::test {

inline bool Near(Rgba a, Rgba b, int tol) {
  return std::abs(a.r - b.r) <= tol && std::abs(a.g - b.g) <= tol && std::abs(a.b - b.b) <= tol;
}

// Saves `panel` of the app started with `args` (1280x800, fresh config) and loads it; with
// `state`, also what the panel says it shows (its Panel::Shown(), from --layout-json).
inline Image Shot(const std::string& panel, std::vector<std::string> args,
                  nlohmann::json* state = nullptr) {
  static int n = 0;
  TempDir t("view-" + panel + "-" + std::to_string(++n));
  const auto png = t / "shot.png";
  args.insert(args.end(), {"--config-dir", (t / "cfg").string(), "--size", "1280x800", "--panel",
                           panel, "--screenshot", png.string()});
  if (state != nullptr) args.insert(args.end(), {"--layout-json", (t / "layout.json").string()});
  const auto r = RunApp(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  if (state != nullptr) {
    std::ifstream in(t / "layout.json");
    const auto j = nlohmann::json::parse(in, nullptr, false);
    *state = j.is_object() && j["panels"].contains(panel)
                 ? j["panels"][panel].value("state", nlohmann::json::object())
                 : nlohmann::json::object();
  }
  auto img = LoadPng(png);
  EXPECT_TRUE(img.ok()) << (img.ok() ? "" : img.status().message());
  return img.ok() ? *img : Image();
}

// What `panel` shows after the app started with `args` ran its frames: its state as the
// app writes it (--layout-json, "panels" -> id -> "state"), beside a screenshot of the panel.
inline nlohmann::json PanelState(const std::string& panel, std::vector<std::string> args) {
  static int n = 0;
  TempDir t("state-" + panel + "-" + std::to_string(++n));
  args.insert(args.end(), {"--config-dir", (t / "cfg").string(), "--size", "1280x800", "--panel",
                           panel, "--screenshot", (t / "shot.png").string(), "--layout-json",
                           (t / "layout.json").string()});
  const auto r = RunApp(args);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(t / "layout.json");
  const auto j = nlohmann::json::parse(in, nullptr, false);
  if (!j.is_object() || !j["panels"].contains(panel)) return {};
  return j["panels"][panel].value("state", nlohmann::json::object());
}

inline int Count(const Image& img, const std::function<bool(Rgba)>& pred) {
  int n = 0;
  for (int y = 0; y < img.height(); ++y) {
    for (int x = 0; x < img.width(); ++x) n += pred(img.At(x, y)) ? 1 : 0;
  }
  return n;
}

inline int CountNear(const Image& img, Rgba c, int tol) {
  return Count(img, [&](Rgba p) { return Near(p, c, tol); });
}

// Warp 0's colour (the Okabe-Ito orange).
inline constexpr Rgba kWarp0 = {230, 159, 0, 255};

}  // namespace ws::test
