// The race check's words and pairs (private to trace/src: hazards.cpp, global_shadow.cpp). Every
// access is cut into the 4-byte words it covers, with a mask of the bytes it touches in each; a
// pair of accesses to one word is a hazard of the kind their order makes it.
#pragma once

#include <algorithm>
#include <cstdint>

#include "warpscope/trace/hazards.h"

namespace ws::hazard_words {

// Shared words are the block's; global words per buffer. 32 bits of word: 16 GiB per buffer.
inline std::uint64_t WordKey(MemorySpace space, std::uint16_t buffer, std::uint32_t word) {
  const std::uint64_t owner =
      space == MemorySpace::kShared ? std::uint64_t{1} << 31 : std::uint64_t{buffer};
  return (owner << 32) | word;
}

inline bool IsWrite(AccessOp op) {
  return op != AccessOp::kLoad;
}

// The bytes of word `w` that an access of `size` bytes at `offset` touches, a bit each.
inline std::uint8_t WordMask(std::uint32_t offset, std::uint32_t size, std::uint32_t w) {
  const std::uint64_t end = std::uint64_t{offset} + std::max<std::uint32_t>(size, 1);
  std::uint8_t mask = 0;
  for (std::uint32_t byte = 0; byte < 4; ++byte) {
    const std::uint64_t at = std::uint64_t{w} * 4 + byte;
    if (at >= offset && at < end) mask |= static_cast<std::uint8_t>(1u << byte);
  }
  return mask;
}

inline std::uint32_t LastWord(std::uint32_t offset, std::uint32_t size) {
  return static_cast<std::uint32_t>((std::uint64_t{offset} + std::max<std::uint32_t>(size, 1) - 1) /
                                    4);
}

inline bool Checked(MemorySpace space) {
  return space == MemorySpace::kShared || space == MemorySpace::kGlobal;
}

inline HazardKind KindOf(AccessOp first, AccessOp second, bool same_value) {
  if (!IsWrite(second)) return HazardKind::kRaw;
  if (!IsWrite(first)) return HazardKind::kWar;
  if (first == AccessOp::kStore && second == AccessOp::kStore && same_value)
    return HazardKind::kWawSameValue;
  return HazardKind::kWaw;
}

// An example's rank (HazardTally): kept blocks first, then the lower block, then pairs within
// a block before pairs across blocks.
inline std::uint64_t Rank(bool kept, std::uint32_t block, bool across) {
  return (std::uint64_t{kept ? 0u : 1u} << 40) | (std::uint64_t{block} << 1) | (across ? 1 : 0);
}

}  // namespace ws::hazard_words
