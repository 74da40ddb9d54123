// Presentation mode (warpscope --lecture FILE): walks a lecture's steps, one key each. A step
// runs its lesson (and, to compare, run A first, pinned), lays out its panels, selects what it
// names, and shows its title and caption in a bar over the views; its speaker note in a window
// of its own (N). Sliders still work for improvising; R restores the step.
#pragma once

#include <string>

#include "core/lecture.h"

namespace ws {

class Ui;

class LecturePlayer {
 public:
  LecturePlayer(Lecture lecture, Ui* ui);

  // Starts step `index` (clamped to the lecture).
  void Go(int index);
  // Keys (not while typing): Right, PageDown, Space next; Left, PageUp, Backspace previous;
  // Home, End; R restores the step; N shows or hides the speaker note.
  void HandleKeys();
  // Each frame before Ui::Draw: carries the step on once its runs are in.
  void Update();
  // The bar over the views (Ui calls it before the dock space) and the note window.
  void DrawBar();
  void DrawNote();

  int step() const { return index_; }
  const Lecture& lecture() const { return lecture_; }
  // The step's runs are in (or failed) and its selection is made.
  bool ready() const { return phase_ == Phase::kReady; }
  // Why the step's run failed ("" when it did not).
  const std::string& error() const { return error_; }
  // The panels the step shows, the first the largest (its own, else the lesson's view and the
  // source).
  std::vector<std::string> Panels() const;
  // The last frame's bar held its caption (or error) whole.
  bool bar_whole() const { return bar_whole_; }
  bool show_note = false;

 private:
  enum class Phase { kRunA, kRunB, kReady };
  void StartB();
  void ApplySelection();
  const std::string& StepWhatIf() const;  // the step's what-if ("": none)

  Lecture lecture_;
  Ui* ui_;
  int index_ = 0;
  Phase phase_ = Phase::kReady;
  std::string error_;
  bool bar_whole_ = true;
};

}  // namespace ws
