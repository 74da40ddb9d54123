#include "warpscope/trace/records.h"

#include "warpscope/kernels/ws_cuda_keys.h"

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
