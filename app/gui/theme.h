// Warpscope's look: a dark theme (or a light one) with blue title bars that reads well on a
// projector, fonts from Debian's fonts-dejavu-core when present, and the UI scale (100-300 %). The
// colours are plain numbers here so that the GUI test can check a screenshot's pixels against them.
#pragma once

#include <cstdint>

struct ImFont;

namespace ws::theme {

struct Colour {
  std::uint8_t r, g, b;
};

// The title bar (and dock tab bar strip) of the focused panel, and of the others.
inline constexpr Colour kTitleBarActive = {38, 79, 128};
inline constexpr Colour kTitleBar = {24, 26, 31};
inline constexpr Colour kWindowBackground = {30, 32, 38};
inline constexpr Colour kMenuBar = {36, 39, 46};

inline constexpr float kBaseFontPixels = 16.0f;

// Loads DejaVu Sans (UI) and DejaVu Sans Mono (code) if installed; otherwise ImGui's own font.
struct Fonts {
  ImFont* ui = nullptr;
  ImFont* mono = nullptr;
};
// `fixed_atlas`: the font atlas starts at its full size and never grows, so that the same
// input draws the same pixels (lecture-notes exports); otherwise it grows as needed.
Fonts LoadFonts(bool fixed_atlas = false);

// The light theme's title bars and background (for bright rooms and printed notes).
inline constexpr Colour kLightTitleBarActive = {160, 196, 235};
inline constexpr Colour kLightWindowBackground = {246, 246, 248};

// Rebuilds the style at `percent` % (sizes and font), dark or light: call at start and when a
// setting changes. The views' colours (viz palette) follow the theme.
void Apply(int ui_scale_percent, bool light = false);

}  // namespace ws::theme
