// The device panel: the GPUs cudaGetDeviceProperties reports (pick the one lessons run on when
// there are several), or why there is none; and, for a trace, the GPU it was captured on.
#pragma once

#include "gui/lesson_panel.h"
#include "warpscope/kernels/devices.h"
#include "warpscope/viz/panel.h"
#include "warpscope/viz/session.h"

namespace ws {

class DevicePanel : public Panel {
 public:
  DevicePanel(Session* session, const DeviceQuery& devices, LessonPanel* lessons);

 public:
  State Shown() const override;

 protected:
  void DrawContents() override;

 private:
  Session* session_;
  const DeviceQuery& devices_;
  LessonPanel* lessons_;
};

}  // namespace ws
