// The Kernels view: every kernel of the run, one row each over all its launches, slowest first
// (trace/kernel_table.h): its time (modeled on the emulator, measured on a GPU), global sectors
// per request against the ideal, shared wavefronts against the ideal with the worst conflict, and
// races. Each row's worst figure is marked; a click shows the kernel's launch in every view.
#include <imgui.h>

#include <cstdio>
#include <string>

#include "view_util.h"
#include "warpscope/trace/kernel_table.h"
#include "warpscope/trace/units.h"
#include "warpscope/viz/palette.h"
#include "warpscope/viz/views.h"

namespace ws {
namespace {

class KernelsPanel : public Panel {
 public:
  explicit KernelsPanel(Session* session) : Panel("kernels", "Kernels"), session_(session) {}

  State Shown() const override {
    State s = {{"kernels", std::to_string(rows_.size())}, {"note", note_}};
    for (std::size_t i = 0; i < rows_.size(); ++i) {
      const std::string k = "row" + std::to_string(i);
      s.emplace_back(k, rows_[i].kernel);
      s.emplace_back(k + ".launches", std::to_string(rows_[i].launches));
      s.emplace_back(k + ".worst", rows_[i].worst);
      s.emplace_back(k + ".drawn_from",
                     rows_[i].has_records ? std::to_string(rows_[i].first_with_records + 1) : "");
    }
    return s;
  }

 protected:
  void DrawContents() override {
    if (view::NoLaunch(*session_,
                       "Every kernel the run launched, slowest first: its time, sectors per "
                       "request, bank conflicts and races over all its launches."))
      return;
    Refresh();
    view::UpdatingBadge(*session_);
    ImGui::TextWrapped("%s", note_.c_str());
    ImGui::SetItemTooltip("%s", model_.c_str());
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH |
                                  ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollY |
                                  ImGuiTableFlags_ScrollX;
    if (!ImGui::BeginTable("##kernels", 7, flags, ImVec2(0, ImGui::GetContentRegionAvail().y)))
      return;
    ImGui::TableSetupScrollFreeze(1, 1);
    ImGui::TableSetupColumn("kernel");
    ImGui::TableSetupColumn("launches");
    ImGui::TableSetupColumn("time");
    ImGui::TableSetupColumn("sectors/req (ideal)");
    ImGui::TableSetupColumn("shared wavefronts");
    ImGui::TableSetupColumn("races");
    ImGui::TableSetupColumn("drawn from");
    ImGui::TableHeadersRow();
    const std::size_t shown = session_->run->main_launch_index();
    const ImU32 worst_bg = (palette::WarpU32(4) & 0x00FFFFFFu) | 0x50000000u;
    for (std::size_t i = 0; i < rows_.size(); ++i) {
      const KernelRow& r = rows_[i];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::PushID(static_cast<int>(i));
      const bool selected = session_->run->launches[shown].kernel == r.kernel;
      if (ImGui::Selectable(r.kernel.c_str(), selected, ImGuiSelectableFlags_SpanAllColumns) &&
          r.has_records)
        session_->show_launch = static_cast<int>(r.first_with_records);
      ImGui::SetItemTooltip("%s", r.has_records ? "click: show its launch in every view"
                                                : "none of its launches kept block records");
      ImGui::PopID();
      ImGui::TableNextColumn();
      ImGui::Text("%zu", r.launches);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(FormatDuration(r.ms).c_str());
      ImGui::SetItemTooltip("%s over %zu launch%s; DRAM %s, shared memory %s%s%s",
                            r.time_kind.c_str(), r.launches, r.launches == 1 ? "" : "es",
                            FormatDuration(r.dram_ms).c_str(), FormatDuration(r.shared_ms).c_str(),
                            r.overhead_ms > 0 ? "; launch overhead apart: " : "",
                            r.overhead_ms > 0 ? FormatDuration(r.overhead_ms).c_str() : "");
      ImGui::TableNextColumn();
      if (r.worst == "sectors") ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, worst_bg);
      if (r.global_requests > 0)
        ImGui::Text("%.2f (%.2f)", r.SectorsPerRequest(), r.IdealSectorsPerRequest());
      else
        ImGui::TextDisabled("-");
      ImGui::TableNextColumn();
      if (r.worst == "banks") ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, worst_bg);
      if (r.shared_requests > 0) {
        ImGui::Text("%s, %u-way", FormatNumber(double(r.wavefronts)).c_str(), r.worst_bank_degree);
        ImGui::SetItemTooltip(
            "%s wavefronts for %s requests: %s needed, %s bank conflicts; the "
            "worst request %u-way",
            FormatNumber(double(r.wavefronts)).c_str(),
            FormatNumber(double(r.shared_requests)).c_str(),
            FormatNumber(double(r.ideal_wavefronts)).c_str(),
            FormatNumber(double(r.bank_conflicts())).c_str(), r.worst_bank_degree);
      } else {
        ImGui::TextDisabled("-");
      }
      ImGui::TableNextColumn();
      if (r.worst == "hazards") ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, worst_bg);
      ImGui::TextUnformatted(FormatNumber(static_cast<double>(r.hazards)).c_str());
      ImGui::TableNextColumn();
      if (r.has_records)
        ImGui::Text("%zu", r.first_with_records + 1);
      else
        ImGui::TextDisabled("no records");
    }
    ImGui::EndTable();
  }

 private:
  void Refresh() {
    if (generation_ == session_->generation) return;
    generation_ = session_->generation;
    const LessonRun& run = *session_->run;
    auto preset = FindDevicePreset(PresetOf(run));
    const DevicePreset p = preset.ok() ? *preset : DevicePreset{};
    rows_ = KernelTable(run, p);
    const bool measured = !rows_.empty() && rows_.front().time_kind == "measured";
    note_ = std::to_string(rows_.size()) + (rows_.size() == 1 ? " kernel, " : " kernels, ") +
            std::to_string(run.launches.size()) +
            (run.launches.size() == 1 ? " launch" : " launches") + ", slowest first; times " +
            (measured ? "measured on the GPU." : "modeled on " + p.name + " (hover).") +
            " Shaded: the row's worst figure. Drawn from: the launch its views show.";
    model_ = measured ? "CUPTI's kernel times in the program's run as written (no recording)"
                      : "Times " + ModelNote(p) +
                            ". The overhead of the launches is in each row's tooltip.";
  }

  Session* session_;
  std::uint64_t generation_ = ~0ull;
  std::vector<KernelRow> rows_;
  std::string note_, model_;
};

}  // namespace

std::unique_ptr<Panel> MakeKernelsPanel(Session* session) {
  return std::make_unique<KernelsPanel>(session);
}

}  // namespace ws
