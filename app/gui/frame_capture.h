// Screenshots: read back what was rendered, whole window or one panel, at 1x or 2x.
//
// At 1x we read the back buffer right after ImGui has drawn into it and before the swap, so the
// file holds exactly the frame the user sees. At 2x the same frame is laid out again with a
// framebuffer scale of 2 (fonts are re-rasterized at twice the density, not stretched) and drawn
// into an offscreen target twice the window's size.
#pragma once

#include <filesystem>
#include <string>

#include "warpscope/viz/image.h"

struct ImDrawData;

namespace ws {

struct ExportRequest {
  std::string panel_id;  // empty: the whole window
  bool scale_2x = false;
  std::filesystem::path path;
  int delay_frames = 0;  // frames to wait first (lets a menu that was clicked close)
  float inset_top = 0;   // logical pixels left off the panel's top (its tab and menu bars)
};

// Reads `rect` (in framebuffer pixels, top-left origin) of the bound read framebuffer.
Image ReadPixels(int framebuffer_width, int framebuffer_height, PixelRect rect);

// Draws `draw_data` into an offscreen target of the draw data's framebuffer size and reads it
// back. Used for 2x exports, whose frame is never shown on screen.
Image RenderOffscreen(ImDrawData* draw_data);

}  // namespace ws
