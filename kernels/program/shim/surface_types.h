// Warpscope's stand-in for CUDA's <surface_types.h> when a program runs on the emulator.
#pragma once
#include "ws_program.h"
