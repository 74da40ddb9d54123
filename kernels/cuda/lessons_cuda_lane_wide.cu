// Every kernel lesson's kernels built for the lane log alone (WS_LANE_LOG_BUILD,
// ws_cuda_lane_log.h), their registers uncapped (WARPSCOPE_LANE_WIDE_MAXRREGCOUNT): the build a
// pass with a lane log runs where a block of the launch fits this one's registers in no more
// waves than the capped lane unit's build (lessons_cuda_lane.cu), or where only this one fits
// (LaneBuildFor, cuda_pass_units.h).
#define WS_RECORD_BUILD 1
#define WS_LANE_LOG_BUILD 1
#define WS_PASS_UNIT LaneWideUnit
#define WS_PASS_UNIT_LINK LinkLaneWideUnit
#include "pass_unit_body.h"
