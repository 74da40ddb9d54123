// Warpscope's stand-in for CUDA's <channel_descriptor.h> when a program runs on the emulator.
#pragma once
#include "ws_program.h"
