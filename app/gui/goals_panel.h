// The Goals panel (`warpscope --assignment FILE`): the assignment's task and each goal with its
// figure in the run now, met or not; clicking a goal selects its site in every view. Saving the
// program runs it again (the lesson panel watches the file) and the goals follow. When all are
// met it says so, and the report (an HTML page of the goals and their figures) can be exported.
#pragma once

#include <future>
#include <memory>
#include <optional>
#include <string>

#include "core/assignment.h"
#include "warpscope/viz/panel.h"
#include "warpscope/viz/session.h"

namespace ws {

class GoalsPanel : public Panel {
 public:
  GoalsPanel(Session* session, Assignment assignment);

  // Per goal: "goal_N" met | not met | skipped, "value_N" its figure; "all_met"; "title".
  State Shown() const override;

 protected:
  void DrawContents() override;

 private:
  void Refresh();
  void DrawGoals();
  void SelectGoalSite(const GoalResult& g);
  std::string ExportReport();  // the HTML report's path, or "" (then why in note_)

  Session* session_;
  Assignment assignment_;
  std::future<LessonRun> start_future_;  // the starting program's run, for relative goals
  std::optional<LessonRun> start_;
  std::uint64_t generation_ = ~0ull;
  std::optional<Verdict> verdict_;
  std::string note_;
};

}  // namespace ws
