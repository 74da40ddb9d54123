#include "gui/lesson_exercises.h"

#include <imgui.h>

#include "warpscope/trace/units.h"
#include "warpscope/viz/palette.h"

namespace ws {

int DrawExerciseButtons(const LessonInfo& info, int chosen) {
  if (info.presets.empty()) return -1;
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Exercises:");
  int clicked = -1;
  for (std::size_t i = 0; i < info.presets.size(); ++i) {
    const Preset& p = info.presets[i];
    // Wrap onto the next line when the button would not fit.
    const float w = ImGui::CalcTextSize(p.name.c_str()).x + ImGui::GetStyle().FramePadding.x * 2;
    if (ImGui::GetContentRegionAvail().x > w + ImGui::GetStyle().ItemSpacing.x) ImGui::SameLine();
    const bool on = static_cast<int>(i) == chosen;
    if (on) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
    ImGui::PushID(static_cast<int>(i));
    if (ImGui::Button(p.name.c_str())) clicked = static_cast<int>(i);
    ImGui::PopID();
    if (on) ImGui::PopStyleColor();
    ImGui::SetItemTooltip("%s", p.question.c_str());
  }
  return clicked;
}

void DrawExercise(const LessonInfo& info, const Preset& preset, const LessonRun* run) {
  ImGui::Separator();
  ImGui::TextWrapped("%s", preset.question.c_str());
  if (run != nullptr) {
    const nlohmann::json& figures = run->metrics();
    for (const std::string& key : preset.answer_figures) {
      FigureSpec spec{key, key, ""};
      for (const FigureSpec& s : info.figures) {
        if (s.key == key) spec = s;
      }
      if (std::string line = FormatFigure(spec, figures); !line.empty())
        ImGui::BulletText("This run: %s", line.c_str());
    }
  }
  ImGui::PushStyleColor(ImGuiCol_Text, palette::TextDim());
  ImGui::TextWrapped("Answer: %s", preset.answer.c_str());
  ImGui::PopStyleColor();
  ImGui::Separator();
}

}  // namespace ws
