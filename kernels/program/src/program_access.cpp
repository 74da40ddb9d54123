#include "warpscope/program/program_rewrite.h"

namespace ws {

const char* ToString(ProgramAccess a) {
  switch (a) {
    case ProgramAccess::kLoad: return "load";
    case ProgramAccess::kStore: return "store";
    case ProgramAccess::kLoadStore: return "load+store";
    case ProgramAccess::kAtomic: return "atomic";
  }
  return "?";
}

}  // namespace ws
