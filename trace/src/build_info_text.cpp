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

std::filesystem::path InstalledPrefix() {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (ec || exe.parent_path().filename() != "bin") return {};
  const std::filesystem::path prefix = exe.parent_path().parent_path();
  return std::filesystem::is_directory(prefix / "share/warpscope", ec) ? prefix
                                                                       : std::filesystem::path();
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
