// A 3x3 box blur of a width x height image, read from global memory or through the texture
// unit (the memory-model slides: texture memory is cached per SM and suits 2D locality).
#pragma once
// Plain CUDA, as the slides print it: the texture is a texture object (point sampling,
// coordinates clamped to the edge, unnormalized: tex2D<float>(t, x, y) is texel (x, y)). The
// build turns the declarations into Warpscope's recording types, line for line
// (program/rewrite/lesson_form.cpp); each fetch is recorded at the address the lesson's layout
// gives its texel (row-major, Morton or tiled), which a GPU keeps to itself.

// static: this header is compiled into two GPU builds (recorded and plain) of one program.
static __device__ int clampTo(int v, int lo, int hi) {
  return v < lo ? lo : (v > hi ? hi : v);
}

// global: the image row-major in global memory. A warp of a 16-wide block covers 16 x 2 pixels,
// so each of its loads touches two rows: two runs of 64 bytes.
__global__ void blurGlobal(float* out, const float* in, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float sum = 0;
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      sum += in[clampTo(y + dy, 0, height - 1) * width + clampTo(x + dx, 0, width - 1)];
    }
  }
  out[y * width + x] = sum / 9.0f;
}

// texture: the same blur through tex2D, which clamps at the edges by itself. Where the texels
// lie in memory depends on the layout: a 2D footprint stays compact under Morton or tiles.
__global__ void blurTexture(float* out, cudaTextureObject_t image, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= width || y >= height) return;
  float sum = 0;
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      sum += tex2D<float>(image, x + dx, y + dy);
    }
  }
  out[y * width + x] = sum / 9.0f;
}

// rotate: the image turned a quarter turn clockwise. Output pixel (x, y) of the height x width
// result is input pixel (y, height - 1 - x), so a warp of a 16-wide block, 16 x 2 in the
// output, reads a 2 x 16 strip of the input: down two columns.
__global__ void rotateGlobal(float* out, const float* in, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;  // 0 .. height - 1
  int y = blockIdx.y * blockDim.y + threadIdx.y;  // 0 .. width - 1
  if (x >= height || y >= width) return;
  out[y * height + x] = in[(height - 1 - x) * width + y];
}

__global__ void rotateTexture(float* out, cudaTextureObject_t image, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= height || y >= width) return;
  out[y * height + x] = tex2D<float>(image, y, height - 1 - x);
}

// row-sums: thread y adds up row y. At each step the 32 threads of a warp read one pixel from
// each of 32 rows: a column, 32 rows apart in row-major memory, and every sector they touch
// holds the next pixels of those rows, wanted again at the next steps if the cache keeps it.
__global__ void rowSumsGlobal(float* out, const float* in, int width, int height) {
  int y = blockIdx.x * blockDim.x + threadIdx.x;
  if (y >= height) return;
  float sum = 0;
  for (int x = 0; x < width; ++x) sum += in[y * width + x];
  out[y] = sum;
}

__global__ void rowSumsTexture(float* out, cudaTextureObject_t image, int width, int height) {
  int y = blockIdx.x * blockDim.x + threadIdx.x;
  if (y >= height) return;
  float sum = 0;
  for (int x = 0; x < width; ++x) sum += tex2D<float>(image, x, y);
  out[y] = sum;
}
