// The texture layouts (row-major, Z-order, tiled) the analyses and views use. They are defined
// with the kernel API (warpscope/trace/ws_cuda_layout.h), because kernels compute texture
// addresses with them and that API must stand alone.
#pragma once

#include "warpscope/trace/ws_cuda_layout.h"
