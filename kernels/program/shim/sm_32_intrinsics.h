// Warpscope's stand-in for CUDA's <sm_32_intrinsics.h> when a program runs on the emulator.
#pragma once
#include "ws_program.h"
