// <cuda_pipeline.h> on the GPU backend: the toolkit's, with the primitives' recorded copies.
#pragma once

// The toolkit's header between these two (their order matters).
// clang-format off
#include "ws_toolkit_begin.h"
#include_next <cuda_pipeline.h>
#include "ws_toolkit_end.h"
// clang-format on

#include "cuda_pipeline_primitives.h"
