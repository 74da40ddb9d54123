// Tells AddressSanitizer about fiber switches, so it tracks which stack is live and does not
// mistake a fiber's stack for a buffer overflow. No-ops in builds without ASan.
//
// Every switch is bracketed: the context being left calls BeforeSwitch(self, target), and the
// context being entered calls AfterSwitch(self) once it runs again. A fiber that ends calls
// BeforeFinalSwitch(target) instead.
#pragma once

#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif

namespace ws::emu {

struct FiberStack {
  const void* bottom = nullptr;
  std::size_t size = 0;
  void* fake_stack = nullptr;  // ASan's fake stack of this context while it is switched out
};

#if defined(__SANITIZE_ADDRESS__)
// A stack about to carry a new fiber: clean in ASan's eyes. One taken back from a fiber that
// ended by switching away (or mapped where such a stack was) still has that fiber's frames
// marked, and the new fiber's first store into them (a warp's Warp) was reported as an overflow
// that ASan then could not describe (about 1 run in 40 under the sanitizers).
inline void FreshStack(const FiberStack& s) {
  __asan_unpoison_memory_region(s.bottom, s.size);
}
inline void BeforeSwitch(FiberStack& self, const FiberStack& target) {
  __sanitizer_start_switch_fiber(&self.fake_stack, target.bottom, target.size);
}
inline void BeforeFinalSwitch(const FiberStack& target) {
  __sanitizer_start_switch_fiber(nullptr, target.bottom, target.size);
}
// `came_from`, when given, learns the bounds of the stack we switched from.
inline void AfterSwitch(FiberStack& self, FiberStack* came_from = nullptr) {
  const void* bottom = nullptr;
  std::size_t size = 0;
  __sanitizer_finish_switch_fiber(self.fake_stack, &bottom, &size);
  if (came_from != nullptr) {
    came_from->bottom = bottom;
    came_from->size = size;
  }
}
#else
inline void FreshStack(const FiberStack&) {}
inline void BeforeSwitch(FiberStack&, const FiberStack&) {}
inline void BeforeFinalSwitch(const FiberStack&) {}
inline void AfterSwitch(FiberStack&, FiberStack* = nullptr) {}
#endif

}  // namespace ws::emu
