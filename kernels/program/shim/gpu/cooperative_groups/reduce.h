// On a GPU, <cooperative_groups/reduce.h> is Warpscope's too (../cooperative_groups.h says why).
#pragma once
#include "../../cooperative_groups.h"
