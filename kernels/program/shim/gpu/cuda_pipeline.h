// <cuda_pipeline.h> on the GPU backend: the toolkit's, with the primitives' recorded copies.
#pragma once

#include_next <cuda_pipeline.h>

#include "cuda_pipeline_primitives.h"
