// The build this process says it is (build_info.h) and the version line of --version.
#include "warpscope/trace/build_info.h"

namespace ws {

namespace {
BuildInfo& Current() {
  static BuildInfo info{WARPSCOPE_VERSION, "unknown", "unknown", false};
  return info;
}
}  // namespace

const BuildInfo& Build() {
  return Current();
}

void SetBuild(const BuildInfo& info) {
  Current() = info;
}

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
