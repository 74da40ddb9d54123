// The view panels, one factory each (one .cpp file each in viz/src). MakeViewPanels (panel.h)
// puts them in the View menu's order.
#pragma once

#include <memory>

#include "warpscope/viz/panel.h"
#include "warpscope/viz/session.h"

namespace ws {

std::unique_ptr<Panel> MakeGridPanel(Session* session);         // "grid"
std::unique_ptr<Panel> MakeCoalescingPanel(Session* session);   // "coalescing"
std::unique_ptr<Panel> MakeBanksPanel(Session* session);        // "banks"
std::unique_ptr<Panel> MakeLayoutPanel(Session* session);       // "layout"
std::unique_ptr<Panel> MakeBarriersPanel(Session* session);     // "barriers"
std::unique_ptr<Panel> MakePipelinePanel(Session* session);     // "pipeline"
std::unique_ptr<Panel> MakeFragmentsPanel(Session* session);    // "fragments"
std::unique_ptr<Panel> MakeClusterPanel(Session* session);      // "cluster"
std::unique_ptr<Panel> MakeHazardsPanel(Session* session);      // "hazards"
std::unique_ptr<Panel> MakeKernelsPanel(Session* session);      // "kernels"
std::unique_ptr<Panel> MakeTimingPanel(Session* session);       // "timing"
std::unique_ptr<Panel> MakeOccupancyPanel(Session* session);    // "occupancy"
std::unique_ptr<Panel> MakePlaybackPanel(Session* session);     // "playback"
std::unique_ptr<Panel> MakeLatencyPanel(Session* session);      // "latency"
std::unique_ptr<Panel> MakeSumsPanel(Session* session);         // "sums"
std::unique_ptr<Panel> MakeScalabilityPanel(Session* session);  // "sms"
std::unique_ptr<Panel> MakeTransfersPanel(Session* session);    // "transfers"
std::unique_ptr<Panel> MakeMultiGpuPanel(Session* session);     // "multigpu"
std::unique_ptr<Panel> MakeShufflePanel(Session* session);      // "shuffles"
// "compare": a pinned run A beside the current run B in one view, and what differs.
std::unique_ptr<Panel> MakeComparePanel(Session* session);
// "gallery": every view from small runs built in code; hidden until opened (its own sessions).
std::unique_ptr<Panel> MakeGalleryPanel();

}  // namespace ws
