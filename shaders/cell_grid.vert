#version 330 core
// One triangle that covers the whole target; no vertex buffer (gl_VertexID picks the corner).
// v_uv runs 0..1 with (0,0) at the top-left, like the launch's thread grid.
out vec2 v_uv;
void main() {
  vec2 corner = vec2((gl_VertexID << 1) & 2, gl_VertexID & 2);
  v_uv = vec2(corner.x, corner.y);
  gl_Position = vec4(corner.x * 2.0 - 1.0, 1.0 - corner.y * 2.0, 0.0, 1.0);
}
