// Warpscope's stand-in for CUDA's <cooperative_groups/memcpy_async.h> on the emulator (issue 53,
// item 2): a group's asynchronous copy from global into shared memory, and the group's wait.
//
// A copy is cut into the pieces the toolkit's own header cuts it into (read in CUDA 13's
// cooperative_groups/details/async.h), each a __pipeline_memcpy_async of the thread that makes
// it (ws_program_async.h: a global read where it is issued, a shared write recorded at the same
// site where it lands), then one commit:
// - the piece's size is the size's alignment: an aligned_size_t<N>'s N, else the element's
//   (alignof(T)), at most 16 for a count of bytes; for a count of elements, N only where both
//   counts promise the same N, and not capped; for a void* copy (or 1- and 2-byte elements, or a
//   promise past 16 in elements) the best both addresses share, up to 16, and none past the
//   copy's size;
// - thread rank r of the group takes pieces r, r + size, r + 2 x size, ...; a thread_block_tile
//   of 2 lanes or more makes whole rounds of the tile first and then one more round in which a
//   lane past the pieces left copies the last one again (the toolkit's way to keep the lanes
//   together), so that its requests are the hardware's;
// - wait(group) and wait_prior<N>(group) land the thread's copies (all, or all but the newest N
//   commits) and then sync the group, recorded at the call's line.
// What CUDA copies with plain loads and stores instead (a copy whose addresses share less than 4
// bytes of alignment or smaller than what they share, bytes before or after the aligned part, a
// destination not in shared memory or a source not in global memory) stops the launch, saying so,
// rather than be recorded as something it is not. Groups: thread_block, thread_block_tile<N> and
// coalesced_group, as CUDA's (a thread_group is refused by the compiler there too).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include "../cooperative_groups.h"
#include "../ws_program_async.h"

namespace cooperative_groups {
namespace ws_async {

template <typename G>
struct Supported : std::false_type {};
template <>
struct Supported<thread_block> : std::true_type {};
template <>
struct Supported<coalesced_group> : std::true_type {};
template <unsigned int N>
struct Supported<thread_block_tile<N>> : std::true_type {};

// A tile of two lanes or more copies in whole rounds, then one round for the rest.
template <typename G>
struct Rounds : std::false_type {};
template <unsigned int N>
struct Rounds<thread_block_tile<N>> : std::bool_constant<(N > 1)> {};

// A size's promised alignment: an aligned_size_t's, else 0 (none promised).
template <typename Size, typename = void>
struct Promised {
  static constexpr std::size_t value = 0;
};
template <typename Size>
struct Promised<Size, std::void_t<decltype(Size::align)>> {
  static constexpr std::size_t value = Size::align;
};

// The toolkit's dispatch on the alignment `hint` it knows: 4, 8 or 16 bytes go straight to
// copies of that size (a tail short of a whole piece is not copied, as there); any other (1 or 2,
// or past 16 where counts of elements promise it) looks for the alignment both addresses share,
// the lowest bit in which they differ from `hint` up to 8, else 16, and copies with plain loads
// and stores where that is under 4 bytes or more than the copy's size, and the bytes before and
// after its aligned part.
template <typename G>
WS_PD void Copy(const G& g, void* dst, const void* src, std::size_t bytes, std::size_t hint,
                unsigned int place) {
  static_assert(Supported<G>::value,
                "cooperative_groups::memcpy_async takes a thread_block, a thread_block_tile or a "
                "coalesced_group, as CUDA's");
  if (bytes == 0) return;
  std::size_t piece = hint;
  if (hint != 4 && hint != 8 && hint != 16) {
    const auto differ = static_cast<std::uint32_t>(reinterpret_cast<std::uintptr_t>(dst) ^
                                                   reinterpret_cast<std::uintptr_t>(src));
    piece = 16;
    for (std::size_t a = 8; a >= hint && a > 0; a >>= 1) {
      if ((differ & a) != 0) piece = a;
    }
    if (bytes < piece) {
      const std::string why = "cooperative_groups::memcpy_async of " + std::to_string(bytes) +
                              " bytes, fewer than the " + std::to_string(piece) +
                              "-byte alignment its addresses share (CUDA copies them with plain "
                              "loads and stores)";
      ::ws::prog::AsyncNotYet(why.c_str(), place);
    }
    if (piece < 4)
      ::ws::prog::AsyncNotYet(
          "cooperative_groups::memcpy_async of addresses that share less than 4 bytes of "
          "alignment (CUDA copies them with plain loads and stores)",
          place);
    const auto head =
        static_cast<std::size_t>(-reinterpret_cast<std::uintptr_t>(src) & (piece - 1));
    if (head != 0 || bytes % piece != 0)
      ::ws::prog::AsyncNotYet(
          "cooperative_groups::memcpy_async with bytes outside its aligned part (CUDA copies "
          "them with plain loads and stores)",
          place);
  }
  const std::size_t count = bytes / piece;
  if (count == 0) return;  // under one piece of a known alignment: CUDA copies nothing
  if (!::ws::prog::AsyncGlobalToShared(dst, src, bytes, place))
    ::ws::prog::AsyncNotYet(
        "cooperative_groups::memcpy_async other than from global into shared memory (CUDA copies "
        "it with plain loads and stores)",
        place);
  auto* d = static_cast<unsigned char*>(dst);
  const auto* s = static_cast<const unsigned char*>(src);
  const std::size_t rank = g.thread_rank(), stride = g.size();
  auto one = [&](std::size_t k) {
    ::ws::prog::AsyncCopy(d + k * piece, s + k * piece, piece, 0, place);
  };
  if constexpr (Rounds<G>::value) {
    const std::size_t whole = count & ~(stride - 1), rest = count & (stride - 1);
    for (std::size_t k = 0; k < whole; k += stride) one(k + rank);
    if (rest != 0) one(whole + (rank < rest - 1 ? rank : rest - 1));
  } else {
    for (std::size_t k = rank; k < count; k += stride) one(k);
  }
}

template <typename T>
constexpr std::size_t ElementAlignment() {
  if constexpr (std::is_void_v<T>)
    return 1;
  else
    return alignof(T);
}

}  // namespace ws_async

#if defined(WS_PROGRAM_PARSE)
// The rewriter reads the program as written, CUDA's signatures.
template <class Group, typename T, typename Size>
WS_PD void memcpy_async(const Group& group, T* dst, const T* src, const Size& bytes);
template <class Group, typename T, typename DstCount, typename SrcCount>
WS_PD void memcpy_async(const Group& group, T* dst, const DstCount& dst_count, const T* src,
                        const SrcCount& src_count);
#else
// With the site the rewriter adds as a last argument. `bytes`: a count of bytes (an integer or
// an aligned_size_t).
template <class Group, typename T, typename Size,
          typename = std::enable_if_t<!std::is_pointer_v<Size>>>
WS_PD void memcpy_async(const Group& group, T* dst, const T* src, const Size& bytes,
                        unsigned int place = 0) {
  constexpr std::size_t promised = ws_async::Promised<Size>::value;
  constexpr std::size_t hint = promised != 0 ? promised : ws_async::ElementAlignment<T>();
  ws_async::Copy(group, dst, src, static_cast<std::size_t>(bytes), hint > 16 ? 16 : hint, place);
  ::ws::prog::AsyncCommit();
}
// Counts of elements: the smaller of the two. An alignment is promised only where both counts
// are aligned_size_t of one N, and is not capped at 16 here (CUDA's element form does not).
template <class Group, typename T, typename DstCount, typename SrcCount>
WS_PD void memcpy_async(const Group& group, T* dst, const DstCount& dst_count, const T* src,
                        const SrcCount& src_count, unsigned int place = 0) {
  constexpr std::size_t promised = ws_async::Promised<DstCount>::value;
  constexpr bool both = promised != 0 && promised == ws_async::Promised<SrcCount>::value;
  const auto n = static_cast<std::size_t>(dst_count), m = static_cast<std::size_t>(src_count);
  ws_async::Copy(group, dst, src, (n < m ? n : m) * sizeof(T),
                 both ? promised : ws_async::ElementAlignment<T>(), place);
  ::ws::prog::AsyncCommit();
}
#endif

// The thread's copies land (all but the newest `Stage` commits), then the group syncs, at the
// call's line.
template <unsigned int Stage, class Group>
WS_PD void wait_prior(const Group& group, unsigned int line = __builtin_LINE(),
                      const char* file = __builtin_FILE()) {
  ::ws::prog::AsyncWaitPrior(Stage);
  group.sync(line, file);
}
template <class Group>
WS_PD void wait(const Group& group, unsigned int line = __builtin_LINE(),
                const char* file = __builtin_FILE()) {
  ::ws::prog::AsyncWaitPrior(0);
  group.sync(line, file);
}

}  // namespace cooperative_groups
