// The app's window: GLFW with an OpenGL 3.3 core context, loaded through glad. Creation fails
// with one clear sentence (no display; OpenGL too old, naming the version the display offers)
// instead of a crash.
#pragma once

#include <memory>
#include <string>

#include "warpscope/trace/status.h"

struct GLFWwindow;

namespace ws {

struct GlInfo {
  std::string version;   // GL_VERSION
  std::string renderer;  // GL_RENDERER
};

class GlWindow {
 public:
  static Result<std::unique_ptr<GlWindow>> Create(int width, int height, const std::string& title);
  ~GlWindow();
  GlWindow(const GlWindow&) = delete;
  GlWindow& operator=(const GlWindow&) = delete;

  GLFWwindow* handle() const { return window_; }
  const GlInfo& gl() const { return gl_; }

 private:
  GlWindow() = default;
  GLFWwindow* window_ = nullptr;
  GlInfo gl_;
};

}  // namespace ws
