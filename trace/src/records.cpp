#include "warpscope/trace/records.h"

#include "warpscope/trace/ws_cuda_keys.h"

namespace ws {

const char* ToString(MemorySpace s) {
  switch (s) {
    case MemorySpace::kGlobal:
      return "global";
    case MemorySpace::kShared:
      return "shared";
    case MemorySpace::kConstant:
      return "constant";
    case MemorySpace::kTexture:
      return "texture";
    case MemorySpace::kLocal:
      return "local";
  }
  return "?";
}

const char* ToString(AccessOp op) {
  switch (op) {
    case AccessOp::kLoad:
      return "load";
    case AccessOp::kStore:
      return "store";
    case AccessOp::kAtomic:
      return "atomic";
  }
  return "?";
}

const char* ToString(WarpOpKind k) {
  switch (k) {
    case WarpOpKind::kShfl:
      return "__shfl_sync";
    case WarpOpKind::kShflUp:
      return "__shfl_up_sync";
    case WarpOpKind::kShflDown:
      return "__shfl_down_sync";
    case WarpOpKind::kShflXor:
      return "__shfl_xor_sync";
    case WarpOpKind::kBallot:
      return "__ballot_sync";
    case WarpOpKind::kAny:
      return "__any_sync";
    case WarpOpKind::kAll:
      return "__all_sync";
    case WarpOpKind::kActiveMask:
      return "__activemask";
    case WarpOpKind::kSyncWarp:
      return "__syncwarp";
    case WarpOpKind::kMatchAny:
      return "__match_any_sync";
    case WarpOpKind::kMatchAll:
      return "__match_all_sync";
    case WarpOpKind::kReduce:
      return "__reduce_*_sync";
    case WarpOpKind::kMma:
      return "wmma::mma_sync";
  }
  return "?";
}

bool IsShuffle(WarpOpKind k) {
  return k == WarpOpKind::kShfl || k == WarpOpKind::kShflUp || k == WarpOpKind::kShflDown ||
         k == WarpOpKind::kShflXor;
}

std::uint16_t FileTagOf(const std::string& name) {
  return name.empty() ? 0 : static_cast<std::uint16_t>(FileTag(name.c_str()));
}

void PlaceBuffers(std::vector<BufferInfo>& buffers, std::uint64_t first_base) {
  std::uint64_t next =
      (first_base + kCudaMallocAlignment - 1) / kCudaMallocAlignment * kCudaMallocAlignment;
  for (BufferInfo& b : buffers) {
    b.base = next;
    const std::uint64_t size = b.bytes == 0 ? 1 : b.bytes;
    next += (size + kCudaMallocAlignment - 1) / kCudaMallocAlignment * kCudaMallocAlignment;
  }
}

}  // namespace ws
