// Warpscope's stand-in for CUDA's <cuda_device_runtime_api.h> when a program runs on the emulator.
#pragma once
#include "ws_program.h"
