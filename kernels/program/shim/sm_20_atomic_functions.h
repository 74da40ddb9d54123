// Warpscope's stand-in for CUDA's <sm_20_atomic_functions.h> when a program runs on the emulator.
#pragma once
#include "ws_program.h"
