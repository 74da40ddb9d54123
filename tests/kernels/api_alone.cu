// Compiled by the test KernelApi.StandsAlone with nothing but kernels/api on the include path
// (host compiler and, where CUDA is built, nvcc): ws_cuda.h is the whole kernel-facing API.
#include "warpscope/kernels/ws_cuda.h"

using ws::Global;

__global__ void everyPart(Global<float> out, Global<const float> in, ws::Constant<float> c,
                          ws::Texture2D<float> image, Global<int> bins) {
  __shared__ ws::SharedArray<float, 8, 33> tile;
  ws::DynamicShared<float> extra;
  const int x = threadIdx.x, y = threadIdx.y;
  tile[y][x] = in[y * 32 + x] * c[0] + ws::tex2D(image, x, y);
  extra[x] = 1.0f;
  __syncthreads();
  atomicAdd(&bins[x % 4], 1);
  ws::work(1);
  float v = tile[x % 8][y] + extra[31 - x] + static_cast<float>(ws::smid() % 2);
  // The warp-level intrinsics, each of which the recorders see.
  v += __shfl_down_sync(0xffffffffu, v, 16) + __shfl_up_sync(0xffffffffu, v, 1) +
       __shfl_xor_sync(0xffffffffu, v, 2) + __shfl_sync(0xffffffffu, v, 0, 8);
  const unsigned votes = __ballot_sync(0xffffffffu, v > 0.0f);
  if (__any_sync(0xffffffffu, votes != 0) && __all_sync(0xffffffffu, x >= 0)) __syncwarp();
  out[y * 32 + x] = v;
}
