// Colours the views share. Warps use the Okabe-Ito palette (eight hues told apart with the common
// colour-vision deficiencies), ordered so neighbouring warps differ in lightness as well as hue;
// heat maps use a sequential ramp (viridis-like) that reads in greyscale too.
#pragma once

#include <imgui.h>

#include <array>
#include <cstdint>

#include "warpscope/viz/image.h"

namespace ws::palette {

inline constexpr std::array<Rgba, 8> kWarp = {{{230, 159, 0, 255},
                                               {0, 114, 178, 255},
                                               {240, 228, 66, 255},
                                               {86, 180, 233, 255},
                                               {213, 94, 0, 255},
                                               {0, 158, 115, 255},
                                               {204, 121, 167, 255},
                                               {170, 170, 170, 255}}};
inline constexpr Rgba kIdle = {70, 70, 74, 255};

inline Rgba Warp(std::uint32_t warp) {
  return kWarp[warp % kWarp.size()];
}
inline ImU32 ToU32(Rgba c, std::uint8_t alpha = 255) {
  return IM_COL32(c.r, c.g, c.b, alpha);
}
inline ImU32 WarpU32(std::uint32_t warp, std::uint8_t alpha = 255) {
  return ToU32(Warp(warp), alpha);
}

// Sequential ramp, t in [0, 1]: dark blue -> teal -> yellow.
ImU32 Heat(float t);

// True when the light theme is on (the views pick line and text colours by it).
bool LightTheme();
void SetLightTheme(bool light);

// The text colour of the current theme, and a dimmer one for labels.
ImU32 Text();
ImU32 TextDim();
ImU32 Grid();  // faint lines: axes, cell borders

}  // namespace ws::palette
