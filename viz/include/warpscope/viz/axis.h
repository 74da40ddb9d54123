// Axis labelling shared by the views, with no ImGui (the panels pass measured text widths).
#pragma once

namespace ws {

// The step between labels of an axis of cells `cell` wide whose widest label is `label` wide:
// the least of 1, 2, 4, 8, ... that leaves each label its width and `gap` more, so that
// neighbouring labels never run together ("0 4 8 1216202428" was 32 banks in 300 pixels).
inline int AxisLabelStep(float cell, float label, float gap) {
  int step = 1;
  while (step < (1 << 20) && static_cast<float>(step) * cell < label + gap) step *= 2;
  return step;
}

}  // namespace ws
