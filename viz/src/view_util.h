// Small pieces the view panels share: picking a site of the right kind, the "updating..." badge
// shown while a newer run is under way, and big labels for the projector.
#pragma once

#include <imgui.h>

#include <functional>
#include <string>

#include "warpscope/trace/launch.h"
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

// The selected block's records were not kept: the lesson panel re-runs to keep them.
void NotKept(const BlockView& view);

// "updating..." after the last item while a newer run is under way.
void UpdatingBadge(const Session& session);

// An ImU32 colour (the palette's) as the ImVec4 that ImGui text and ImPlot specs take.
inline ImVec4 Colour(ImU32 c) {
  return ImGui::ColorConvertU32ToFloat4(c);
}

// Text at `scale` times the current font size (the conflict degree, the occupancy).
void BigText(float scale, ImU32 colour, const char* fmt, ...) IM_FMTARGS(3);

}  // namespace ws::view
