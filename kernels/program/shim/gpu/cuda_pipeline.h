// <cuda_pipeline.h> on the GPU backend: the toolkit's, with the primitives' recorded copies.
#pragma once

#include_next <cuda_pipeline.h>
#include "ws_toolkit_begin.h"  // the intrinsics the toolkit's own
#include "ws_toolkit_end.h"

#include "cuda_pipeline_primitives.h"
