// 3D, layered and cubemap CUDA arrays as a program on the emulator sees them (part of
// ws_program.h, after ws_program_api.h): cudaMalloc3DArray and its flags, cudaMemcpy3D and the
// positions, pitched pointers and extents it takes. libws_program_emu implements them
// (emu_textures.cpp): an array is a row-major buffer of `depth` slices (layers, the six faces of
// a cubemap), read by tex3D, tex1DLayered/tex2DLayered and texCubemap(Layered).
#pragma once

#define cudaArrayDefault 0x00
#define cudaArrayLayered 0x01
#define cudaArraySurfaceLoadStore 0x02
#define cudaArrayCubemap 0x04
#define cudaArrayTextureGather 0x08

struct cudaPos {
  std::size_t x, y, z;
};
struct cudaMemcpy3DParms {
  cudaArray_t srcArray;
  cudaPos srcPos;
  cudaPitchedPtr srcPtr;
  cudaArray_t dstArray;
  cudaPos dstPos;
  cudaPitchedPtr dstPtr;
  cudaExtent extent;
  cudaMemcpyKind kind;
};
inline cudaPos make_cudaPos(std::size_t x, std::size_t y, std::size_t z) {
  return {x, y, z};
}
inline cudaPitchedPtr make_cudaPitchedPtr(void* d, std::size_t p, std::size_t xsz,
                                          std::size_t ysz) {
  return {d, p, xsz, ysz};
}
inline cudaExtent make_cudaExtent(std::size_t w, std::size_t h, std::size_t d) {
  return {w, h, d};
}

// `extent` in elements; a depth of 0 a 2D array. A cubemap's width and height are equal and its
// depth 6 (a layered cubemap: 6 a layer).
cudaError_t cudaMalloc3DArray(cudaArray_t* array, const cudaChannelFormatDesc* desc,
                              cudaExtent extent, unsigned int flags = 0);
// Between a pitched pointer and an array, or two of either: `extent` in elements where an array
// is one side, else its width in bytes (as CUDA takes it).
cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* p);
cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t stream = 0);
