// The what-if strip of the banks and coalescing views: a banner while a what-if is on (with Clear
// and Compare A | B), and the controls that set it: the array, the layout and its values, the
// array's shape, and in a program of several kernels the kernel. Any change applies at once
// (Session::SetWhatIf), always to the run as written.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "warpscope/trace/what_if.h"
#include "warpscope/viz/session.h"

namespace ws::view {

class WhatIfEditor {
 public:
  // `view`: the view it is drawn in (what Compare A | B shows); `shared_first`: offer a shared
  // array first (the banks view), else a global buffer.
  void Draw(Session* s, const char* view, bool shared_first);

 private:
  void Reload(const Session& s);
  void WriteIntoProgram(Session* s);
  bool DrawBanner(Session* s, const char* view);
  bool DrawKernel(Session* s);
  bool DrawArrayAndLayout(bool shared_first);
  bool DrawValues();
  std::string written_note_;  // what the last "Write into the program" did
  std::uint64_t generation_ = ~0ull;
  std::vector<WhatIfArray> arrays_;  // of the run as written, in the launch shown
  // A program's kernels and the launch each is drawn from, for the kernel combo.
  std::vector<std::pair<std::string, std::size_t>> kernels_;
  WhatIf edit_;
};

}  // namespace ws::view
