// The shared-memory banks view: a heatmap of the banks against the warp requests of a site in the
// selected block (colour = distinct 4-byte words the request needs from that bank; more than one
// is a conflict), and for the selected request the lane-to-bank wiring with its conflict degree
// written large. The 16-bank half-warp model (compute 1.x) re-draws the same trace.
#include <imgui.h>

#include <algorithm>
#include <cinttypes>
#include <set>
#include <vector>

#include "view_util.h"
#include "warpscope/trace/compiled_code.h"
#include "warpscope/viz/axis.h"
#include "warpscope/viz/palette.h"
#include "warpscope/viz/views.h"
#include "what_if_editor.h"

namespace ws {
namespace {

// One heatmap row: the words per bank of one request (or one half-warp of it).
struct Row {
  int request = 0;
  int half = -1;  // 16-bank model: 0 lanes 0-15, 1 lanes 16-31
  std::vector<std::uint32_t> words;
};

std::vector<LaneAccess> Half(const std::vector<LaneAccess>& lanes, int half) {
  std::vector<LaneAccess> out;
  for (const LaneAccess& l : lanes) {
    if ((l.lane < 16 ? 0 : 1) == half) out.push_back(l);
  }
  return out;
}

class BanksPanel : public Panel {
  view::WhatIfEditor what_if_;

 public:
  explicit BanksPanel(Session* session) : Panel("banks", "Banks"), session_(session) {}

  // The shared site shown (the selected one, else the worst) and its whole-grid figures.
  State Shown() const override {
    if (!session_->run || !session_->run->has_launch()) return {};
    const LaunchTrace& t = session_->run->main_launch();
    const int site = ShownSite(t);
    if (site < 0) return {{"site", "none"}};
    const SiteStats& st = t.stats.sites[static_cast<std::size_t>(site)];
    return {{"site", std::to_string(site)},
            {"line", std::to_string(t.sites[static_cast<std::size_t>(site)].line)},
            {"requests", std::to_string(st.requests)},
            {"wavefronts", std::to_string(st.wavefronts)},
            {"worst_degree", std::to_string(st.bank_conflict_max)},
            {"worst_degree_16_banks", std::to_string(st.halfwarp16_conflict_max)},
            {"conflicts", std::to_string(st.wavefronts - st.ideal_wavefronts)},
            {"what_if", session_->run->what_if ? session_->run->what_if->label : ""},
            // As drawn in the last frame: whether the conflict label lay whole in view, the
            // heatmap's cell width in pixels, and whether the two halves were stacked.
            {"label", label_},
            {"label_whole", label_whole_ ? "1" : "0"},
            {"heatmap_cell_px", std::to_string(static_cast<int>(heat_cell_))},
            {"stacked", stacked_ ? "1" : "0"}};
  }

 protected:
  void DrawContents() override {
    if (view::NoLaunch(
            *session_,
            "A heatmap of the 32 banks against a site's warp requests, and the lane-to-bank wiring "
            "of the selected request with its conflict degree."))
      return;
    const LaunchTrace& t = session_->run->main_launch();
    const int site = ShownSite(t);
    if (site < 0) {
      ImGui::TextWrapped(
          "This kernel uses no shared memory. Try transpose (coalesced against padded), "
          "bank-stride or matmul (tiled).");
      return;
    }
    what_if_.Draw(session_, "banks", true);
    view::SiteCombo(session_, t, site, view::IsShared);
    ImGui::SameLine();
    ImGui::RadioButton("32 banks (warp)", &banks16_, 0);
    ImGui::SameLine();
    ImGui::RadioButton("16 banks (half-warp, compute 1.x)", &banks16_, 1);
    view::UpdatingBadge(*session_);
    const SiteStats& st = t.stats.sites[static_cast<std::size_t>(site)];
    const bool whole = !session_->run->what_if || session_->run->what_if->whole_grid;
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped(
        "%s: %" PRIu64 " requests, %" PRIu64 " wavefronts (%.2f per request, %" PRIu64
        " conflicts), worst %u-way (16-bank model: %u-way)",
        whole ? "Whole grid" : "Kept blocks", st.requests, st.wavefronts,
        st.requests ? static_cast<double>(st.wavefronts) / static_cast<double>(st.requests) : 0.0,
        st.wavefronts - st.ideal_wavefronts, st.bank_conflict_max, st.halfwarp16_conflict_max);
    ImGui::PopStyleColor();

    const BlockView& bv = session_->block_view();
    if (!bv.kept) {
      view::NotKept(*session_, bv);
      return;
    }
    const int banks = banks16_ ? 16 : 32;
    std::vector<Row> rows;
    std::uint32_t most = 1;
    for (std::size_t i = 0; i < bv.requests.size(); ++i) {
      const BlockRequest& r = bv.requests[i];
      if (r.site != site) continue;
      for (int h = banks16_ ? 0 : -1; h <= (banks16_ ? 1 : -1); ++h) {
        Row row{static_cast<int>(i), h, WordsPerBank(h < 0 ? r.lanes : Half(r.lanes, h), banks)};
        for (std::uint32_t w : row.words) most = std::max(most, w);
        rows.push_back(std::move(row));
      }
    }
    if (rows.empty()) {
      ImGui::TextDisabled("Block %u makes no request at this site.", bv.block);
      return;
    }
    const BlockRequest* cur = session_->current_request();
    if (cur == nullptr || cur->site != site)
      cur = &bv.requests[static_cast<std::size_t>(rows[0].request)];
    const int cur_index = static_cast<int>(cur - bv.requests.data());

    // Side by side where the view is wide; in a narrow one (a small screen at a large UI scale)
    // the wiring under the heatmap, so that neither is squeezed to a strip.
    const float font = ImGui::GetFontSize();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    stacked_ = avail.x < font * 44;
    if (stacked_) {
      const float heat_h =
          std::min(avail.y * 0.45f, font * (2.6f + 1.2f * static_cast<float>(rows.size())));
      if (ImGui::BeginChild("##heat", ImVec2(0, std::max(heat_h, font * 5))))
        DrawHeatmap(bv, rows, banks, most, cur_index);
      ImGui::EndChild();
    } else {
      const float heat_w = std::min(avail.x * 0.45f, font * 30);
      if (ImGui::BeginChild("##heat", ImVec2(heat_w, 0)))
        DrawHeatmap(bv, rows, banks, most, cur_index);
      ImGui::EndChild();
      ImGui::SameLine();
    }
    if (ImGui::BeginChild("##wiring", ImVec2(0, 0)))
      DrawWiring(*cur, t.sites[cur->site].op == AccessOp::kLoad, banks,
                 MarkHazard(*session_, bv.block, *cur));
    ImGui::EndChild();
  }

 private:
  // Unless a shared site is selected, the one with the worst conflicts.
  int ShownSite(const LaunchTrace& t) const {
    return view::ViewSite(t, session_->sel.site, view::IsShared, [](const SiteStats& s) {
      return static_cast<double>(s.bank_conflict_max);
    });
  }
  void DrawHeatmap(const BlockView& bv, const std::vector<Row>& rows, int banks, std::uint32_t most,
                   int cur_index) {
    const float font = ImGui::GetFontSize();
    ImGui::Text("Block %u: words per bank, one row per %s", bv.block,
                banks16_ ? "half-warp request" : "warp request");
    const float label_w = font * 3.2f;
    const float cell =
        std::max(4.0f, (ImGui::GetContentRegionAvail().x - label_w) / static_cast<float>(banks));
    heat_cell_ = cell;
    const float row_h = std::clamp(cell, 4.0f, font * 1.2f);
    const ImVec2 o = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    // Bank numbers across the top, as many as fit without running together.
    const int label_step =
        AxisLabelStep(cell, ImGui::CalcTextSize(std::to_string(banks - 1).c_str()).x, font * 0.4f);
    for (int b = 0; b < banks; b += label_step) {
      char num[12];  // any int: GCC 12 at -O0 cannot bound b (-Wformat-truncation)
      std::snprintf(num, sizeof num, "%d", b);
      dl->AddText(ImVec2(o.x + label_w + static_cast<float>(b) * cell, o.y), palette::TextDim(),
                  num);
    }
    const float top = o.y + font * 1.2f;
    const ImU32 empty =
        palette::LightTheme() ? IM_COL32(232, 232, 238, 255) : IM_COL32(36, 38, 46, 255);
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const float y = top + static_cast<float>(r) * row_h;
      const BlockRequest& req = bv.requests[static_cast<std::size_t>(rows[r].request)];
      if (rows[r].half <= 0 && row_h >= font * 0.8f) {
        char lab[32];
        std::snprintf(lab, sizeof lab, "w%u.%u", req.warp, req.iteration);
        dl->AddText(ImVec2(o.x, y), palette::TextDim(), lab);
      }
      for (int b = 0; b < banks; ++b) {
        const std::uint32_t w = rows[r].words[static_cast<std::size_t>(b)];
        const ImVec2 a(o.x + label_w + static_cast<float>(b) * cell, y);
        dl->AddRectFilled(a, ImVec2(a.x + cell - 1, a.y + row_h - 1),
                          w == 0 ? empty : palette::Heat(view::DegreeHeat(w)));
        if (w > 1 && cell >= font * 1.1f && row_h >= font * 0.9f) {
          char num[12];
          std::snprintf(num, sizeof num, "%u", w);
          dl->AddText(ImVec2(a.x + 2, a.y), IM_COL32(0, 0, 0, 255), num);
        }
      }
      // The selected hazard's bank, in the rows of requests that touch its address.
      if (const HazardMark m = MarkHazard(*session_, bv.block, req);
          m.group != nullptr && (rows[r].half < 0 || (m.lanes >> (rows[r].half * 16) & 0xffffu))) {
        const int b = static_cast<int>(m.address / 4 % static_cast<std::uint64_t>(banks));
        const ImVec2 a(o.x + label_w + static_cast<float>(b) * cell, y);
        dl->AddRect(a, ImVec2(a.x + cell - 1, a.y + row_h - 1), view::HazardColour(m.group->kind),
                    0.0f, 2.0f);
      }
      if (rows[r].request == cur_index && rows[r].half <= 0) {
        const float h = row_h * (banks16_ ? 2.0f : 1.0f);
        dl->AddRect(ImVec2(o.x + label_w - 2, y - 1),
                    ImVec2(o.x + label_w + static_cast<float>(banks) * cell + 1, y + h),
                    palette::Text(), 0.0f, 2.0f);
      }
    }
    const float total_h = font * 1.2f + static_cast<float>(rows.size()) * row_h;
    ImGui::InvisibleButton("##heatmap",
                           ImVec2(label_w + static_cast<float>(banks) * cell, total_h));
    if (ImGui::IsItemHovered()) {
      const ImVec2 m = ImGui::GetMousePos();
      const int r = static_cast<int>((m.y - top) / row_h);
      const int b = static_cast<int>((m.x - o.x - label_w) / cell);
      if (r >= 0 && r < static_cast<int>(rows.size()) && b >= 0 && b < banks) {
        const BlockRequest& req =
            bv.requests[static_cast<std::size_t>(rows[static_cast<std::size_t>(r)].request)];
        ImGui::SetTooltip("warp %u, iteration %u%s, bank %d: %u distinct word(s)\nclick to select",
                          req.warp, req.iteration,
                          rows[static_cast<std::size_t>(r)].half == 0   ? " (lanes 0-15)"
                          : rows[static_cast<std::size_t>(r)].half == 1 ? " (lanes 16-31)"
                                                                        : "",
                          b, rows[static_cast<std::size_t>(r)].words[static_cast<std::size_t>(b)]);
        if (ImGui::IsItemClicked()) {
          session_->SelectRequest(rows[static_cast<std::size_t>(r)].request);
          session_->step = -1;
        }
      }
    }
    ImGui::TextDisabled("colour: distinct words per bank (blue 1 = no conflict, yellow 32)");
    ImGui::TextDisabled("most in this block: %u", most);
  }

  void DrawWiring(const BlockRequest& req, bool load, int banks, const HazardMark& mark) {
    // 32 banks: as the hardware serves the width (8-byte accesses a half-warp, 16-byte a
    // quarter-warp at a time); the degree is the worst phase's.
    const SharedCost cost =
        ViewSharedCost(session_->run->main_launch(), session_->block_view(), req);
    const std::uint32_t source_lines =
        AsyncCopySourceLines(session_->run->main_launch(), session_->block_view(), req);
    const std::uint32_t degree = banks16_ ? HalfWarp16Degree(req.lanes) : cost.degree;
    const std::uint32_t wavefronts = banks16_ ? degree : cost.wavefronts;
    std::set<std::uint64_t> words;
    for (const LaneAccess& l : req.lanes) words.insert(l.address / 4);
    const bool broadcast = words.size() < req.lanes.size();
    ImGui::Text("warp %u, iteration %u, %zu lanes", req.warp, req.iteration, req.lanes.size());
    label_ = degree > 1 ? std::to_string(degree) + "-way conflict" : "no conflict";
    label_whole_ =
        view::BigText(2.2f, degree > 1 ? IM_COL32(240, 120, 90, 255) : IM_COL32(110, 200, 120, 255),
                      "%s", label_.c_str());
    // The width the hardware serves: the compiled instruction's where this request is one.
    const SiteInfo& at = session_->run->main_launch().sites[req.site];
    const std::uint32_t served =
        !at.async_copy && CompiledPlaceOf(at.compiled_width, req.lanes) == CompiledPlace::kRun
            ? at.compiled_width
            : (req.lanes.empty() ? 4u : req.lanes.front().size);
    if (!banks16_ && cost.ideal > 1)
      ImGui::TextWrapped("%u wavefronts, %u needed for %u-byte accesses (%s at a time)%s",
                         wavefronts, cost.ideal, served,
                         cost.lanes_per_phase == 8 ? "a quarter-warp" : "a half-warp",
                         broadcast ? "; lanes reading one word share it" : "");
    else
      ImGui::TextWrapped("%u wavefront%s%s", wavefronts, wavefronts == 1 ? "" : "s",
                         broadcast ? "; lanes reading one word share it (broadcast)" : "");
    // A site the compiled kernel serves wider (SiteInfo::compiled_width): which part of the
    // compiled instruction this request of the source is.
    const SiteInfo& site = at;
    if (!banks16_ && site.compiled_width != 0 && !site.async_copy) {
      const CompiledPlace place = CompiledPlaceOf(site.compiled_width, req.lanes);
      const std::string ins = CompiledInstruction(site);
      if (place == CompiledPlace::kRun)
        ImGui::TextWrapped(
            "As compiled: one %s, each lane reading %u bytes (this access and the "
            "next %u of its run), counted here",
            ins.c_str(), site.compiled_width, site.compiled_width / site.size - 1);
      else if (place == CompiledPlace::kPart)
        ImGui::TextWrapped(
            "As compiled: part of the %s at the run's first place (%u bytes "
            "before), no wavefront of its own",
            ins.c_str(), static_cast<unsigned>(req.lanes.front().address % site.compiled_width));
      else if (place == CompiledPlace::kMixed)
        ImGui::TextWrapped(
            "Its lanes lie at different places of %u-byte runs: not merged by the "
            "compiler (the %s at this line are another access's)",
            site.compiled_width, ins.c_str());
    }
    if (!banks16_ && source_lines > SharedRequestCost(req.lanes, load).wavefronts)
      ImGui::TextWrapped(
          "An asynchronous copy's write: its sources span %u global 128-byte lines, and an H200 "
          "writes them a line at a time (a wavefront each, more than the banks alone need)",
          source_lines);
    const int hazard_bank =
        mark.group != nullptr
            ? static_cast<int>(mark.address / 4 % static_cast<std::uint64_t>(banks))
            : -1;
    if (mark.group != nullptr) {
      ImGui::PushStyleColor(ImGuiCol_Text, view::HazardColour(mark.group->kind));
      ImGui::TextWrapped("Selected hazard (%s, line %u -> %u): byte %" PRIu64
                         " in bank %d, outlined with the lane%s touching it here",
                         ToString(mark.group->kind), mark.group->first_line,
                         mark.group->second_line, mark.address, hazard_bank,
                         (mark.lanes & (mark.lanes - 1)) != 0 ? "s" : "");
      ImGui::PopStyleColor();
    }
    const float font = ImGui::GetFontSize();
    const float width = ImGui::GetContentRegionAvail().x - font * 0.5f;
    const float height = std::max(font * 8.0f, ImGui::GetContentRegionAvail().y - font * 0.5f);
    const ImVec2 o = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(width, height));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float box_w = width / 32.0f, box_h = font * 1.3f;
    const float bank_y = o.y + height - box_h - font * 1.3f;
    // 16-bank model: the two half-warps each have their own 16 banks, drawn side by side.
    auto bank_x = [&](int half, int bank) {
      const int slot = banks16_ ? half * 16 + bank : bank;
      return o.x + (static_cast<float>(slot) + 0.5f) * box_w;
    };
    std::vector<std::uint32_t> per_bank[2] = {
        WordsPerBank(banks16_ ? Half(req.lanes, 0) : req.lanes, banks),
        banks16_ ? WordsPerBank(Half(req.lanes, 1), banks) : std::vector<std::uint32_t>{}};
    for (const LaneAccess& l : req.lanes) {
      const int half = banks16_ ? (l.lane < 16 ? 0 : 1) : 0;
      const int bank = static_cast<int>(l.address / 4 % static_cast<std::uint64_t>(banks));
      const float lx = o.x + (static_cast<float>(l.lane) + 0.5f) * box_w;
      const std::uint32_t w = per_bank[half][static_cast<std::size_t>(bank)];
      const bool hazard = (mark.lanes >> l.lane & 1u) != 0;
      dl->AddLine(ImVec2(lx, o.y + box_h), ImVec2(bank_x(half, bank), bank_y),
                  hazard  ? view::HazardColour(mark.group->kind)
                  : w > 1 ? IM_COL32(240, 120, 90, 200)
                          : palette::WarpU32(req.warp, 170),
                  hazard  ? 3.0f
                  : w > 1 ? 2.0f
                          : 1.2f);
    }
    for (int lane = 0; lane < 32; ++lane) {
      const ImVec2 a(o.x + static_cast<float>(lane) * box_w + 1, o.y);
      dl->AddRectFilled(a, ImVec2(a.x + box_w - 2, a.y + box_h), palette::WarpU32(req.warp));
      if (box_w > font * 1.1f) {
        char num[4];
        std::snprintf(num, sizeof num, "%d", lane);
        dl->AddText(ImVec2(a.x + 2, a.y), IM_COL32(0, 0, 0, 255), num);
      }
      if (mark.lanes >> lane & 1u)
        view::HazardOutline(dl, ImVec2(a.x - 1, a.y - 1), ImVec2(a.x + box_w - 1, a.y + box_h + 1),
                            mark.group->kind);
    }
    dl->AddText(ImVec2(o.x, o.y + box_h + 2), palette::TextDim(), "lanes");
    for (int slot = 0; slot < 32; ++slot) {
      const int half = banks16_ ? slot / 16 : 0, bank = banks16_ ? slot % 16 : slot;
      const std::uint32_t w = per_bank[half][static_cast<std::size_t>(bank)];
      const ImVec2 a(o.x + static_cast<float>(slot) * box_w + 1, bank_y);
      dl->AddRectFilled(a, ImVec2(a.x + box_w - 2, a.y + box_h),
                        w == 0 ? palette::Grid() : palette::Heat(view::DegreeHeat(w)));
      if (box_w > font * 1.1f) {
        char num[4];
        std::snprintf(num, sizeof num, "%d", bank);
        dl->AddText(ImVec2(a.x + 2, a.y), w == 0 ? palette::TextDim() : IM_COL32(0, 0, 0, 255),
                    num);
      }
      // 16-bank model: the bank in the half-warp(s) whose lanes touch the hazard's address.
      if (bank == hazard_bank && (!banks16_ || (mark.lanes >> (half * 16) & 0xffffu)))
        view::HazardOutline(dl, ImVec2(a.x - 1, a.y - 1), ImVec2(a.x + box_w - 1, a.y + box_h + 1),
                            mark.group->kind);
    }
    dl->AddText(ImVec2(o.x, bank_y + box_h + 2), palette::TextDim(),
                banks16_ ? "banks: lanes 0-15 | lanes 16-31 (each half-warp has all 16)"
                         : "banks (4-byte words; bank = word index mod 32)");
  }

  Session* session_;
  int banks16_ = 0;
  // What the last frame drew, for Shown().
  std::string label_;
  bool label_whole_ = false, stacked_ = false;
  float heat_cell_ = 0;
};

}  // namespace

std::unique_ptr<Panel> MakeBanksPanel(Session* session) {
  return std::make_unique<BanksPanel>(session);
}

}  // namespace ws
