// The compare view: run A (pinned) beside the current run B, in one of the views (coalescing,
// banks, source, grid, barriers, timing), under the list of what differs in words and numbers
// (CompareRuns). A and B each have a session of their own, so selecting in one side leaves the
// other and the main views alone.
#include <imgui.h>

#include <array>

#include "warpscope/trace/run_compare.h"
#include "warpscope/viz/source_panel.h"
#include "warpscope/viz/views.h"

namespace ws {
namespace {

constexpr std::array<const char*, 6> kViews = {"coalescing", "banks",    "source",
                                               "grid",       "barriers", "timing"};

std::unique_ptr<Panel> MakeView(const std::string& id, Session* s) {
  if (id == "coalescing") return MakeCoalescingPanel(s);
  if (id == "banks") return MakeBanksPanel(s);
  if (id == "source") return std::make_unique<SourcePanel>(s);
  if (id == "grid") return MakeGridPanel(s);
  if (id == "barriers") return MakeBarriersPanel(s);
  return MakeTimingPanel(s);
}

// The site of `to` that matches `from`'s selected one: the same space and operation, the same
// place among the sites of that kind (transpose naive's store, line 17 -> padded's, line 57).
int MatchingSite(const LessonRun& from, int site, const LessonRun& to) {
  if (!from.has_launch() || !to.has_launch() || site < 0) return -1;
  const auto& fs = from.main_launch().sites;
  const auto& ts = to.main_launch().sites;
  if (site >= static_cast<int>(fs.size())) return -1;
  const SiteInfo& s = fs[static_cast<std::size_t>(site)];
  int nth = 0;
  for (int i = 0; i < site; ++i)
    nth += fs[static_cast<std::size_t>(i)].space == s.space &&
           fs[static_cast<std::size_t>(i)].op == s.op;
  for (std::size_t i = 0; i < ts.size(); ++i) {
    if (ts[i].space == s.space && ts[i].op == s.op && nth-- == 0) return static_cast<int>(i);
  }
  return -1;
}

class ComparePanel : public Panel {
 public:
  explicit ComparePanel(Session* s) : Panel("compare", "Compare A | B"), session_(s) {
    open = false;  // opened by "Pin as A", a lecture step, or the View menu
  }

 protected:
  void DrawContents() override {
    const LessonRun* b = session_->run.get();
    if (ImGui::Button("Pin the current run as A") && b != nullptr) session_->pinned = session_->run;
    ImGui::SetItemTooltip("Keep this run as A; change the variant or a slider for B");
    ImGui::SameLine();
    ImGui::BeginDisabled(session_->pinned == nullptr);
    if (ImGui::Button("Unpin")) session_->pinned.reset();
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
    view_ = 0;
    for (std::size_t i = 0; i < kViews.size(); ++i) {
      if (session_->compare_view == kViews[i]) view_ = i;
    }
    if (ImGui::BeginCombo("View", kViews[view_])) {
      for (std::size_t i = 0; i < kViews.size(); ++i) {
        if (ImGui::Selectable(kViews[i], i == view_)) session_->compare_view = kViews[view_ = i];
      }
      ImGui::EndCombo();
    }
    const LessonRun* a = session_->pinned.get();
    if (a == nullptr || b == nullptr) {
      ImGui::TextWrapped(
          "Pin a run as A, then change the variant or a parameter: A and the new run B are drawn "
          "side by side, and what differs is listed here (\"global stores: 32 \u2192 4 sectors "
          "per request\").");
      return;
    }
    Sync();
    ImGui::TextColored(ImVec4(0.9f, 0.62f, 0.0f, 1.0f), "A");
    ImGui::SameLine();
    ImGui::TextWrapped("%s", described_a_.c_str());
    ImGui::TextColored(ImVec4(0.34f, 0.7f, 0.91f, 1.0f), "B");
    ImGui::SameLine();
    ImGui::TextWrapped("%s", described_b_.c_str());
    if (differences_.empty()) ImGui::TextDisabled("No difference in the figures.");
    for (const std::string& d : differences_) ImGui::BulletText("%s", d.c_str());
    ImGui::Separator();
    if (views_a_[view_] == nullptr) {
      views_a_[view_] = MakeView(kViews[view_], &a_);
      views_b_[view_] = MakeView(kViews[view_], &b_);
    }
    const float w = (ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ItemSpacing.x) * 0.5f;
    if (ImGui::BeginChild("##A", ImVec2(w, 0), ImGuiChildFlags_Borders))
      views_a_[view_]->DrawBody();
    ImGui::EndChild();
    ImGui::SameLine();
    if (ImGui::BeginChild("##B", ImVec2(0, 0), ImGuiChildFlags_Borders))
      views_b_[view_]->DrawBody();
    ImGui::EndChild();
  }

 private:
  // Puts A and B into their own sessions when either changed, with B's selected site and the
  // matching site of A.
  void Sync() {
    const bool new_a = a_.run != session_->pinned, new_b = b_.run != session_->run;
    if (!new_a && !new_b && synced_site_ == session_->sel.site) return;
    synced_site_ = session_->sel.site;
    auto install = [&](Session& s, const std::shared_ptr<const LessonRun>& r) {
      BlockView v = r->has_launch() ? BuildBlockView(r->main_launch(), 0) : BlockView{};
      s.Install(r, std::move(v));
    };
    if (new_a) install(a_, session_->pinned);
    if (new_b) install(b_, session_->run);
    if (session_->sel.site >= 0) {
      b_.SelectSite(session_->sel.site);
      const int in_a = MatchingSite(*session_->run, session_->sel.site, *session_->pinned);
      if (in_a >= 0) a_.SelectSite(in_a);
    }
    differences_ = CompareRuns(*session_->pinned, *session_->run);
    described_a_ = DescribeRun(*session_->pinned);
    described_b_ = DescribeRun(*session_->run);
  }

  Session* session_;
  Session a_, b_;
  std::size_t view_ = 0;
  int synced_site_ = -2;
  std::array<std::unique_ptr<Panel>, kViews.size()> views_a_, views_b_;
  std::vector<std::string> differences_;
  std::string described_a_, described_b_;
};

}  // namespace

std::unique_ptr<Panel> MakeComparePanel(Session* session) {
  return std::make_unique<ComparePanel>(session);
}

}  // namespace ws
