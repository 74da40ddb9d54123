// Warpscope's stand-in for CUDA's <math_functions.h> when a program runs on the emulator.
#pragma once
#include "ws_program.h"
