#include "gui/theme.h"

#include <imgui.h>
#include <implot.h>

#include <filesystem>

#include "warpscope/viz/palette.h"

namespace ws::theme {
namespace {

ImVec4 V(Colour c, float a = 1.0f) {
  return ImVec4(c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, a);
}

ImFont* TryFont(const char* path) {
  if (!std::filesystem::exists(path)) return nullptr;
  ImFontConfig cfg;
  cfg.OversampleH = 2;
  return ImGui::GetIO().Fonts->AddFontFromFileTTF(path, kBaseFontPixels, &cfg);
}

}  // namespace

Fonts LoadFonts(bool fixed_atlas) {
  Fonts f;
  if (fixed_atlas) {
    // The atlas never grows: glyphs are baked as text first needs them, and a growing atlas is
    // repacked, which moves the baked anti-aliased lines and round corners that shapes sample;
    // when it grows depends on which frame drew which text, so exports would differ in a few
    // pixels from run to run. 4096 x 4096 holds every size a lecture export draws.
    ImGui::GetIO().Fonts->TexMinWidth = 4096;
    ImGui::GetIO().Fonts->TexMinHeight = 4096;
  }
  f.ui = TryFont("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf");
  if (f.ui == nullptr) f.ui = ImGui::GetIO().Fonts->AddFontDefault();
  f.mono = TryFont("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf");
  if (f.mono == nullptr) f.mono = f.ui;
  ImGui::GetIO().FontDefault = f.ui;
  return f;
}

void Apply(int ui_scale_percent, bool light) {
  const float scale = ui_scale_percent / 100.0f;
  palette::SetLightTheme(light);
  ImGuiStyle style;
  if (light)
    ImGui::StyleColorsLight(&style);
  else
    ImGui::StyleColorsDark(&style);
  style.WindowRounding = 3.0f;
  style.FrameRounding = 3.0f;
  style.TabRounding = 3.0f;
  style.WindowPadding = ImVec2(10, 8);
  style.FramePadding = ImVec2(6, 4);
  style.ItemSpacing = ImVec2(8, 6);
  ImVec4* c = style.Colors;
  if (light) {
    c[ImGuiCol_WindowBg] = V(kLightWindowBackground);
    // Child regions sit on their window's background: drawn transparent, they cost no fill
    // (with software OpenGL every full-panel fill is a few ms at 1600x1000).
    c[ImGuiCol_ChildBg] = ImVec4(0, 0, 0, 0);
    c[ImGuiCol_TitleBgActive] = V(kLightTitleBarActive);
    c[ImGuiCol_TabSelected] = V(kLightTitleBarActive);
  }
  if (!light) {
    c[ImGuiCol_WindowBg] = V(kWindowBackground);
    c[ImGuiCol_ChildBg] = ImVec4(0, 0, 0, 0);  // as above
    c[ImGuiCol_MenuBarBg] = V(kMenuBar);
    c[ImGuiCol_TitleBg] = V(kTitleBar);
    c[ImGuiCol_TitleBgCollapsed] = V(kTitleBar);
    c[ImGuiCol_TitleBgActive] = V(kTitleBarActive);
    c[ImGuiCol_Tab] = ImVec4(0.20f, 0.24f, 0.30f, 1.0f);
    c[ImGuiCol_TabHovered] = ImVec4(0.26f, 0.46f, 0.72f, 1.0f);
    c[ImGuiCol_TabSelected] = ImVec4(0.22f, 0.40f, 0.62f, 1.0f);
    c[ImGuiCol_TabDimmed] = ImVec4(0.13f, 0.14f, 0.17f, 1.0f);
    c[ImGuiCol_TabDimmedSelected] = ImVec4(0.19f, 0.23f, 0.30f, 1.0f);
    c[ImGuiCol_DockingEmptyBg] = ImVec4(0.10f, 0.10f, 0.12f, 1.0f);
  }
  style.ScaleAllSizes(scale);
  style.FontSizeBase = kBaseFontPixels;
  style.FontScaleMain = scale;
  ImGui::GetStyle() = style;

  ImPlotStyle plot;
  if (light)
    ImPlot::StyleColorsLight(&plot);
  else
    ImPlot::StyleColorsDark(&plot);
  plot.PlotPadding = ImVec2(10 * scale, 10 * scale);
  plot.LabelPadding = ImVec2(5 * scale, 5 * scale);
  plot.LegendPadding = ImVec2(10 * scale, 10 * scale);
  plot.PlotDefaultSize = ImVec2(400 * scale, 300 * scale);
  plot.PlotMinSize = ImVec2(200 * scale, 150 * scale);
  ImPlot::GetStyle() = plot;
}

}  // namespace ws::theme
