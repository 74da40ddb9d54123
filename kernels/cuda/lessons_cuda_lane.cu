// Every kernel lesson's kernels built for the lane log alone (WS_LANE_LOG_BUILD,
// ws_cuda_lane_log.h): the recorded unit (lessons_cuda.cu) starts them for a pass with a lane
// log (WS_LAUNCH_OTHER_UNIT, cuda_backend_launch.h), its registers capped as its own.
#define WS_RECORD_BUILD 1
#define WS_LANE_LOG_BUILD 1
#define WS_PASS_UNIT LaneUnit
#define WS_PASS_UNIT_LINK LinkLaneUnit
#include "pass_unit_body.h"
