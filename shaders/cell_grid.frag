#version 330 core
// Draws a grid of cells (one per GPU thread) from a data texture: one texel per cell holds the
// cell's colour. Thin lines separate cells when they are big enough to see; thicker lines
// separate blocks. Per-cell geometry would not keep the frame rate under software GL with 1M
// threads; one texture and one triangle does (see ARCHITECTURE.md, "Drawing big grids").
in vec2 v_uv;
out vec4 frag_colour;

uniform sampler2D u_cells;     // GL_NEAREST, one texel per cell
uniform ivec2 u_grid;          // cells across and down
uniform ivec2 u_block;         // cells per block, across and down
uniform vec2 u_target_px;      // size of the target in pixels
uniform vec4 u_cell_line;      // colour of the lines between cells
uniform vec4 u_block_line;     // colour of the lines between blocks
uniform vec4 u_view;           // the visible part of the grid in cells: x0, y0, x1, y1 (zoom)

float EdgeDistancePx(vec2 pos_units, vec2 px_per_unit) {
  vec2 f = fract(pos_units) * px_per_unit;
  vec2 d = min(f, px_per_unit - f);
  return min(d.x, d.y);
}

void main() {
  vec2 cell_f = mix(u_view.xy, u_view.zw, v_uv);
  ivec2 cell = clamp(ivec2(floor(cell_f)), ivec2(0), u_grid - ivec2(1));
  vec4 colour = texelFetch(u_cells, cell, 0);

  vec2 px_per_cell = u_target_px / (u_view.zw - u_view.xy);
  if (min(px_per_cell.x, px_per_cell.y) >= 5.0 && EdgeDistancePx(cell_f, px_per_cell) < 0.75) {
    colour = mix(colour, u_cell_line, u_cell_line.a);
  }
  vec2 px_per_block = px_per_cell * vec2(u_block);
  if (EdgeDistancePx(cell_f / vec2(u_block), px_per_block) < 1.25) {
    colour = vec4(u_block_line.rgb, 1.0);
  }
  frag_colour = vec4(colour.rgb, 1.0);
}
