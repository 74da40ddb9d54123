// What the app remembers between runs (a sidecar file, never inside a trace): the UI scale for
// projectors, where screenshots go, whether exports are made at 2x for print, the theme, and the
// last lesson with its parameters.
// Stored as JSON in the config folder: $WARPSCOPE_CONFIG_DIR, else $XDG_CONFIG_HOME/warpscope,
// else ~/.config/warpscope.
#pragma once

#include <ctime>
#include <filesystem>
#include <map>
#include <string>

#include "warpscope/trace/status.h"

namespace ws {

struct Settings {
  static constexpr int kMinUiScalePercent = 100;
  static constexpr int kMaxUiScalePercent = 300;

  int ui_scale_percent = 100;
  bool export_2x = false;
  std::filesystem::path screenshot_dir;  // empty: DefaultScreenshotDir()
  bool light_theme = false;              // light theme (for bright rooms and printed notes)
  // The last lesson shown and its parameters, restored on the next start.
  std::string lesson, variant, backend;
  std::map<std::string, long long> params;
};

std::filesystem::path ConfigDir();
std::filesystem::path DefaultScreenshotDir();  // $XDG_PICTURES_DIR or ~/Pictures, + /Warpscope

// Reads settings.json from `dir`. A missing file gives the defaults; a broken or out-of-range
// value is replaced by its default and explained in `warning` (the file is never lost: the next
// save rewrites it whole, atomically).
Settings LoadSettings(const std::filesystem::path& dir, std::string* warning);
Status SaveSettings(const std::filesystem::path& dir, const Settings& settings);

// Clamps a UI scale into [100, 300] %. Returns a message naming the limit and the value when the
// value was out of range, else an empty string.
std::string ClampUiScale(int* percent);

// "warpscope-20261122-101500.png" (local time), or with the panel's id before the time.
std::string ScreenshotFileName(const std::string& panel_id, std::time_t when);

}  // namespace ws
