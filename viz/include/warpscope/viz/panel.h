// A panel is one docked view (grid, coalescing, banks, ...). Each has a stable id (used by
// `warpscope --panel ID`, the layout file and exports), a title, and its own "Export PNG" in its
// menu bar. Panels draw; they never run kernels.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ws {

// Where a panel was drawn in the last frame, in ImGui's logical pixels, including its title or
// tab bar. `visible` is false when the panel is closed or hidden behind another tab.
struct PanelRect {
  float x = 0, y = 0, width = 0, height = 0;
  bool visible = false;
};

class Panel {
 public:
  Panel(std::string id, std::string title);
  virtual ~Panel();

  const std::string& id() const { return id_; }
  const std::string& title() const { return title_; }
  // "Title###id": the ImGui window name; the id part keeps the docking stable if titles change.
  const std::string& window_name() const { return window_name_; }

  bool open = true;

  // Makes the panel visible and focused on its next Draw (selects its tab if docked).
  void RequestFocus() {
    open = true;
    focus_requested_ = true;
  }

  // Draws the panel's window. Returns true when the user clicked its "Export PNG".
  bool Draw();
  // Draws only the contents, into the current window (the view gallery's exhibits).
  void DrawBody() { DrawContents(); }
  const PanelRect& rect() const { return rect_; }

  // What the panel shows, as named values, for tests that check a view's state rather than its
  // pixels (as imgui_test_engine reads a window's state): written by `warpscope --layout-json`
  // under "panels" -> id -> "state". Numbers are written as text, exactly ("50", "0.5").
  using State = std::vector<std::pair<std::string, std::string>>;
  virtual State Shown() const { return {}; }

 protected:
  virtual void DrawContents() = 0;
  // Called before the window begins: a panel may set its next window's size or place.
  virtual void BeforeBegin() {}
  int extra_window_flags_ = 0;  // ImGuiWindowFlags added to the panel's window

 private:
  std::string id_, title_, window_name_;
  PanelRect rect_;
  bool focus_requested_ = false;
  bool docked_ = false;  // in the last frame: its background is left to the clear colour
};

// The views, in the order the View menu lists them. With no run yet, each says what it will show
// (the grid view draws a preview from the launch's geometry).
struct Session;
std::vector<std::unique_ptr<Panel>> MakeViewPanels(Session* session);

}  // namespace ws
