// The View menu's panels in order. The lesson panel runs kernels, so the app puts its own in the
// first slot; every other panel only reads the Session.
#include <imgui.h>

#include "warpscope/viz/source_panel.h"
#include "warpscope/viz/views.h"

namespace ws {
namespace {

class LessonSlot : public Panel {
 public:
  LessonSlot() : Panel("lesson", "Lesson & parameters") {}

 protected:
  void DrawContents() override {}
};

}  // namespace

std::vector<std::unique_ptr<Panel>> MakeViewPanels(Session* session) {
  std::vector<std::unique_ptr<Panel>> p;
  p.push_back(std::make_unique<LessonSlot>());
  p.push_back(std::make_unique<SourcePanel>(session));
  p.push_back(MakeGridPanel(session));
  p.push_back(MakeCoalescingPanel(session));
  p.push_back(MakeBanksPanel(session));
  p.push_back(MakeLayoutPanel(session));
  p.push_back(MakeKernelsPanel(session));  // with the big views: a program's table is wide
  p.push_back(MakeBarriersPanel(session));
  p.push_back(MakePipelinePanel(session));
  p.push_back(MakeFragmentsPanel(session));
  p.push_back(MakeClusterPanel(session));
  p.push_back(MakeShufflePanel(session));
  p.push_back(MakeTimingPanel(session));
  p.push_back(MakeOccupancyPanel(session));
  p.push_back(MakeLatencyPanel(session));
  p.push_back(MakeSumsPanel(session));
  p.push_back(MakeHazardsPanel(session));  // after timing: behind it in their shared node
  p.push_back(MakeScalabilityPanel(session));
  p.push_back(MakeTransfersPanel(session));
  p.push_back(MakeMultiGpuPanel(session));
  p.push_back(MakePlaybackPanel(session));
  p.push_back(MakeComparePanel(session));
  p.push_back(MakeGalleryPanel());
  return p;
}

}  // namespace ws
