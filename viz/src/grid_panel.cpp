// The grid view: the launch as blocks of threads in their true shape, coloured by warp, with the
// threads that did nothing (failed the bounds test) in grey, as in the textbook's picture-kernel
// figure. Drawn from one data texture by the cell_grid shaders (one texel per thread), so a 1M
// thread launch costs one triangle. Hover names a thread and its addresses at the selected site;
// a click selects its block, warp and lane in every view.
#include <imgui.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <string>

#include "view_util.h"
#include "warpscope/viz/cell_grid.h"
#include "warpscope/viz/grid_layout.h"
#include "warpscope/viz/palette.h"
#include "warpscope/viz/views.h"

namespace ws {
namespace {

Rgba Mix(Rgba a, Rgba b, float t) {
  auto m = [t](std::uint8_t x, std::uint8_t y) {
    return static_cast<std::uint8_t>(static_cast<float>(x) + (static_cast<float>(y) - x) * t);
  };
  return {m(a.r, b.r), m(a.g, b.g), m(a.b, b.b), 255};
}

class GridPanel : public Panel {
 public:
  explicit GridPanel(Session* session) : Panel("grid", "Grid & warps"), session_(session) {}

  // The launch's shape and its idle threads (those that made no access), as drawn.
  State Shown() const override {
    if (!session_->run || !session_->run->has_launch()) return {};
    const LaunchTrace& t = session_->run->main_launch();
    State st = {{"blocks", std::to_string(t.grid.count())},
                {"threads", std::to_string(t.threads())},
                {"warps", std::to_string(t.warps())}};
    if (t.thread_active.size() == t.threads()) {
      std::uint64_t active = 0;
      for (const auto a : t.thread_active) active += a != 0;
      st.emplace_back("active_threads", std::to_string(active));
      st.emplace_back("idle_threads", std::to_string(t.threads() - active));
    }
    return st;
  }

 protected:
  void DrawContents() override {
    if (view::NoLaunch(
            *session_,
            "The launch as blocks of threads in their true shape, coloured by warp; idle threads "
            "(those that fail the bounds test) in grey."))
      return;
    if (!init_tried_) {
      init_tried_ = true;
      init_ = renderer_.Init();
    }
    if (!init_.ok()) {
      ImGui::TextColored(ImVec4(1, 0.4f, 0.4f, 1), "%s", init_.message().c_str());
      return;
    }
    const LaunchTrace& t = session_->run->main_launch();
    DrawHeader(t);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    if (avail.x < 8 || avail.y < 8) return;
    const float aspect = avail.x / avail.y;
    // Re-lay out on a new run, or when the panel's shape changes a lot (1D grids wrap to fit).
    if (uploaded_run_ != session_->run.get() ||
        std::abs(aspect - layout_aspect_) > 0.25f * aspect ||
        uploaded_block_ != session_->sel.block || uploaded_warp_ != session_->sel.warp) {
      if (uploaded_run_ != session_->run.get() ||
          std::abs(aspect - layout_aspect_) > 0.25f * aspect) {
        const GridLayout old = layout_;
        layout_ = MakeGridLayout(t.grid, t.block, aspect);
        layout_aspect_ = aspect;
        // A new shape starts fitted; the same shape (a slider that changes no geometry) keeps
        // the zoom.
        if (old.cells_x() != layout_.cells_x() || old.cells_y() != layout_.cells_y()) {
          zoom_ = 1.0f;
          centre_x_ = static_cast<float>(layout_.cells_x()) / 2;
          centre_y_ = static_cast<float>(layout_.cells_y()) / 2;
        }
      }
      Upload(t);
    }
    const float cells_x = static_cast<float>(layout_.cells_x()),
                cells_y = static_cast<float>(layout_.cells_y());
    const float fit = std::min(avail.x / cells_x, avail.y / cells_y);
    if (fit <= 0) return;
    const ImVec2 size(cells_x * fit, cells_y * fit);
    // Zoom: the visible window of cells, kept inside the grid.
    view_w_ = cells_x / zoom_;
    view_h_ = cells_y / zoom_;
    view_x_ = std::clamp(centre_x_ - view_w_ / 2, 0.0f, cells_x - view_w_);
    view_y_ = std::clamp(centre_y_ - view_h_ / 2, 0.0f, cells_y - view_h_);
    const float fb_scale = ImGui::GetIO().DisplayFramebufferScale.x;
    const GLuint tex =
        renderer_.Render(static_cast<int>(size.x * fb_scale), static_cast<int>(size.y * fb_scale),
                         view_x_, view_y_, view_x_ + view_w_, view_y_ + view_h_);
    if (tex == 0) return;
    origin_ = ImGui::GetCursorScreenPos();
    scale_ = fit * zoom_;  // screen pixels per cell
    // The target's first row is its bottom: flip v so the grid's row 0 is at the top.
    ImGui::Image(ImTextureRef(static_cast<ImTextureID>(tex)), size, ImVec2(0, 1), ImVec2(1, 0));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->PushClipRect(origin_, ImVec2(origin_.x + size.x, origin_.y + size.y), true);
    DrawHazard();
    DrawCellLabels(t);
    DrawSelection();
    dl->PopClipRect();
    HandleZoom(size);
    HandleMouse(t);
  }

  // Zoomed in far enough, each thread's cell carries its threadIdx (and lane below it).
  void DrawCellLabels(const LaunchTrace& t) {
    const float font = ImGui::GetFontSize();
    if (layout_.summary || scale_ < font * 2.6f) return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const int x0 = static_cast<int>(view_x_), y0 = static_cast<int>(view_y_);
    const int x1 = std::min(layout_.cells_x(), static_cast<int>(std::ceil(view_x_ + view_w_)));
    const int y1 = std::min(layout_.cells_y(), static_cast<int>(std::ceil(view_y_ + view_h_)));
    const std::uint32_t txy = t.block.x * t.block.y;
    for (int y = y0; y < y1; ++y) {
      for (int x = x0; x < x1; ++x) {
        std::uint64_t b;
        std::uint32_t th;
        if (!layout_.ThreadAt(x, y, &b, &th)) continue;
        char text[32];
        if (t.block.y == 1 && t.block.z == 1)
          std::snprintf(text, sizeof text, "%u", th);
        else
          std::snprintf(text, sizeof text, "%u,%u", th % t.block.x, th % txy / t.block.x);
        const ImVec2 p = ToScreen(static_cast<float>(x), static_cast<float>(y));
        dl->AddText(ImVec2(p.x + 3, p.y + 2), IM_COL32(0, 0, 0, 230), text);
        if (scale_ >= font * 2.4f) {
          std::snprintf(text, sizeof text, "L%u", th % 32);
          dl->AddText(ImVec2(p.x + 3, p.y + 2 + font), IM_COL32(0, 0, 0, 150), text);
        }
      }
    }
  }

  // Screen position of cell (x, y)'s top-left corner.
  ImVec2 ToScreen(float x, float y) const {
    return ImVec2(origin_.x + (x - view_x_) * scale_, origin_.y + (y - view_y_) * scale_);
  }

  // Mouse wheel zooms about the pointer (up to 64x); right or middle drag pans.
  void HandleZoom(ImVec2 size) {
    if (!ImGui::IsItemHovered()) return;
    const ImGuiIO& io = ImGui::GetIO();
    const ImVec2 m = io.MousePos;
    const float mx = view_x_ + (m.x - origin_.x) / scale_,
                my = view_y_ + (m.y - origin_.y) / scale_;
    if (io.MouseWheel != 0) {
      const float old_zoom = zoom_;
      zoom_ = std::clamp(zoom_ * std::pow(1.25f, io.MouseWheel), 1.0f, 64.0f);
      // Keep the cell under the pointer where it is.
      const float k = old_zoom / zoom_;
      centre_x_ = mx + (view_x_ + view_w_ / 2 - mx) * k;
      centre_y_ = my + (view_y_ + view_h_ / 2 - my) * k;
    }
    for (ImGuiMouseButton b : {ImGuiMouseButton_Right, ImGuiMouseButton_Middle}) {
      if (ImGui::IsMouseDragging(b)) {
        centre_x_ -= io.MouseDelta.x / scale_;
        centre_y_ -= io.MouseDelta.y / scale_;
      }
    }
    (void)size;
  }

 private:
  void DrawHeader(const LaunchTrace& t) {
    ImGui::Text("grid (%u,%u,%u) of blocks (%u,%u,%u): %" PRIu64 " threads", t.grid.x, t.grid.y,
                t.grid.z, t.block.x, t.block.y, t.block.z, t.threads());
    ImGui::SameLine();
    ImGui::TextDisabled("(?)");
    ImGui::SetItemTooltip(
        "Each cell is a thread, coloured by its warp (32 consecutive threads of a block).\n"
        "Grey: the thread made no access (it failed the bounds test).\n"
        "White lines separate blocks. %s%s\nHover a thread for its indices and addresses; click "
        "to select its block, warp and lane everywhere.",
        layout_.wrapped_1d ? "1D blocks are drawn 32 threads (one warp) per row. " : "",
        layout_.summary ? "\nToo many threads to draw one by one: one cell per block, brighter "
                          "for more active threads."
                        : "");
    if (zoom_ > 1.0f) {
      ImGui::SameLine();
      ImGui::Text("zoom %.1fx", zoom_);
      ImGui::SameLine();
      if (ImGui::SmallButton("Fit")) zoom_ = 1.0f;
    } else {
      ImGui::SameLine();
      ImGui::TextDisabled("wheel: zoom, right-drag: pan");
    }
    if (session_->running) {
      ImGui::SameLine();
      ImGui::TextColored(ImVec4(0.95f, 0.75f, 0.3f, 1.0f), "updating...");
    }
  }

  void Upload(const LaunchTrace& t) {
    uploaded_run_ = session_->run.get();
    uploaded_block_ = session_->sel.block;
    uploaded_warp_ = session_->sel.warp;
    const int nx = layout_.cells_x(), ny = layout_.cells_y();
    const Rgba empty = palette::LightTheme() ? Rgba{225, 225, 230, 255} : Rgba{22, 23, 27, 255};
    std::vector<Rgba> colours(static_cast<std::size_t>(nx) * static_cast<std::size_t>(ny), empty);
    const std::uint64_t tpb = t.block.count();
    const bool know_activity = t.thread_active.size() == t.threads();
    const Rgba highlight = {255, 255, 255, 255};
    for (std::uint64_t b = 0; b < t.grid.count(); ++b) {
      if (layout_.summary) {
        std::uint64_t active = tpb;
        if (know_activity) {
          active = 0;
          for (std::uint64_t i = 0; i < tpb; ++i) active += t.thread_active[b * tpb + i];
        }
        int x, y;
        layout_.CellOf(b, 0, &x, &y);
        colours[static_cast<std::size_t>(y) * static_cast<std::size_t>(nx) +
                static_cast<std::size_t>(x)] =
            Mix(palette::kIdle, palette::kWarp[1],
                static_cast<float>(active) / static_cast<float>(tpb));
        continue;
      }
      for (std::uint32_t th = 0; th < tpb; ++th) {
        const bool active = !know_activity || t.thread_active[b * tpb + th] != 0;
        Rgba c = active ? palette::Warp(th / 32) : palette::kIdle;
        if (b == session_->sel.block && static_cast<int>(th / 32) == session_->sel.warp)
          c = Mix(c, highlight, 0.45f);
        int x, y;
        layout_.CellOf(b, th, &x, &y);
        colours[static_cast<std::size_t>(y) * static_cast<std::size_t>(nx) +
                static_cast<std::size_t>(x)] = c;
      }
    }
    renderer_.SetCells(nx, ny, layout_.block_w, layout_.block_h, colours);
  }

  // A selected hazard: both its example's threads with a band of the kind's colour inside the
  // cell, under the labels (the one playback stands on is also the selected lane, framed
  // white by DrawSelection).
  void DrawHazard() {
    const HazardGroup* g = session_->selected_hazard();
    if (g == nullptr || layout_.summary) return;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float s = scale_;
    for (const HazardAccess* h : {&g->example_first, &g->example_second}) {
      if (h->thread >= layout_.block.count()) continue;
      int x, y;
      layout_.CellOf(h->block, h->thread, &x, &y);
      const ImVec2 c = ToScreen(static_cast<float>(x), static_cast<float>(y));
      const float band = std::max(3.0f, s * 0.1f), in = 2.0f + band / 2;
      dl->AddRect(ImVec2(c.x + in, c.y + in), ImVec2(c.x + s - in, c.y + s - in),
                  view::HazardColour(g->kind), 0.0f, band);
    }
  }

  void DrawSelection() {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float s = scale_;
    int x, y;
    layout_.CellOf(session_->sel.block, 0, &x, &y);
    const ImVec2 a = ToScreen(static_cast<float>(x), static_cast<float>(y));
    dl->AddRect(a,
                ImVec2(a.x + static_cast<float>(layout_.block_w) * s,
                       a.y + static_cast<float>(layout_.block_h) * s),
                palette::Text(), 0.0f, 3.0f);
    if (layout_.summary || session_->sel.warp < 0 || session_->sel.lane < 0) return;
    const std::uint32_t th =
        static_cast<std::uint32_t>(session_->sel.warp * 32 + session_->sel.lane);
    if (th >= layout_.block.count()) return;
    layout_.CellOf(session_->sel.block, th, &x, &y);
    const ImVec2 c = ToScreen(static_cast<float>(x), static_cast<float>(y));
    dl->AddRect(c, ImVec2(c.x + s, c.y + s), IM_COL32(0, 0, 0, 255), 0.0f, 3.0f);
    dl->AddRect(c, ImVec2(c.x + s, c.y + s), IM_COL32(255, 255, 255, 255), 0.0f, 1.5f);
  }

  void HandleMouse(const LaunchTrace& t) {
    if (!ImGui::IsItemHovered()) return;
    const ImVec2 m = ImGui::GetMousePos();
    const int cx = static_cast<int>(std::floor(view_x_ + (m.x - origin_.x) / scale_));
    const int cy = static_cast<int>(std::floor(view_y_ + (m.y - origin_.y) / scale_));
    std::uint64_t b;
    std::uint32_t th;
    if (!layout_.ThreadAt(cx, cy, &b, &th)) return;
    const std::uint32_t bxy = t.grid.x * t.grid.y;
    const std::uint32_t txy = t.block.x * t.block.y;
    const std::uint32_t b32 = static_cast<std::uint32_t>(b);
    if (ImGui::BeginTooltip()) {
      ImGui::Text("blockIdx (%u, %u, %u)", b32 % t.grid.x, b32 % bxy / t.grid.x, b32 / bxy);
      if (!layout_.summary) {
        ImGui::Text("threadIdx (%u, %u, %u)", th % t.block.x, th % txy / t.block.x, th / txy);
        ImGui::Text("thread %u of the block, %" PRIu64 " of the grid", th,
                    b * t.block.count() + th);
        ImGui::Text("warp %u, lane %u", th / 32, th % 32);
        if (t.thread_active.size() == t.threads() && t.thread_active[b * t.block.count() + th] == 0)
          ImGui::TextColored(ImVec4(0.7f, 0.7f, 0.7f, 1), "idle: made no access");
        DescribeAddresses(t, b32, th);
      }
      ImGui::EndTooltip();
    }
    if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
      session_->sel.block = b32;
      session_->sel.warp = layout_.summary ? 0 : static_cast<int>(th / 32);
      session_->sel.lane = layout_.summary ? -1 : static_cast<int>(th % 32);
      session_->sel.request = -1;
      session_->step = -1;
      session_->playing = false;
      if (session_->sel.site >= 0) session_->SelectSite(session_->sel.site);
    }
  }

  void DescribeAddresses(const LaunchTrace& t, std::uint32_t block, std::uint32_t th) {
    if (hover_run_ != session_->run.get() || hover_block_ != block) {
      hover_run_ = session_->run.get();
      hover_block_ = block;
      hover_view_ = BuildBlockView(t, block);
    }
    if (!hover_view_.kept) {
      ImGui::TextDisabled("Records of this block were not kept: click it to record them.");
      return;
    }
    const int site = session_->sel.site;
    int shown = 0;
    for (const BlockRequest& r : hover_view_.requests) {
      if ((site >= 0 && r.site != site) || r.warp != th / 32) continue;
      for (const LaneAccess& l : r.lanes) {
        if (l.lane != th % 32) continue;
        if (++shown > 6) break;
        const SiteInfo& si = t.sites[r.site];
        if (si.space == MemorySpace::kShared) {
          ImGui::Text("line %u %s shared +%" PRIu64 " (bank %" PRIu64 ")", si.line, ToString(si.op),
                      l.address, l.address / 4 % 32);
        } else {
          const std::uint64_t base = si.buffer < t.buffers.size() ? t.buffers[si.buffer].base : 0;
          const std::string name = si.buffer < t.buffers.size()      ? t.buffers[si.buffer].name
                                   : si.space == MemorySpace::kLocal ? "local"
                                                                     : "?";
          ImGui::Text("line %u %s %s + %" PRIu64 " B  (0x%" PRIx64 ", sector %" PRIu64 ")", si.line,
                      ToString(si.op), name.c_str(), l.address - base, l.address, l.address / 32);
        }
      }
    }
    if (shown == 0)
      ImGui::TextDisabled(site >= 0 ? "No access at the selected site." : "No accesses.");
    if (shown > 6) ImGui::TextDisabled("...");
  }

  Session* session_;
  CellGridRenderer renderer_;
  bool init_tried_ = false;
  Status init_;
  GridLayout layout_;
  float zoom_ = 6.0f, centre_x_ = 0, centre_y_ = 0;  // zoom factor and the centre, in cells
  float view_x_ = 0, view_y_ = 0, view_w_ = 1, view_h_ = 1;
  ImVec2 origin_;
  float scale_ = 1;
  float layout_aspect_ = 0;
  const LessonRun* uploaded_run_ = nullptr;
  std::uint32_t uploaded_block_ = ~0u;
  int uploaded_warp_ = -2;
  const LessonRun* hover_run_ = nullptr;
  std::uint32_t hover_block_ = ~0u;
  BlockView hover_view_;
};

}  // namespace

std::unique_ptr<Panel> MakeGridPanel(Session* session) {
  return std::make_unique<GridPanel>(session);
}

}  // namespace ws
