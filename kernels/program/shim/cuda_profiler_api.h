// Warpscope's stand-in for CUDA's <cuda_profiler_api.h> when a program runs on the emulator.
#pragma once
#include "ws_program.h"
