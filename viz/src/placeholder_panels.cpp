// The views before the engine lands: each says what it will show and where its data comes from.
// The grid view already draws the textbook's picture-kernel launch from its geometry alone.
#include <imgui.h>

#include <algorithm>
#include <array>
#include <string>

#include "warpscope/viz/cell_grid.h"
#include "warpscope/viz/panel.h"
#include "warpscope/viz/source_panel.h"

namespace ws {
namespace {

class PlaceholderPanel : public Panel {
 public:
  PlaceholderPanel(std::string id, std::string title, std::string what)
      : Panel(std::move(id), std::move(title)), what_(std::move(what)) {}

 protected:
  void DrawContents() override {
    ImGui::TextWrapped("%s", what_.c_str());
    ImGui::Spacing();
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    ImGui::TextWrapped(
        "This view is not drawn yet: the lesson's figures are in the Lesson and Kernel source "
        "panels.");
    ImGui::PopStyleColor();
  }

 private:
  std::string what_;
};

// Warp colours: eight hues that stay apart on a projector; warp w gets kWarpColours[w % 8].
constexpr std::array<Rgba, 8> kWarpColours = {{{230, 97, 1, 255},
                                               {94, 60, 153, 255},
                                               {26, 152, 80, 255},
                                               {33, 102, 172, 255},
                                               {215, 48, 39, 255},
                                               {0, 150, 160, 255},
                                               {191, 129, 45, 255},
                                               {197, 27, 125, 255}}};
constexpr Rgba kIdleThread = {70, 70, 74, 255};

class GridPreviewPanel : public Panel {
 public:
  GridPreviewPanel() : Panel("grid", "Grid, blocks, warps") {}

 protected:
  void DrawContents() override {
    ImGui::TextWrapped(
        "The launch as blocks of threads in their true shape, coloured by warp; idle threads "
        "(those that fail the bounds test) in grey.");
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    ImGui::TextWrapped(
        "Preview from launch geometry: the textbook's picture kernel, a %dx%d image in %dx%d "
        "blocks (grid %dx%d).",
        kWidth, kHeight, kBlock, kBlock, GridX(), GridY());
    ImGui::PopStyleColor();
    if (!init_tried_) {
      init_tried_ = true;
      init_ = renderer_.Init();
      if (init_.ok()) UploadPreview();
    }
    if (!init_.ok()) {
      ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "%s", init_.message().c_str());
      return;
    }
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float fb_scale = ImGui::GetIO().DisplayFramebufferScale.x;
    // Keep the cells square: fit the grid's aspect into the available space.
    const float cells_x = static_cast<float>(GridX() * kBlock),
                cells_y = static_cast<float>(GridY() * kBlock);
    const float s = std::min(avail.x / cells_x, avail.y / cells_y);
    if (s <= 0) return;
    const ImVec2 size(cells_x * s, cells_y * s);
    const GLuint tex =
        renderer_.Render(static_cast<int>(size.x * fb_scale), static_cast<int>(size.y * fb_scale));
    if (tex != 0) {
      // The target's first row is its bottom: flip v so the grid's row 0 is at the top.
      ImGui::Image(ImTextureRef(static_cast<ImTextureID>(tex)), size, ImVec2(0, 1), ImVec2(1, 0));
    }
  }

 private:
  static constexpr int kWidth = 76, kHeight = 62, kBlock = 16;
  static int GridX() { return (kWidth + kBlock - 1) / kBlock; }
  static int GridY() { return (kHeight + kBlock - 1) / kBlock; }

  void UploadPreview() {
    const int nx = GridX() * kBlock, ny = GridY() * kBlock;
    std::vector<Rgba> colours(static_cast<std::size_t>(nx) * ny);
    for (int y = 0; y < ny; ++y) {
      for (int x = 0; x < nx; ++x) {
        const int tx = x % kBlock, ty = y % kBlock;
        const int warp = (ty * kBlock + tx) / 32;  // linear thread id in the block / warp size
        colours[static_cast<std::size_t>(y) * nx + x] =
            (x < kWidth && y < kHeight) ? kWarpColours[warp % kWarpColours.size()] : kIdleThread;
      }
    }
    renderer_.SetCells(nx, ny, kBlock, kBlock, colours);
  }

  CellGridRenderer renderer_;
  bool init_tried_ = false;
  Status init_;
};

}  // namespace

std::vector<std::unique_ptr<Panel>> MakeViewPanels(Session* session) {
  std::vector<std::unique_ptr<Panel>> p;
  // The app puts its lesson panel (which runs kernels) in this slot.
  p.push_back(std::make_unique<PlaceholderPanel>("lesson", "Lesson & parameters", ""));
  p.push_back(std::make_unique<SourcePanel>(session));
  p.push_back(std::make_unique<GridPreviewPanel>());
  p.push_back(std::make_unique<PlaceholderPanel>(
      "coalescing", "Coalescing",
      "A warp's 32 lanes above a strip of memory: each lane's bytes land in 32-byte sectors, and "
      "each sector (or 128-byte line, or compute 1.x segment) is one transaction."));
  p.push_back(std::make_unique<PlaceholderPanel>(
      "banks", "Shared-memory banks",
      "A heatmap of the 32 banks against a site's warp requests, and the lane-to-bank wiring of "
      "the selected request with its conflict degree."));
  p.push_back(std::make_unique<PlaceholderPanel>(
      "layouts", "Texture & 2D layouts",
      "An image's pixels under row-major, Morton (Z-order) and tiled layouts, memory order drawn "
      "as a path, with a warp's footprint and the sectors it touches."));
  p.push_back(std::make_unique<PlaceholderPanel>(
      "barriers", "Barriers",
      "One timeline per warp of the selected block: work, arrival at each __syncthreads(), "
      "waiting, departure; skew and waits labelled."));
  p.push_back(std::make_unique<PlaceholderPanel>(
      "timing", "Timing",
      "A point per run: time (measured on a GPU, modeled on the emulator), bandwidth or sectors "
      "per request against the parameter being changed; one series per variant."));
  return p;
}

}  // namespace ws
