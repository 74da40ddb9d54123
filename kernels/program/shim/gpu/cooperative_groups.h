// On a GPU, a program's <cooperative_groups.h> is Warpscope's (../cooperative_groups.h) over the
// recorded intrinsics of ws_program_cuda.h, which nvcc force-includes first: the toolkit's header
// syncs and shuffles with the hardware's own, which the recorder does not see (a tile's or a
// block's sync missing from the records pairs accesses the program orders: false hazards).
#pragma once
#include "../cooperative_groups.h"
