// Every kernel lesson's kernels built for the hazard check alone (WS_HAZARD_BUILD): the recorded
// unit (lessons_cuda.cu) starts them for its hazard passes (cuda_pass_units.h).
#define WS_HAZARD_BUILD 1
#define WS_PASS_UNIT HazardUnit
#define WS_PASS_UNIT_LINK LinkHazardUnit
#include "pass_unit_body.h"
