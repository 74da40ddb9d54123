// Warpscope's stand-in for CUDA's <mma.h> when a program runs on the emulator: nvcuda::wmma
// (ws_program_wmma.h), each lane holding the elements it holds on an H200. On a GPU the
// toolkit's header is used.
#pragma once
#include "ws_program_wmma.h"
