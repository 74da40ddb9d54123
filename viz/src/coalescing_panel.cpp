// The coalescing view: the selected warp request's 32 lanes above a strip of memory, each lane's
// bytes landing in their 32-byte sectors, and the transactions the chosen model makes of them
// (sectors, 128-byte lines, or the compute 1.0/1.1 and 1.2/1.3 half-warp rules); below, every
// global site's figures over the whole grid and the histogram of sectors per request. Index:
//   [SECTION] The request shown: the site and request pickers, the transaction model
//   [SECTION] One request: the headline, the lanes, the memory strip, the transactions
//   [SECTION] Totals over the grid: every global site's figures, the histogram
#include <imgui.h>
#include <implot.h>

#include <algorithm>
#include <cinttypes>
#include <vector>

#include "view_util.h"
#include "warpscope/viz/palette.h"
#include "warpscope/viz/strip_layout.h"
#include "warpscope/viz/views.h"
#include "what_if_editor.h"

namespace ws {
namespace {

enum Model { kSectors = 0, kLines = 1, kCc10 = 2, kCc12 = 3 };
constexpr const char* kModelNames[] = {
    "32-byte sectors (today's GPUs)", "128-byte lines (Fermi L1 caching loads)",
    "compute 1.0/1.1 half-warp rule", "compute 1.2/1.3 segments"};

class CoalescingPanel : public Panel {
  view::WhatIfEditor what_if_;

 public:
  explicit CoalescingPanel(Session* session)
      : Panel("coalescing", "Coalescing"), session_(session) {}

  // The global site shown and its whole-grid figures; the request's label as drawn last frame.
  State Shown() const override {
    if (!session_->run || !session_->run->has_launch()) return {};
    const LaunchTrace& t = session_->run->main_launch();
    const int site = view::ViewSite(t, session_->sel.site, view::IsGlobalLike);
    if (site < 0) return {{"site", "none"}};
    const SiteStats& st = t.stats.sites[static_cast<std::size_t>(site)];
    return {{"site", std::to_string(site)},
            {"line", std::to_string(t.sites[static_cast<std::size_t>(site)].line)},
            {"requests", std::to_string(st.requests)},
            {"sectors", std::to_string(st.sectors)},
            {"label", label_},
            {"label_whole", label_whole_ ? "1" : "0"},
            {"detail_whole", detail_whole_ ? "1" : "0"}};
  }

 protected:
  // [SECTION] The request shown -------------------------------------------------------------------

  void DrawContents() override {
    if (view::NoLaunch(
            *session_,
            "A warp's 32 lanes above a strip of memory: each lane's bytes land in 32-byte sectors, "
            "and each sector (or 128-byte line, or compute 1.x segment) is one transaction."))
      return;
    const LaunchTrace& t = session_->run->main_launch();
    const int site = view::ViewSite(t, session_->sel.site, view::IsGlobalLike);
    if (site < 0) {
      ImGui::TextWrapped("This kernel makes no global-memory accesses: see the banks view.");
      return;
    }
    what_if_.Draw(session_, "coalescing", false);
    view::SiteCombo(session_, t, site, view::IsGlobalLike);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16);
    ImGui::Combo("Model", &model_, kModelNames, IM_ARRAYSIZE(kModelNames));
    ImGui::SetItemTooltip(
        "Sectors: what Nsight Compute counts on compute 5.0 and later.\nLines: Fermi's L1 "
        "caching loads.\n1.0/1.1: a half-warp is one transaction only if thread k reads word k "
        "of an aligned segment.\n1.2/1.3: one 32/64/128-byte segment per group of threads.");
    view::UpdatingBadge(*session_);

    const BlockView& bv = session_->block_view();
    // The selected request if it is at the shown site, else the selected warp's (or the first)
    // request there.
    const BlockRequest* req = session_->current_request();
    if (req == nullptr || req->site != site) {
      int i = bv.FindRequest(site, session_->sel.warp);
      if (i < 0) i = bv.FindRequest(site, -1);
      req = i >= 0 ? &bv.requests[static_cast<std::size_t>(i)] : nullptr;
    }
    if (req != nullptr) {
      RequestPicker(bv, *req);
      DrawRequest(t, *req, MarkHazard(*session_, bv.block, *req));
    } else if (!bv.kept) {
      view::NotKept(*session_, bv);
    } else {
      ImGui::TextDisabled("Block %u makes no request at this site.", bv.block);
    }
    ImGui::Separator();
    DrawTotals(t, site);
  }

 private:
  void RequestPicker(const BlockView& bv, const BlockRequest& req) {
    // The requests of this site in the block, in order: a slider over them.
    std::vector<int> same;
    int at = 0;
    for (std::size_t i = 0; i < bv.requests.size(); ++i) {
      if (bv.requests[i].site != req.site) continue;
      if (&bv.requests[i] == &req) at = static_cast<int>(same.size());
      same.push_back(static_cast<int>(i));
    }
    int pick = at;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
    if (ImGui::SliderInt("Request", &pick, 0, static_cast<int>(same.size()) - 1, "%d",
                         ImGuiSliderFlags_AlwaysClamp) &&
        pick != at) {
      session_->SelectRequest(same[static_cast<std::size_t>(pick)]);
    }
    ImGui::SameLine();
    ImGui::Text("block %u, warp %u, iteration %u (%zu of this site's requests in the block)",
                bv.block, req.warp, req.iteration, same.size());
  }

  std::vector<Segment> Transactions(const std::vector<LaneAccess>& lanes) const {
    switch (model_) {
      case kLines:
        return GranuleSegments(lanes, 128);
      case kCc10:
        return Cc10Segments(lanes);
      case kCc12:
        return Cc12Segments(lanes);
      default:
        return GranuleSegments(lanes, 32);
    }
  }

  // [SECTION] One request -------------------------------------------------------------------------

  // One warp request: its headline, then 32 lanes over a strip of memory, each lane wired to its
  // bytes, and the chosen model's transactions under the strip.
  void DrawRequest(const LaunchTrace& t, const BlockRequest& req, const HazardMark& mark) {
    const std::vector<Segment> segs = Transactions(req.lanes);
    DrawHeadline(t, req, mark, segs);
    RequestFrame f;
    f.font = ImGui::GetFontSize();
    f.width = ImGui::GetContentRegionAvail().x - f.font;
    const float height = f.font * 12.0f;
    f.o = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(f.width, height));
    f.dl = ImGui::GetWindowDrawList();
    f.lane_w = f.width / 32.0f;
    f.lane_h = f.font * 1.4f;
    DrawLanes(f, req, mark);
    // Memory: the touched 128-byte lines (and the transactions' segments).
    std::vector<std::uint64_t> lines;
    for (const LaneAccess& l : req.lanes) {
      for (std::uint64_t a = l.address / 128; a <= (l.address + l.size - 1) / 128; ++a)
        lines.push_back(a);
    }
    for (const Segment& s : segs) {
      for (std::uint64_t a = s.address / 128; a <= (s.address + s.bytes - 1) / 128; ++a)
        lines.push_back(a);
    }
    strip_ = StripLayout::Of(lines, f.width);
    f.mem_y = f.o.y + f.font * 5.0f;
    f.mem_h = f.font * 1.6f;
    DrawMemory(f, t, req);
    DrawLaneBytes(f, req, mark);
    DrawTransactions(f, segs);
  }

  // Where DrawRequest draws: the top-left corner, the font size, the width; the lanes' boxes and
  // the memory strip's top and height.
  struct RequestFrame {
    ImVec2 o;
    float font = 0, width = 0, lane_w = 0, lane_h = 0, mem_y = 0, mem_h = 0;
    ImDrawList* dl = nullptr;
  };

  // "N sectors" in big letters, the bytes moved for those asked, and the selected hazard.
  void DrawHeadline(const LaunchTrace& t, const BlockRequest& req, const HazardMark& mark,
                    const std::vector<Segment>& segs) const {
    const std::uint32_t sectors = Sectors(req.lanes), ideal = IdealSectors(req.lanes);
    const std::uint32_t n = static_cast<std::uint32_t>(segs.size());
    const char* unit = model_ == kSectors ? "sector" : model_ == kLines ? "line" : "transaction";
    std::uint64_t moved = 0;
    for (const Segment& s : segs) moved += s.bytes;
    const float right = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    label_ = std::to_string(n) + " " + unit + (n == 1 ? "" : "s");
    label_whole_ = view::BigText(1.6f, palette::Text(), "%s", label_.c_str());
    char detail[160];
    std::snprintf(detail, sizeof detail,
                  "%" PRIu64 " bytes moved for %u asked (%.0f %% used); ideal %u sectors", moved,
                  UniqueBytes(req.lanes),
                  moved ? 100.0 * UniqueBytes(req.lanes) / static_cast<double>(moved) : 0.0, ideal);
    // Beside the label where it fits, else under it, wrapped: never cut at the view's edge.
    if (ImGui::GetItemRectMax().x + ImGui::GetFontSize() + ImGui::CalcTextSize(detail).x <= right) {
      ImGui::SameLine();
      ImGui::AlignTextToFramePadding();
      ImGui::Text("  %s", detail);
    } else {
      ImGui::TextWrapped("%s", detail);
    }
    detail_whole_ = ImGui::GetItemRectMax().x <= right + 1;
    ImGui::SetItemTooltip("sectors %u, lines %u, compute 1.0 %u, compute 1.2 %u", sectors,
                          Lines128(req.lanes), Cc10Transactions(req.lanes),
                          Cc12Transactions(req.lanes).transactions);
    if (mark.group != nullptr) {
      ImGui::PushStyleColor(ImGuiCol_Text, view::HazardColour(mark.group->kind));
      ImGui::TextWrapped("Selected hazard (%s, line %u -> %u): byte +%" PRIu64
                         " of the buffer, outlined with the lane%s touching it here",
                         ToString(mark.group->kind), mark.group->first_line,
                         mark.group->second_line, mark.address - BufferBase(t, req),
                         (mark.lanes & (mark.lanes - 1)) != 0 ? "s" : "");
      ImGui::PopStyleColor();
    }
  }

  // Lanes: 32 boxes across the top.
  void DrawLanes(const RequestFrame& f, const BlockRequest& req, const HazardMark& mark) const {
    const ImVec2 o = f.o;
    const float font = f.font, lane_w = f.lane_w, lane_h = f.lane_h;
    ImDrawList* dl = f.dl;
    const ImU32 dim = palette::TextDim();
    bool active[32] = {};
    for (const LaneAccess& l : req.lanes) active[l.lane] = true;
    for (int lane = 0; lane < 32; ++lane) {
      const ImVec2 a(o.x + static_cast<float>(lane) * lane_w + 1, o.y);
      const ImVec2 b(a.x + lane_w - 2, a.y + lane_h);
      if (active[lane])
        dl->AddRectFilled(a, b, palette::WarpU32(req.warp));
      else
        dl->AddRect(a, b, dim);
      if (lane_w > font * 1.1f) {
        char num[4];
        std::snprintf(num, sizeof num, "%d", lane);
        const ImVec2 ts = ImGui::CalcTextSize(num);
        dl->AddText(ImVec2(a.x + (lane_w - 2 - ts.x) / 2, a.y + (lane_h - ts.y) / 2),
                    active[lane] ? IM_COL32(0, 0, 0, 255) : dim, num);
      }
      if (mark.lanes >> lane & 1u)
        view::HazardOutline(dl, ImVec2(a.x - 1, a.y - 1), ImVec2(b.x + 1, b.y + 1),
                            mark.group->kind);
    }
    dl->AddText(ImVec2(o.x, o.y + lane_h + 2), dim, "lanes");
  }

  // The touched lines' windows of memory: sector and line boundaries, byte offsets.
  void DrawMemory(const RequestFrame& f, const LaunchTrace& t, const BlockRequest& req) const {
    const ImVec2 o = f.o;
    const float mem_y = f.mem_y, mem_h = f.mem_h;
    ImDrawList* dl = f.dl;
    const ImU32 text = palette::Text(), dim = palette::TextDim();
    for (const StripLayout::Window& w : strip_.windows) {
      const float x0 = o.x + static_cast<float>(w.x),
                  x1 = x0 +
                       static_cast<float>(static_cast<double>(w.hi - w.lo) * strip_.px_per_byte);
      dl->AddRectFilled(
          ImVec2(x0, mem_y), ImVec2(x1, mem_y + mem_h),
          palette::LightTheme() ? IM_COL32(225, 225, 232, 255) : IM_COL32(45, 48, 56, 255));
      // Sector boundaries (thin) and line boundaries (thick).
      for (std::uint64_t a = w.lo; a <= w.hi; a += 32) {
        float x = 0;
        if (!StripX(a, &x)) continue;
        const bool line = a % 128 == 0;
        dl->AddLine(ImVec2(o.x + x, mem_y - (line ? 4.0f : 0.0f)), ImVec2(o.x + x, mem_y + mem_h),
                    line ? text : palette::Grid(), line ? 2.0f : 1.0f);
      }
      // Byte offsets from the buffer's start at each line, where there is room to write them.
      float last_label_end = -1e9f;
      for (std::uint64_t a = w.lo; a < w.hi; a += 128) {
        float x = 0;
        if (!StripX(a, &x)) continue;
        char label[32];
        std::snprintf(label, sizeof label, "+%" PRIu64, a - BufferBase(t, req));
        if (o.x + x < last_label_end) continue;
        dl->AddText(ImVec2(o.x + x + 2, mem_y + mem_h + 2), dim, label);
        last_label_end = o.x + x + ImGui::CalcTextSize(label).x + 8;
      }
    }
  }

  void DrawLaneBytes(const RequestFrame& f, const BlockRequest& req, const HazardMark& mark) const {
    const ImVec2 o = f.o;
    const float lane_w = f.lane_w, lane_h = f.lane_h, mem_y = f.mem_y, mem_h = f.mem_h;
    ImDrawList* dl = f.dl;
    // Each lane's bytes, and a wire from the lane to them.
    for (const LaneAccess& l : req.lanes) {
      float x0, x1;
      if (!StripX(l.address, &x0) || !StripX(l.address + l.size, &x1)) continue;
      // Inset by a pixel when there is room, so neighbouring lanes' words read as separate.
      const float inset = x1 - x0 > 4.0f ? 1.0f : 0.0f;
      dl->AddRectFilled(ImVec2(o.x + x0 + inset, mem_y + 2),
                        ImVec2(o.x + std::max(x1 - inset, x0 + 1.0f), mem_y + mem_h - 2),
                        palette::WarpU32(req.warp));
      const float lx = o.x + (static_cast<float>(l.lane) + 0.5f) * lane_w;
      dl->AddLine(ImVec2(lx, o.y + lane_h), ImVec2(o.x + (x0 + x1) / 2, mem_y),
                  palette::WarpU32(req.warp, 150), 1.0f);
    }
    // The selected hazard's bytes: the lanes' accesses that cover its address, outlined.
    for (const LaneAccess& l : req.lanes) {
      float x0, x1;
      if (!(mark.lanes >> l.lane & 1u) || !StripX(l.address, &x0) ||
          !StripX(l.address + l.size, &x1))
        continue;
      view::HazardOutline(dl, ImVec2(o.x + x0 - 1, mem_y - 1),
                          ImVec2(o.x + std::max(x1, x0 + 2) + 1, mem_y + mem_h + 1),
                          mark.group->kind);
    }
  }

  void DrawTransactions(const RequestFrame& f, const std::vector<Segment>& segs) const {
    const ImVec2 o = f.o;
    const float font = f.font, mem_y = f.mem_y, mem_h = f.mem_h;
    ImDrawList* dl = f.dl;
    const ImU32 dim = palette::TextDim();
    // Transactions: one bracket per segment under the strip (half-warp models: two rows).
    const float tx_y = mem_y + mem_h + font * 1.6f;
    int k = 0;
    for (const Segment& s : segs) {
      float x0, x1;
      if (!StripX(s.address, &x0) || !StripX(s.address + s.bytes, &x1)) continue;
      const float row = s.half == 1 ? font * 1.4f : 0.0f;
      const ImU32 c = palette::Heat(0.25f + 0.6f * static_cast<float>(k % 4) / 3.0f);
      dl->AddRectFilled(ImVec2(o.x + x0 + 1, tx_y + row), ImVec2(o.x + x1 - 1, tx_y + row + font),
                        c, 3.0f);
      ++k;
    }
    dl->AddText(
        ImVec2(o.x, tx_y + font * (model_ >= kCc10 ? 2.6f : 1.2f)), dim,
        model_ >= kCc10 ? "transactions (upper row: lanes 0-15, lower: 16-31)" : "transactions");
  }

  static std::uint64_t BufferBase(const LaunchTrace& t, const BlockRequest& req) {
    const SiteInfo& s = t.sites[req.site];
    return s.buffer < t.buffers.size() ? t.buffers[s.buffer].base : 0;
  }

  // [SECTION] Totals over the grid ----------------------------------------------------------------

  void DrawTotals(const LaunchTrace& t, int site) {
    const float font = ImGui::GetFontSize();
    const float table_w = ImGui::GetContentRegionAvail().x * 0.6f;
    if (ImGui::BeginTable("##sites", 7,
                          ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                              ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit,
                          ImVec2(table_w, font * 9))) {
      ImGui::TableSetupScrollFreeze(0, 1);
      for (const char* h : {"site", "requests", "sectors/req", "ideal/req", "efficiency",
                            "lines/req", "cc1.2 tx/req"})
        ImGui::TableSetupColumn(h);
      ImGui::TableHeadersRow();
      for (std::size_t i = 0; i < t.sites.size(); ++i) {
        const SiteInfo& si = t.sites[i];
        if (!view::IsGlobalLike(si)) continue;
        const SiteStats& st = t.stats.sites[i];
        const double r = st.requests ? static_cast<double>(st.requests) : 1.0;
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        char label[48];
        std::snprintf(label, sizeof label, "line %u %s##%zu", si.line, ToString(si.op), i);
        if (ImGui::Selectable(label, static_cast<int>(i) == site,
                              ImGuiSelectableFlags_SpanAllColumns))
          session_->SelectSite(static_cast<int>(i));
        ImGui::SetItemTooltip("%s", si.code.c_str());
        ImGui::TableNextColumn();
        ImGui::Text("%" PRIu64, st.requests);
        ImGui::TableNextColumn();
        ImGui::Text("%.2f", st.SectorsPerRequest());
        ImGui::TableNextColumn();
        ImGui::Text("%.2f", static_cast<double>(st.ideal_sectors) / r);
        ImGui::TableNextColumn();
        ImGui::Text("%.0f %%", st.sectors ? 100.0 * static_cast<double>(st.ideal_sectors) /
                                                static_cast<double>(st.sectors)
                                          : 0.0);
        ImGui::TableNextColumn();
        ImGui::Text("%.2f", static_cast<double>(st.lines128) / r);
        ImGui::TableNextColumn();
        ImGui::Text("%.2f", static_cast<double>(st.cc12_transactions) / r);
      }
      ImGui::EndTable();
    }
    ImGui::SameLine();
    const SiteStats& st = t.stats.sites[static_cast<std::size_t>(site)];
    std::vector<double> xs, ys;
    for (std::size_t n = 0; n < st.sectors_histogram.size(); ++n) {
      if (st.sectors_histogram[n] == 0) continue;
      xs.push_back(static_cast<double>(n));
      ys.push_back(static_cast<double>(st.sectors_histogram[n]));
    }
    if (ImPlot::BeginPlot("Sectors per request (whole grid)", ImVec2(-1, font * 9),
                          ImPlotFlags_NoLegend | ImPlotFlags_NoMenus)) {
      ImPlot::SetupAxes("sectors", "requests", ImPlotAxisFlags_None, ImPlotAxisFlags_AutoFit);
      ImPlot::SetupAxisLimits(ImAxis_X1, -0.5, std::max(8.5, xs.empty() ? 8.5 : xs.back() + 1.5),
                              ImPlotCond_Always);
      if (!xs.empty())
        ImPlot::PlotBars("requests", xs.data(), ys.data(), static_cast<int>(xs.size()), 0.8);
      ImPlot::EndPlot();
    }
  }

  Session* session_;
  int model_ = kSectors;
  // What the last frame drew, for Shown().
  mutable std::string label_;
  mutable bool label_whole_ = false, detail_whole_ = false;
  // The strip's x of address `a`, as the panel draws in floats.
  bool StripX(std::uint64_t a, float* x) const {
    double at = 0;
    if (!strip_.X(a, &at)) return false;
    *x = static_cast<float>(at);
    return true;
  }
  StripLayout strip_;
};

}  // namespace

std::unique_ptr<Panel> MakeCoalescingPanel(Session* session) {
  return std::make_unique<CoalescingPanel>(session);
}

}  // namespace ws
