// The version line of --version (build_info.h).
#include "warpscope/trace/build_info.h"

namespace ws {

std::string VersionLine(std::string_view program) {
  const BuildInfo& b = Build();
  std::string line(program);
  line += " ";
  line += b.version;
  line += " (commit ";
  line += b.commit;
  line += ", ";
  line += b.build_type;
  line += b.cuda ? ", CUDA runner built in)" : ", no CUDA runner: the emulator only)";
  return line;
}

}  // namespace ws
