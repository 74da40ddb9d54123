// Warpscope's stand-in for CUDA's <crt/host_defines.h> when a program runs on the emulator.
#pragma once
#include "../ws_program.h"
