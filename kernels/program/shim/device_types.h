// Warpscope's stand-in for CUDA's <device_types.h> when a program runs on the emulator.
#pragma once
#include "ws_program.h"
