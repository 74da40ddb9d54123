// The kernel source view (see source_panel.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "warpscope/viz/panel.h"
#include "warpscope/viz/session.h"

struct ImFont;

namespace ws {

// The monospace font for code (the app loads it; null: the default font).
void SetCodeFont(ImFont* font);
ImFont* CodeFont();

class SourcePanel : public Panel {
 public:
  explicit SourcePanel(Session* session);

 protected:
  void DrawContents() override;

 private:
  struct LineFigures;  // a line's figures, badges and sites (source_panel.cpp)
  void DrawCompileErrors();
  void PickProgramFile(const LessonRun& run, std::string& source_file, std::string& source);
  void ScrollToLine(bool selected_here, bool is_site, int selected_line);
  void DrawCodeLine(std::uint32_t line, const std::string& text, LineFigures& figures,
                    const HazardGroup* chosen, int selected_line, const SiteInfo* selected_site);
  Session* session_;
  std::uint64_t scrolled_generation_ = ~0ull;
  int scrolled_site_ = -2;           // the selected site the view last brought into view
  float scrolled_size_[2] = {0, 0};  // the code view's size when it last scrolled
  std::size_t scrolled_errors_ = ~std::size_t{0};  // the failing text the view last scrolled to
  // A program of several files: the one shown ("" = the program's own), and the selected site
  // whose file it last followed.
  std::string shown_file_;
  int followed_site_ = -2;
  std::uint64_t followed_generation_ = ~0ull;
};

}  // namespace ws
