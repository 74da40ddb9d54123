// Every kernel lesson's kernels built for the hazard check alone, as the hazard unit's
// (lessons_cuda_hazard.cu), with registers capped at 32 (kernels/cuda/CMakeLists.txt): a launch's
// hazard pass runs this build where it fits more blocks an SM and spills little (RunHazardLean,
// cuda_pass_units.h).
#define WS_HAZARD_BUILD 1
#define WS_PASS_UNIT HazardLeanUnit
#define WS_PASS_UNIT_LINK LinkHazardLeanUnit
#include "pass_unit_body.h"
