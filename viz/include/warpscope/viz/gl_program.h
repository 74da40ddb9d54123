// Small OpenGL helpers for the views: compile and link a GLSL program, with the driver's log in
// the Status on failure (shown to the user, never a crash).
#pragma once

#include <glad/gl.h>

#include <string_view>

#include "warpscope/trace/status.h"

namespace ws {

// Compiles `vertex` and `fragment` and links them. `name` appears in error messages.
Result<GLuint> BuildProgram(std::string_view name, std::string_view vertex,
                            std::string_view fragment);

// An offscreen colour target that a view renders into and ImGui then shows as an image.
class RenderTarget {
 public:
  RenderTarget() = default;
  RenderTarget(const RenderTarget&) = delete;
  RenderTarget& operator=(const RenderTarget&) = delete;
  ~RenderTarget();

  // (Re)allocates when the size changed. Returns false if the driver refused the framebuffer.
  bool Resize(int width, int height);
  void Bind() const;  // binds the framebuffer and sets the viewport to the whole target
  GLuint texture() const { return texture_; }
  int width() const { return width_; }
  int height() const { return height_; }

 private:
  void Release();
  GLuint fbo_ = 0, texture_ = 0;
  int width_ = 0, height_ = 0;
};

}  // namespace ws
