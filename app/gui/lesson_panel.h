// The lesson panel: pick a lesson and a variant, drag its parameters (every change re-runs the
// lesson), read what to look for, choose the backend, and see the launch's summary. It is the
// one panel that runs kernels; the views only read the Session it fills.
#pragma once

#include <string>

#include "warpscope/kernels/devices.h"
#include "warpscope/kernels/lesson_api.h"
#include "warpscope/viz/panel.h"
#include "warpscope/viz/session.h"

namespace ws {

class LessonPanel : public Panel {
 public:
  LessonPanel(Session* session, const DeviceQuery& devices);

  // Selects a lesson (and variant, empty: its first) and runs it. Returns the run's error, if any.
  std::string Select(const std::string& lesson, const std::string& variant);
  void Rerun();

 protected:
  void DrawContents() override;

 private:
  Session* session_;
  bool have_gpu_;
  std::string gpu_name_;
  std::string lesson_, variant_;
  Params params_;
  bool use_gpu_ = false;
  double last_run_ms_ = 0;  // wall time of the last run, for the summary
};

}  // namespace ws
