#include "warpscope/viz/panel.h"

#include <imgui.h>
#include <imgui_internal.h>

namespace ws {

Panel::Panel(std::string id, std::string title)
    : id_(std::move(id)), title_(std::move(title)), window_name_(title_ + "###" + id_) {}

Panel::~Panel() = default;

bool Panel::Draw() {
  rect_.visible = false;
  if (!open) return false;
  bool export_clicked = false;
  if (focus_requested_) {
    ImGui::SetNextWindowFocus();
    focus_requested_ = false;
  }
  BeforeBegin();
  // Docked, the window's background is the frame's clear colour (the app clears to WindowBg):
  // drawn transparent it costs no fill, which with software OpenGL is most of a frame's time.
  // A floating window keeps its own background.
  if (docked_) ImGui::PushStyleColor(ImGuiCol_WindowBg, ImVec4(0, 0, 0, 0));
  const bool shown =
      ImGui::Begin(window_name_.c_str(), &open, ImGuiWindowFlags_MenuBar | extra_window_flags_);
  if (docked_) ImGui::PopStyleColor();
  docked_ = ImGui::IsWindowDocked();
  if (shown) {
    // A docked window's own rect starts below its dock node's tab bar: export the node instead.
    const ImGuiWindow* window = ImGui::GetCurrentWindow();
    const ImRect r = (window->DockIsActive && window->DockNode != nullptr)
                         ? window->DockNode->Rect()
                         : window->Rect();
    rect_ = {r.Min.x, r.Min.y, r.GetWidth(), r.GetHeight(), true};
    if (ImGui::BeginMenuBar()) {
      if (ImGui::MenuItem("Export PNG")) export_clicked = true;
      ImGui::SetItemTooltip("Save just this panel as a PNG (View > Export at 2x for print)");
      ImGui::EndMenuBar();
    }
    DrawContents();
  }
  ImGui::End();
  return export_clicked;
}

}  // namespace ws
