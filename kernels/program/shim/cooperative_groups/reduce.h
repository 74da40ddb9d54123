// Warpscope's stand-in for CUDA's <cooperative_groups/reduce.h> when a program runs on the
// emulator: what it declares is in ../cooperative_groups.h.
#pragma once
#include "../cooperative_groups.h"
