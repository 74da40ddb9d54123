// Every kernel lesson's kernels built for the lane log alone (WS_LANE_LOG_BUILD,
// ws_cuda_lane_log.h), their registers capped (WARPSCOPE_LANE_MAXRREGCOUNT, 64: a 1,024-thread
// block fits): the recorded unit (lessons_cuda.cu) starts them for a pass with a lane log
// (WS_LAUNCH_OTHER_UNIT, cuda_backend_launch.h) unless LaneBuildFor (cuda_pass_units.h) gives the
// launch the wide unit's build (lessons_cuda_lane_wide.cu): wherever that one fits a block in no
// more waves.
#define WS_RECORD_BUILD 1
#define WS_LANE_LOG_BUILD 1
#define WS_PASS_UNIT LaneUnit
#define WS_PASS_UNIT_LINK LinkLaneUnit
#include "pass_unit_body.h"
