// libws_program_emu's device calls (emu_program.cpp's other half): printf and assert in device
// code, the clocks and the thread's place (clock64, globaltimer, smid, the lane and warp ids),
// the barriers and warp-level meetings.
#include <cstdarg>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <string>
#include <vector>

#include "emu_program_state.h"

namespace ws::prog {
using namespace detail;  // NOLINT: this file is the state's other half

// ------------------------------------------------------------------------------------------------
// Device printf and the clocks.
// ------------------------------------------------------------------------------------------------
namespace {
constexpr std::size_t kPrintfBytes = 8u << 20;  // a launch's printf buffer (a GPU's is 1 MiB)

std::uint64_t LinearBlock() {
  const uint3* b = Builtins();
  return b[1].x + static_cast<std::uint64_t>(b[3].x) * (b[1].y + std::uint64_t{b[3].y} * b[1].z);
}

}  // namespace

// Prints what the launch's threads printed, block after block, and empties the buffer.
void detail::FlushPrinted() {
  Program& p = P();
  std::lock_guard lock(p.mutex);
  for (const auto& [block, text] : p.printed) std::fwrite(text.data(), 1, text.size(), stdout);
  if (p.printed_cut)
    std::printf("[warpscope: the launch printed more than %zu MiB; the rest was dropped]\n",
                kPrintfBytes >> 20);
  std::fflush(stdout);
  p.printed.clear();
  p.printed_bytes = 0;
  p.printed_cut = false;
}

int DevicePrintf(const char* format, ...) {
  va_list args;
  va_start(args, format);
  if (::ws::emu::t_thread == nullptr) {  // a __host__ __device__ function on the host
    const int n = std::vprintf(format, args);
    va_end(args);
    return n;
  }
  char small[512];
  va_list again;
  va_copy(again, args);
  const int n = std::vsnprintf(small, sizeof small, format, args);
  va_end(args);
  std::string text;
  if (n >= 0 && static_cast<std::size_t>(n) < sizeof small) {
    text.assign(small, static_cast<std::size_t>(n));
  } else if (n >= 0) {
    text.resize(static_cast<std::size_t>(n) + 1);
    std::vsnprintf(text.data(), text.size(), format, again);
    text.resize(static_cast<std::size_t>(n));
  }
  va_end(again);
  Program& p = P();
  const std::uint64_t block = LinearBlock();
  std::lock_guard lock(p.mutex);
  if (p.printed_bytes + text.size() > kPrintfBytes) {
    p.printed_cut = true;
    return n;
  }
  p.printed_bytes += text.size();
  p.printed[block] += text;
  return n;
}

void DeviceAssertFail(const char* expression, const char* file, unsigned int line,
                      const char* function) {
  if (::ws::emu::t_thread == nullptr) {  // a __host__ __device__ function on the host
    std::fprintf(stderr, "%s:%u: %s: Assertion `%s' failed.\n", file, line, function, expression);
    std::abort();
  }
  const uint3* b = Builtins();
  DevicePrintf("%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n", file,
               line, function, b[1].x, b[1].y, b[1].z, b[0].x, b[0].y, b[0].z, expression);
  {
    std::lock_guard lock(P().mutex);
    P().assert_failed = true;
  }
  emu::FailThread(MakePlace(0, line), "device-side assert triggered");
}

// A read of the clock is a tick of the thread's own, as an access is: a loop that waits for the
// clock to pass a count (cuda-samples' simpleHyperQ spins 10 ms of clock() so) ends, where a
// clock moved by accesses alone never did.
long long DeviceClock() {
  if (::ws::emu::t_thread == nullptr) return static_cast<long long>(std::clock());
  emu::NoteClockRead();
  const auto now = static_cast<long long>(emu::ThreadClock());
  emu::AddWork(1);
  return now;
}
unsigned long long GlobalTimer() {
  if (::ws::emu::t_thread == nullptr) return 0;
  emu::NoteClockRead();
  const unsigned long long now = emu::GlobalTimer();
  emu::AddWork(1);
  return now;
}
unsigned int SmId() {
  return ::ws::emu::t_thread == nullptr ? 0 : emu::SmId();
}
unsigned int LaneId() {
  if (::ws::emu::t_thread == nullptr) return 0;
  const uint3* b = Builtins();
  return (b[0].x + b[2].x * (b[0].y + b[2].y * b[0].z)) % 32u;
}
unsigned int WarpId() {
  if (::ws::emu::t_thread == nullptr) return 0;
  const uint3* b = Builtins();
  return (b[0].x + b[2].x * (b[0].y + b[2].y * b[0].z)) / 32u;
}

unsigned int BlockThreads() {
  const uint3* b = Builtins();
  return b[2].x * b[2].y * b[2].z;
}

// ------------------------------------------------------------------------------------------------
// Barriers and warp-level meetings: the emulator's.
// ------------------------------------------------------------------------------------------------
void SyncThreads(unsigned int place) {
  emu::SyncThreads(place);
}

int SyncThreadsCount(unsigned int place, int predicate) {
  return emu::SyncThreadsCount(place, predicate);
}

void TileSync(unsigned int threads, unsigned int place) {
  emu::TileSync(threads, place);
}

void GridSync(unsigned int place) {
  emu::GridSync(place);
}

unsigned long long* TileSlots() {
  return reinterpret_cast<unsigned long long*>(emu::TileSlots());
}

unsigned long long WarpOp(unsigned int kind, unsigned int mask, unsigned long long value, int arg,
                          int width, unsigned int place) {
  if (::ws::emu::t_thread == nullptr) return value;  // host code: nothing to meet
  return emu::WarpOp(kind, mask, value, arg, width, place);
}

}  // namespace ws::prog
