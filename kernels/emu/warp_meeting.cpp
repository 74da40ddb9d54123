#include "emu/warp_meeting.h"

#include <cstring>

#include "warpscope/trace/ws_cuda_keys.h"

namespace ws::emu {

WarpMeeting MeetWarp(WarpOpKind kind, std::uint32_t group, const WarpLane (&lanes)[32]) {
  WarpMeeting m;
  if (kind == WarpOpKind::kMma) {  // the caller's work, once for the warp (WarpCallRun)
    std::uint64_t values[32] = {};
    for (std::uint32_t l = 0; l < 32; ++l) {
      m.source[l] = static_cast<std::uint8_t>(l);
      if (group >> l & 1u) values[l] = lanes[l].value;
    }
    if (group != 0) {
      const std::uint64_t lead = values[__builtin_ctz(group)];
      WarpCallRun run = nullptr;
      std::memcpy(&run, reinterpret_cast<const void*>(lead), sizeof run);
      run(values, group);
    }
    return m;
  }
  std::uint32_t votes = 0;
  for (std::uint32_t l = 0; l < 32; ++l) {
    m.source[l] = static_cast<std::uint8_t>(l);
    if ((group >> l & 1u) && lanes[l].value != 0) votes |= 1u << l;
  }
  for (std::uint32_t l = 0; l < 32; ++l) {
    if (!(group >> l & 1u)) continue;
    const WarpLane& lane = lanes[l];
    std::uint32_t src =
        ShuffleSourceLane(static_cast<std::uint32_t>(kind), l, lane.arg, lane.width);
    // A lane that does not take part has no value to give: the reader keeps its own.
    if (src >= 32 || !(group >> src & 1u)) src = l;
    m.source[l] = static_cast<std::uint8_t>(src);
    switch (kind) {
      case WarpOpKind::kShfl:
      case WarpOpKind::kShflUp:
      case WarpOpKind::kShflDown:
      case WarpOpKind::kShflXor:
        m.result[l] = lanes[src].value;
        break;
      case WarpOpKind::kBallot:
        m.result[l] = votes & lane.mask;
        break;
      case WarpOpKind::kAny:
        m.result[l] = votes != 0 ? 1 : 0;
        break;
      case WarpOpKind::kAll:
        m.result[l] = votes == group ? 1 : 0;
        break;
      case WarpOpKind::kActiveMask:
        m.result[l] = group;
        break;
      case WarpOpKind::kSyncWarp:
        m.result[l] = 0;
        break;
      case WarpOpKind::kReduce: {
        // arg: the operation (0 add, 1 min, 2 max, 3 and, 4 or, 5 xor), +8 for signed values.
        const int op = lane.arg & 7;
        const bool is_signed = (lane.arg & 8) != 0;
        std::uint64_t acc = 0;
        bool first = true;
        for (std::uint32_t k = 0; k < 32; ++k) {
          if (!(group >> k & 1u)) continue;
          const auto v = static_cast<std::uint32_t>(lanes[k].value);
          const auto a = static_cast<std::uint32_t>(acc);
          if (first) {
            acc = v;
            first = false;
          } else if (op == 0) {
            acc = static_cast<std::uint32_t>(a + v);
          } else if (op == 1 || op == 2) {
            const bool less =
                is_signed ? static_cast<std::int32_t>(v) < static_cast<std::int32_t>(a) : v < a;
            if ((op == 1) == less && v != a) acc = v;
          } else {
            acc = op == 3 ? (a & v) : op == 4 ? (a | v) : (a ^ v);
          }
        }
        m.result[l] = acc;
        break;
      }
      case WarpOpKind::kMatchAny:
      case WarpOpKind::kMatchAll: {
        std::uint32_t same = 0;
        for (std::uint32_t k = 0; k < 32; ++k) {
          if ((group >> k & 1u) && lanes[k].value == lane.value) same |= 1u << k;
        }
        m.result[l] = kind == WarpOpKind::kMatchAny ? same : (same == group ? group : 0);
        break;
      }
      case WarpOpKind::kMma:  // met above
        break;
    }
  }
  return m;
}

}  // namespace ws::emu
