#include "warpscope/viz/gl_program.h"

#include <string>

namespace ws {
namespace {

Result<GLuint> Compile(std::string_view name, GLenum stage, std::string_view text) {
  const GLuint shader = glCreateShader(stage);
  const char* src = text.data();
  const GLint len = static_cast<GLint>(text.size());
  glShaderSource(shader, 1, &src, &len);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok == GL_TRUE) return shader;
  GLint log_len = 0;
  glGetShaderiv(shader, GL_INFO_LOG_LENGTH, &log_len);
  std::string log(static_cast<std::size_t>(log_len > 1 ? log_len : 1), '\0');
  glGetShaderInfoLog(shader, log_len, nullptr, log.data());
  glDeleteShader(shader);
  return Status::Error(std::string(name) + (stage == GL_VERTEX_SHADER ? " vertex" : " fragment") +
                       " shader does not compile: " + log.c_str());
}

}  // namespace

Result<GLuint> BuildProgram(std::string_view name, std::string_view vertex,
                            std::string_view fragment) {
  auto vs = Compile(name, GL_VERTEX_SHADER, vertex);
  if (!vs) return vs.status();
  auto fs = Compile(name, GL_FRAGMENT_SHADER, fragment);
  if (!fs) {
    glDeleteShader(*vs);
    return fs.status();
  }
  const GLuint program = glCreateProgram();
  glAttachShader(program, *vs);
  glAttachShader(program, *fs);
  glLinkProgram(program);
  glDeleteShader(*vs);
  glDeleteShader(*fs);
  GLint ok = GL_FALSE;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (ok == GL_TRUE) return program;
  GLint log_len = 0;
  glGetProgramiv(program, GL_INFO_LOG_LENGTH, &log_len);
  std::string log(static_cast<std::size_t>(log_len > 1 ? log_len : 1), '\0');
  glGetProgramInfoLog(program, log_len, nullptr, log.data());
  glDeleteProgram(program);
  return Status::Error(std::string(name) + " program does not link: " + log.c_str());
}

RenderTarget::~RenderTarget() {
  Release();
}

void RenderTarget::Release() {
  if (fbo_ != 0) glDeleteFramebuffers(1, &fbo_);
  if (texture_ != 0) glDeleteTextures(1, &texture_);
  fbo_ = texture_ = 0;
  width_ = height_ = 0;
}

bool RenderTarget::Resize(int width, int height) {
  if (width == width_ && height == height_ && fbo_ != 0) return true;
  Release();
  if (width <= 0 || height <= 0) return false;
  glGenTextures(1, &texture_);
  glBindTexture(GL_TEXTURE_2D, texture_);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glGenFramebuffers(1, &fbo_);
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture_, 0);
  const bool complete = glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  if (!complete) {
    Release();
    return false;
  }
  width_ = width;
  height_ = height;
  return true;
}

void RenderTarget::Bind() const {
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
  glViewport(0, 0, width_, height_);
}

}  // namespace ws
