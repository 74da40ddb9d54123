#include "gui/lecture_mode.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>

#include "gui/ui.h"
#include "warpscope/kernels/catalog.h"

namespace ws {

LecturePlayer::LecturePlayer(Lecture lecture, Ui* ui) : lecture_(std::move(lecture)), ui_(ui) {}

std::vector<std::string> LecturePlayer::Panels() const {
  const LectureStep& s = lecture_.steps[static_cast<std::size_t>(index_)];
  if (!s.panels.empty()) return s.panels;
  if (s.compare.on || !s.what_if.empty()) return {"compare"};
  const LessonInfo* info = FindLesson(s.lesson);
  std::vector<std::string> panels;
  if (info != nullptr && !info->front_panel.empty())
    panels.push_back(info->front_panel);
  else
    panels.push_back("grid");
  if (info == nullptr || info->runs_kernel()) panels.push_back("source");
  return panels;
}

void LecturePlayer::Go(int index) {
  index_ = std::clamp(index, 0, static_cast<int>(lecture_.steps.size()) - 1);
  const LectureStep& s = lecture_.steps[static_cast<std::size_t>(index_)];
  error_.clear();
  Session& session = ui_->session();
  session.pinned.reset();
  session.SetWhatIf("");
  session.what_if = s.what_if;  // applied to the step's run as it is installed
  session.compare_view = s.compare.view.empty() ? "coalescing" : s.compare.view;
  std::string arrangement = s.arrangement;
  ui_->SetLectureLayout(Panels(), arrangement);
  ui_->SetSchedule(s.schedule);
  if (s.compare.on) {
    Params a = s.params;
    for (const auto& [k, v] : s.compare.params) a[k] = v;
    error_ = ui_->SelectLesson(s.lesson, s.compare.variant.empty() ? s.variant : s.compare.variant,
                               a, s.backend);
    phase_ = Phase::kRunA;
    if (!error_.empty()) phase_ = Phase::kReady;
    return;
  }
  StartB();
}

void LecturePlayer::StartB() {
  const LectureStep& s = lecture_.steps[static_cast<std::size_t>(index_)];
  if (!s.trace.empty()) {
    error_ = ui_->OpenTrace(s.trace.string());
  } else if (!s.program.empty()) {
    error_ = ui_->OpenProgram(s.program.string());
    for (const auto& [name, value] : s.params) {
      if (!error_.empty()) break;
      error_ = ui_->SetParam(name, value);
    }
  } else {
    error_ = ui_->SelectLesson(s.lesson, s.variant, s.params, s.backend);
  }
  phase_ = error_.empty() ? Phase::kRunB : Phase::kReady;
}

void LecturePlayer::Update() {
  Session& session = ui_->session();
  if (phase_ == Phase::kReady || session.running) return;
  if (!session.error.empty()) {
    error_ = session.error;
    phase_ = Phase::kReady;
    return;
  }
  if (phase_ == Phase::kRunA) {
    session.pinned = session.run;
    StartB();
    return;
  }
  if (!StepWhatIf().empty()) {
    // A what-if step: the run as written (A) beside the what-if (B), in the view of its array.
    if (!session.what_if_error.empty()) error_ = session.what_if_error;
    if (session.written) {
      session.pinned = session.written;
      auto w = ParseWhatIf(session.what_if, *session.written);
      session.compare_view =
          w.ok() && w->array.space == MemorySpace::kGlobal ? "coalescing" : "banks";
    }
  }
  ApplySelection();
  phase_ = Phase::kReady;
}

// The step's `select`: a block, the site on a source line (the first there, or the first of
// its operation), then the n-th request of that site (of the warp, if one is named).
const std::string& LecturePlayer::StepWhatIf() const {
  return lecture_.steps[static_cast<std::size_t>(index_)].what_if;
}

void LecturePlayer::ApplySelection() {
  const LectureSelection& sel = lecture_.steps[static_cast<std::size_t>(index_)].select;
  Session& session = ui_->session();
  const LessonRun* run = session.run.get();
  if (run == nullptr || !run->has_launch()) return;
  const LaunchTrace& t = run->main_launch();
  if (sel.block >= 0 && static_cast<std::uint64_t>(sel.block) < t.grid.count())
    session.sel.block = static_cast<std::uint32_t>(sel.block);
  if (sel.warp >= 0) session.sel.warp = sel.warp;
  int site = -1;
  for (std::size_t i = 0; i < t.sites.size() && sel.line > 0; ++i) {
    const SiteInfo& s = t.sites[i];
    if (static_cast<int>(s.line) != sel.line) continue;
    if (!s.file.empty() && s.file != run->source_file()) continue;
    if (!sel.op.empty() && sel.op != ToString(s.op)) continue;
    site = static_cast<int>(i);
    break;
  }
  if (site >= 0) session.SelectSite(site);
  if (sel.request >= 0 || sel.warp >= 0) {
    const BlockView& v = session.block_view();
    int n = std::max(0, sel.request);
    for (std::size_t i = 0; i < v.requests.size(); ++i) {
      const BlockRequest& r = v.requests[i];
      if (site >= 0 && r.site != site) continue;
      if (sel.warp >= 0 && static_cast<int>(r.warp) != sel.warp) continue;
      if (n-- == 0) {
        session.SelectRequest(static_cast<int>(i));
        break;
      }
    }
  }
  // A hazard past the run's last row is left unselected (the run decides how many there are);
  // a step that names none lets go of the last step's.
  session.SelectHazard(sel.hazard - 1, sel.hazard_side);
}

void LecturePlayer::HandleKeys() {
  if (ImGui::GetIO().WantTextInput) return;
  const int n = static_cast<int>(lecture_.steps.size());
  auto pressed = [](ImGuiKey k) { return ImGui::IsKeyPressed(k, false); };
  if ((pressed(ImGuiKey_RightArrow) && !ImGui::GetIO().KeyCtrl) || pressed(ImGuiKey_PageDown) ||
      pressed(ImGuiKey_Space)) {
    if (index_ + 1 < n) Go(index_ + 1);
  }
  if ((pressed(ImGuiKey_LeftArrow) && !ImGui::GetIO().KeyCtrl) || pressed(ImGuiKey_PageUp) ||
      pressed(ImGuiKey_Backspace)) {
    if (index_ > 0) Go(index_ - 1);
  }
  if (pressed(ImGuiKey_Home)) Go(0);
  if (pressed(ImGuiKey_End)) Go(n - 1);
  if (pressed(ImGuiKey_R)) Go(index_);
  if (pressed(ImGuiKey_N)) show_note = !show_note;
}

void LecturePlayer::DrawBar() {
  const LectureStep& s = lecture_.steps[static_cast<std::size_t>(index_)];
  ImGuiViewport* vp = ImGui::GetMainViewport();
  const float line = ImGui::GetTextLineHeightWithSpacing();
  const ImVec2 pad = ImGui::GetStyle().WindowPadding;
  // As tall as the caption (or the error) needs, wrapped to the window: on a small screen at a
  // large UI scale a caption takes several lines and none of it is cut.
  const std::string& below = !error_.empty() ? error_ : s.caption;
  const float wrapped =
      below.empty()
          ? 0.0f
          : ImGui::CalcTextSize(below.c_str(), nullptr, false, vp->WorkSize.x - pad.x * 2).y;
  const float height = line * 1.3f + wrapped + pad.y * 2;
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoSavedSettings |
                                 ImGuiWindowFlags_NoDecoration;
  if (ImGui::BeginViewportSideBar("##lecture", vp, ImGuiDir_Up, height, flags)) {
    ImGui::TextDisabled("%d / %zu", index_ + 1, lecture_.steps.size());
    ImGui::SameLine();
    ImGui::TextUnformatted(s.title.c_str());
    // The keys on the title's row where there is room after it.
    const char* keys = "\u2190 \u2192 step   R restore   N note";
    const float keys_x = ImGui::GetWindowWidth() - ImGui::CalcTextSize(keys).x - pad.x * 2;
    if (ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + ImGui::GetFontSize() < keys_x) {
      ImGui::SameLine(keys_x);
      ImGui::TextDisabled("%s", keys);
    }
    if (!error_.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
      ImGui::TextWrapped("%s", error_.c_str());
      ImGui::PopStyleColor();
    } else if (!s.caption.empty()) {
      ImGui::TextWrapped("%s", s.caption.c_str());
    }
    bar_whole_ = ImGui::GetItemRectMax().y <= ImGui::GetWindowPos().y + ImGui::GetWindowHeight();
  }
  ImGui::End();
}

void LecturePlayer::DrawNote() {
  if (!show_note) return;
  const LectureStep& s = lecture_.steps[static_cast<std::size_t>(index_)];
  ImGui::SetNextWindowSize(ImVec2(ImGui::GetFontSize() * 26, ImGui::GetFontSize() * 12),
                           ImGuiCond_FirstUseEver);
  if (ImGui::Begin("Speaker note###note", &show_note, ImGuiWindowFlags_NoDocking)) {
    ImGui::TextDisabled("Step %d / %zu: %s", index_ + 1, lecture_.steps.size(), s.title.c_str());
    ImGui::Separator();
    ImGui::TextWrapped("%s", s.note.empty() ? "(no note for this step)" : s.note.c_str());
    if (index_ + 1 < static_cast<int>(lecture_.steps.size()))
      ImGui::TextDisabled("Next: %s",
                          lecture_.steps[static_cast<std::size_t>(index_ + 1)].title.c_str());
  }
  ImGui::End();
}

}  // namespace ws
