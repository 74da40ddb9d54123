// Tells AddressSanitizer about fiber switches, so it tracks which stack is live and does not
// mistake a fiber's stack for a buffer overflow. No-ops in builds without ASan.
//
// Every switch is bracketed: the context being left calls BeforeSwitch(self, target), and the
// context being entered calls AfterSwitch(self) once it runs again. A fiber that ends calls
// BeforeFinalSwitch(target) instead.
#pragma once

#include <cstddef>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif

namespace ws::emu {

struct FiberStack {
  const void* bottom = nullptr;
  std::size_t size = 0;
  void* fake_stack = nullptr;  // ASan's fake stack of this context while it is switched out
};

#if defined(__SANITIZE_ADDRESS__)
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
inline void BeforeSwitch(FiberStack&, const FiberStack&) {}
inline void BeforeFinalSwitch(const FiberStack&) {}
inline void AfterSwitch(FiberStack&, FiberStack* = nullptr) {}
#endif

}  // namespace ws::emu
