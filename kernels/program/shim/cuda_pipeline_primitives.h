// Warpscope's stand-in for CUDA's <cuda_pipeline_primitives.h> when a program runs on the
// emulator: asynchronous copies into shared memory (ws_program_async.h).
#pragma once
#include "ws_program_async.h"
