#include "gui/frame_capture.h"

#include <glad/gl.h>
#include <imgui.h>
#include <imgui_impl_opengl3.h>

#include "warpscope/viz/gl_program.h"

namespace ws {

Image ReadPixels(int fb_width, int fb_height, PixelRect rect) {
  // Clip to the framebuffer, then convert the top-left rect into GL's bottom-left coordinates.
  const int x0 = std::max(rect.x, 0), y0 = std::max(rect.y, 0);
  const int x1 = std::min(rect.x + rect.width, fb_width),
            y1 = std::min(rect.y + rect.height, fb_height);
  if (x1 <= x0 || y1 <= y0) return {};
  Image img(x1 - x0, y1 - y0);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadPixels(x0, fb_height - y1, img.width(), img.height(), GL_RGBA, GL_UNSIGNED_BYTE,
               img.data());
  img.FlipRows();
  // The window is opaque; ImGui's blending leaves arbitrary alpha in the back buffer.
  for (std::size_t i = 3; i < img.byte_size(); i += 4) img.data()[i] = 255;
  return img;
}

Image RenderOffscreen(ImDrawData* draw_data) {
  const int w = static_cast<int>(draw_data->DisplaySize.x * draw_data->FramebufferScale.x + 0.5f);
  const int h = static_cast<int>(draw_data->DisplaySize.y * draw_data->FramebufferScale.y + 0.5f);
  RenderTarget target;
  if (!target.Resize(w, h)) return {};
  target.Bind();
  const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
  glClearColor(bg.x, bg.y, bg.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
  ImGui_ImplOpenGL3_RenderDrawData(draw_data);
  Image img = ReadPixels(w, h, {0, 0, w, h});
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  return img;
}

}  // namespace ws
