// Every kernel lesson's kernels built for the lane log alone (WS_LANE_LOG_BUILD,
// ws_cuda_lane_log.h), their registers uncapped (WARPSCOPE_LANE_WIDE_MAXRREGCOUNT): the build a
// pass with a lane log runs where a block of the launch fits its registers (LaneBuildFor,
// cuda_pass_units.h), else the capped lane unit's (lessons_cuda_lane.cu).
#define WS_RECORD_BUILD 1
#define WS_LANE_LOG_BUILD 1
#define WS_PASS_UNIT LaneWideUnit
#define WS_PASS_UNIT_LINK LinkLaneWideUnit
#include "pass_unit_body.h"
