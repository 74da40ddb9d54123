// Warpscope's stand-in for CUDA's <device_launch_parameters.h> when a program runs on the emulator.
#pragma once
#include "ws_program.h"
