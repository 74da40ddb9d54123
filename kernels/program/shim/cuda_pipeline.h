// Warpscope's stand-in for CUDA's <cuda_pipeline.h> when a program runs on the emulator: its
// primitives (ws_program_async.h); the header's experimental C++ pipeline class is not there
// (yet).
#pragma once
#include "ws_program_async.h"
