// The Optimizing CUDA slides' multi-GPU example: a 3D finite-difference stencil, 8th order in
// space, split along z. One time step on one GPU's slab: a point's new value weighs itself and
// its 4 neighbours on each side along x, y and z, so the slab's lowest and highest 4 planes
// need 4 planes that another GPU computes: the ghost planes, exchanged every step.
#pragma once
// Plain CUDA, as the slides print it. The build turns the pointer parameters into Warpscope's
// recording types, line for line (program/rewrite/lesson_form.cpp).

// The weights: powers of two, so that every sum of small whole numbers stays exact in float and
// the GPUs' result equals one GPU's to the bit, whatever the order.
static __device__ float weight(int r) {
  return r == 0 ? 0.5f : r == 1 ? 0.125f : r == 2 ? 0.0625f : r == 3 ? 0.03125f : 0.015625f;
}

// in and out hold the slab's planes plus 4 ghost planes below and above: planes + 8 planes of
// nx x ny points. Thread (x, y) walks the slab's own planes; the 4 points nearest each x and y
// border stay as they are.
__global__ void stencil3d(float* out, const float* in, int nx, int ny, int planes) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 4 || y < 4 || x >= nx - 4 || y >= ny - 4) return;
  int plane = nx * ny;
  for (int z = 4; z < planes + 4; ++z) {
    int i = z * plane + y * nx + x;
    float v = weight(0) * in[i];
    for (int r = 1; r <= 4; ++r) {
      v += weight(r) * (in[i - r] + in[i + r] + in[i - r * nx] + in[i + r * nx] +
                        in[i - r * plane] + in[i + r * plane]);
    }
    out[i] = v;
  }
}
