#include "warpscope/viz/palette.h"

#include <algorithm>
#include <cmath>

namespace ws::palette {
namespace {
bool g_light = false;
}  // namespace

ImU32 Heat(float t) {
  // Five stops of a viridis-like ramp: lightness rises monotonically, so it reads in greyscale.
  static constexpr float kStops[5][3] = {
      {68, 1, 84}, {59, 82, 139}, {33, 145, 140}, {94, 201, 98}, {253, 231, 37}};
  t = std::clamp(t, 0.0f, 1.0f) * 4.0f;
  const int i = std::min(3, static_cast<int>(std::floor(t)));
  const float f = t - static_cast<float>(i);
  auto mix = [&](int c) {
    return static_cast<int>(kStops[i][c] + (kStops[i + 1][c] - kStops[i][c]) * f + 0.5f);
  };
  return IM_COL32(mix(0), mix(1), mix(2), 255);
}

bool LightTheme() {
  return g_light;
}
void SetLightTheme(bool light) {
  g_light = light;
}

ImU32 Text() {
  return g_light ? IM_COL32(20, 22, 28, 255) : IM_COL32(235, 235, 240, 255);
}
ImU32 TextDim() {
  return g_light ? IM_COL32(90, 94, 104, 255) : IM_COL32(160, 164, 175, 255);
}
ImU32 Grid() {
  return g_light ? IM_COL32(0, 0, 0, 50) : IM_COL32(255, 255, 255, 45);
}

}  // namespace ws::palette
