#include "warpscope/viz/cell_grid.h"

#include "warpscope/shaders.h"

namespace ws {

CellGridRenderer::~CellGridRenderer() {
  if (program_ != 0) glDeleteProgram(program_);
  if (vao_ != 0) glDeleteVertexArrays(1, &vao_);
  if (cells_texture_ != 0) glDeleteTextures(1, &cells_texture_);
}

Status CellGridRenderer::Init() {
  if (program_ != 0) return {};
  auto program = BuildProgram("cell_grid", shaders::kCellGridVert, shaders::kCellGridFrag);
  if (!program) return program.status();
  program_ = *program;
  glGenVertexArrays(1, &vao_);  // core profile: a draw needs a bound VAO even with no attributes
  glGenTextures(1, &cells_texture_);
  glBindTexture(GL_TEXTURE_2D, cells_texture_);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  return {};
}

void CellGridRenderer::SetCells(int cells_x, int cells_y, int block_x, int block_y,
                                const std::vector<Rgba>& colours) {
  if (cells_texture_ == 0 || cells_x <= 0 || cells_y <= 0 ||
      colours.size() != static_cast<std::size_t>(cells_x) * cells_y) {
    cells_x_ = cells_y_ = 0;
    return;
  }
  cells_x_ = cells_x;
  cells_y_ = cells_y;
  block_x_ = block_x > 0 ? block_x : 1;
  block_y_ = block_y > 0 ? block_y : 1;
  glBindTexture(GL_TEXTURE_2D, cells_texture_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, cells_x, cells_y, 0, GL_RGBA, GL_UNSIGNED_BYTE,
               colours.data());
}

GLuint CellGridRenderer::Render(int width, int height) {
  return Render(width, height, 0.0f, 0.0f, static_cast<float>(cells_x_),
                static_cast<float>(cells_y_));
}

GLuint CellGridRenderer::Render(int width, int height, float x0, float y0, float x1, float y1) {
  if (program_ == 0 || cells_x_ == 0 || !target_.Resize(width, height)) return 0;
  GLint last_fbo = 0, last_viewport[4];
  glGetIntegerv(GL_FRAMEBUFFER_BINDING, &last_fbo);
  glGetIntegerv(GL_VIEWPORT, last_viewport);
  target_.Bind();
  glDisable(GL_BLEND);
  glDisable(GL_SCISSOR_TEST);
  glUseProgram(program_);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, cells_texture_);
  glUniform1i(glGetUniformLocation(program_, "u_cells"), 0);
  glUniform2i(glGetUniformLocation(program_, "u_grid"), cells_x_, cells_y_);
  glUniform2i(glGetUniformLocation(program_, "u_block"), block_x_, block_y_);
  glUniform2f(glGetUniformLocation(program_, "u_target_px"), static_cast<float>(width),
              static_cast<float>(height));
  glUniform4f(glGetUniformLocation(program_, "u_cell_line"), 0.08f, 0.08f, 0.1f, 0.35f);
  glUniform4f(glGetUniformLocation(program_, "u_block_line"), 0.95f, 0.95f, 0.95f, 1.0f);
  glUniform4f(glGetUniformLocation(program_, "u_view"), x0, y0, x1, y1);
  glBindVertexArray(vao_);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
  glUseProgram(0);
  glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(last_fbo));
  glViewport(last_viewport[0], last_viewport[1], last_viewport[2], last_viewport[3]);
  return target_.texture();
}

}  // namespace ws
