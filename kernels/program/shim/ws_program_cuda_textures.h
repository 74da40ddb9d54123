// The texture fetches of a program's device code on a GPU (part of ws_program_cuda.h, which
// includes it): each takes its site as a last argument, as the rewriter writes it.
#pragma once

// Texture fetches take their site as a last argument (program_rewrite.cpp); on a GPU the fetch is
// the hardware's and is not recorded (the texels' addresses of a CUDA array are the driver's).
template <typename T>
__device__ inline T tex1Dfetch(cudaTextureObject_t t, int x, unsigned int) {
  return tex1Dfetch<T>(t, x);
}
template <typename T>
__device__ inline T tex1D(cudaTextureObject_t t, float x, unsigned int) {
  return tex1D<T>(t, x);
}
template <typename T>
__device__ inline T tex2D(cudaTextureObject_t t, float x, float y, unsigned int) {
  return tex2D<T>(t, x, y);
}
template <typename T>
__device__ inline T tex3D(cudaTextureObject_t t, float x, float y, float z, unsigned int) {
  return tex3D<T>(t, x, y, z);
}
template <typename T>
__device__ inline T tex1DLayered(cudaTextureObject_t t, float x, int l, unsigned int) {
  return tex1DLayered<T>(t, x, l);
}
template <typename T>
__device__ inline T tex2DLayered(cudaTextureObject_t t, float x, float y, int l, unsigned int) {
  return tex2DLayered<T>(t, x, y, l);
}
template <typename T>
__device__ inline T texCubemap(cudaTextureObject_t t, float x, float y, float z, unsigned int) {
  return texCubemap<T>(t, x, y, z);
}
template <typename T>
__device__ inline T texCubemapLayered(cudaTextureObject_t t, float x, float y, float z, int l,
                                      unsigned int) {
  return texCubemapLayered<T>(t, x, y, z, l);
}
