// Small pieces the view panels share: picking a site of the right kind, the "updating..." badge
// shown while a newer run is under way, and big labels for the projector.
#pragma once

#include <imgui.h>

#include <functional>
#include <string>

#include "warpscope/trace/hazards.h"
#include "warpscope/trace/launch.h"
#include "warpscope/viz/panel.h"
#include "warpscope/viz/session.h"

namespace ws::view {

using SitePredicate = std::function<bool(const SiteInfo&)>;

inline bool IsGlobalLike(const SiteInfo& s) {
  return s.space != MemorySpace::kShared;
}
inline bool IsShared(const SiteInfo& s) {
  return s.space == MemorySpace::kShared;
}

// "line 18 load idata (4 B)": how the views name a site.
std::string SiteLabel(const LaunchTrace& t, int site);

// The site a view shows: the selected one if it fits `pred`, else the one that fits with the
// highest `score` (the last on ties; without a score, the first; -1: none fits).
int ViewSite(const LaunchTrace& t, int selected, const SitePredicate& pred,
             const std::function<double(const SiteStats&)>& score = nullptr);

// Heat-ramp position of a bank conflict degree: 1-way low (but visible), 32-way at the top.
float DegreeHeat(std::uint32_t words);

// A combo of the sites that fit `pred`; picking one selects it in every view.
void SiteCombo(Session* session, const LaunchTrace& t, int shown, const SitePredicate& pred);

// When the session has no run with a kernel launch: says what the view shows (`what`) and why it
// is empty, and returns true (the caller returns).
bool NoLaunch(const Session& session, const char* what);

// The selected block's records were not kept: the lesson panel re-runs to keep them (a trace
// cannot: it says which blocks it holds).
std::string NotKeptText(const Session& session, std::uint32_t block);
void NotKept(const Session& session, const BlockView& view);

// "updating..." after the last item while a newer run is under way.
void UpdatingBadge(const Session& session);

// An ImU32 colour (the palette's) as the ImVec4 that ImGui text and ImPlot specs take.
inline ImVec4 Colour(ImU32 c) {
  return ImGui::ColorConvertU32ToFloat4(c);
}

// A hazard kind's colour: RAW the conflict red, WAR amber, WAW violet, same-value WAW grey.
ImU32 HazardColour(HazardKind k);
// A box around what a selected hazard touches: the kind's colour over a dark edge, so it reads
// on any warp colour.
void HazardOutline(ImDrawList* dl, ImVec2 a, ImVec2 b, HazardKind k);

// Text at `scale` times the current font size (the conflict degree, the occupancy), smaller (down
// to the body size) where the view is too narrow for it. True when it lies whole inside the
// window's visible area.
bool BigText(float scale, ImU32 colour, const char* fmt, ...) IM_FMTARGS(3);

// A box of a timeline (a block on its SM, a copy on its stream) in plot pixels: filled, outlined
// when there is room, `label` centred when it fits. Returns true when the mouse is over it in a
// hovered plot (the caller shows a tooltip).
bool TimelineBox(ImDrawList* dl, ImVec2 a, ImVec2 z, ImU32 fill, const char* label,
                 ImU32 outline = IM_COL32(0, 0, 0, 110), float thickness = 1.0f);

// A view of one kind of figures (the block schedule, the float sums...): shows `hint` until a run
// with figures of type T is on, reloads once per new run, then draws. Figures of that kind that a
// trace file held but could not be read (a field missing or out of range) are named, not drawn.
template <typename T>
class FiguresPanel : public Panel {
 public:
  FiguresPanel(std::string id, std::string title, Session* session, std::string hint)
      : Panel(std::move(id), std::move(title)), session_(session), hint_(std::move(hint)) {}

 protected:
  void DrawContents() final {
    const LessonRun* run = session_->run.get();
    const T* f = run != nullptr ? run->figures_as<T>() : nullptr;
    if (f == nullptr) {
      const auto* unread =
          run != nullptr ? dynamic_cast<const UnreadFigures*>(run->figures.get()) : nullptr;
      if (unread != nullptr && unread->kind() == T::kKind)
        ImGui::TextWrapped("This run's figures cannot be drawn: %s", unread->why().c_str());
      else
        ImGui::TextWrapped("%s", hint_.c_str());
      return;
    }
    if (!loaded_ || session_->generation != seen_) {
      seen_ = session_->generation;
      loaded_ = true;
      Load(*run, *f);
    }
    DrawFigures(*run, *f);
  }
  // Once per run: derive what drawing needs (plot arrays) into members.
  virtual void Load(const LessonRun& run, const T& f) = 0;
  virtual void DrawFigures(const LessonRun& run, const T& f) = 0;
  Session* session_;

 private:
  std::string hint_;
  std::uint64_t seen_ = 0;
  bool loaded_ = false;
};

}  // namespace ws::view
