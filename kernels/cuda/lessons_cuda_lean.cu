// Every kernel lesson's kernels built to record, as the recorded unit's (lessons_cuda.cu), with
// registers capped at 32 (kernels/cuda/CMakeLists.txt): the recorded unit runs them where they
// fit more blocks an SM without much spilling (RunLean, cuda_pass_units.h).
// Each kernel works out its warp's tally state once at its entry (WS_WARP_STATE_BUILD,
// ws_cuda_tally.h), where the other recording builds work it out again at every request, and
// keeps the roads a tallied warp seldom takes out of line (WS_OUT_OF_LINE_ROADS,
// ws_cuda_device.h's RecordGeneralOutOfLine and ws_cuda_barrier.h's WrittenBarrier): inlined,
// their registers were spills on every request under the cap (the transposes' 48 bytes of local
// memory are 32 out of line, the tiled matmuls' 80 are 48). A store comes before its record here
// (ws_cuda_arrays.h, detail::Stored: WS_WARP_STATE_BUILD), so that the value stored is not held
// across the record's code (the transposes: 24 bytes of stack and 4 of spill stores, where 32 and
// 24 before).
#define WS_RECORD_BUILD 1
#define WS_WARP_STATE_BUILD 1
#define WS_OUT_OF_LINE_ROADS 1
#define WS_PASS_UNIT LeanUnit
#define WS_PASS_UNIT_LINK LinkLeanUnit
#include "pass_unit_body.h"
