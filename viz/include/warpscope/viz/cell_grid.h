// Draws a 2D grid of cells (one per GPU thread, grouped in blocks) from a data texture with the
// cell_grid shaders. The caller fills one colour per cell; the renderer draws cell and block
// borders and hands back a texture for ImGui::Image.
#pragma once

#include <vector>

#include "warpscope/viz/gl_program.h"
#include "warpscope/viz/image.h"

namespace ws {

class CellGridRenderer {
 public:
  CellGridRenderer() = default;
  CellGridRenderer(const CellGridRenderer&) = delete;
  CellGridRenderer& operator=(const CellGridRenderer&) = delete;
  ~CellGridRenderer();

  // Compiles the shaders (once). The Status carries the GL driver's log if they fail.
  Status Init();
  // One colour per cell, row by row: colours.size() == cells_x * cells_y.
  void SetCells(int cells_x, int cells_y, int block_x, int block_y,
                const std::vector<Rgba>& colours);
  // Renders at `width`×`height` pixels the cells in [x0, x1) x [y0, y1) (fractions allowed: the
  // zoomed view); the default is the whole grid. Returns the texture (0 if nothing to draw).
  GLuint Render(int width, int height);
  GLuint Render(int width, int height, float x0, float y0, float x1, float y1);

 private:
  GLuint program_ = 0, vao_ = 0, cells_texture_ = 0;
  int cells_x_ = 0, cells_y_ = 0, block_x_ = 1, block_y_ = 1;
  RenderTarget target_;
};

}  // namespace ws
