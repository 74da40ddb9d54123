// Walking a whole lecture without a person at the keys: the tests' walk (every step, by the
// same Right key a teacher presses) and the lecture-notes export (warpscope --lecture FILE
// --export DIR): each step's panels as PNG at 2x, SVG for the figures with data behind them,
// and index.md / index.html with the titles, captions and figures. The same lecture gives
// byte-identical files.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "gui/frame_capture.h"
#include "gui/lecture_mode.h"
#include "warpscope/trace/status.h"

namespace ws {

class Ui;

class LectureWalk {
 public:
  // `export_dir` empty: walk only (record what each step showed).
  LectureWalk(LecturePlayer* player, Ui* ui, std::filesystem::path export_dir);

  // Before the frame: the key to press now to go to the next step (ImGuiKey_None if none).
  int KeyToPress();
  // After Ui::Draw (the panels' places are known): the PNGs to save from this frame.
  std::vector<ExportRequest> AfterDraw();
  bool done() const { return done_; }
  // Writes index.md and index.html (export) and, when `json` is set, what each step showed.
  Status Finish(const std::filesystem::path& json);
  bool failed() const { return failed_; }

 private:
  struct StepRecord {
    int index = 0;
    std::string title, caption, lesson, variant, error, described;
    std::vector<std::string> panels_visible;
    std::vector<std::string> differences;
    std::vector<std::pair<std::string, std::string>> figures;  // (file, what it shows)
  };
  void Record();
  Status WriteSvgs(StepRecord* r);

  LecturePlayer* player_;
  Ui* ui_;
  std::filesystem::path dir_;
  int settle_ = 0;  // frames since the step was ready
  int wait_ = 0;    // frames since the step started (a step that never gets ready ends)
  int last_step_ = -1;
  bool recorded_ = false, done_ = false, failed_ = false;
  std::vector<StepRecord> records_;
  // Every run the walk saw, per lesson: the timing figure's points.
  std::map<std::string, std::vector<std::pair<std::string, const LessonRun*>>> timings_;
  std::vector<std::shared_ptr<const LessonRun>> kept_runs_;
};

}  // namespace ws
