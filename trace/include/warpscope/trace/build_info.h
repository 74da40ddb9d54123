// Which Warpscope this is: its version, the git commit it was built from ("+changes" when the
// tree differed from it; "unknown" without git), the CMake build type and whether the CUDA runner
// is built in. Generated at build time (cmake/BuildInfo.cmake); shown by --version, the About
// box, trace files and reports, so that a bug report says which build it came from.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace ws {

struct BuildInfo {
  const char* version;
  const char* commit;
  const char* build_type;
  bool cuda;
};

// This process's build, as its main() set it (SetBuild); before that, or in a program that
// never sets it, the version with commit and build type "unknown".
const BuildInfo& Build();
void SetBuild(const BuildInfo& info);

// The build info generated for this build (ws_build_info, cmake/BuildInfo.cmake): linked only
// into the programs, which pass it to SetBuild, so that a new commit relinks them and nothing
// else (the libraries, the rewriter and the lessons it generates stay as they are).
const BuildInfo& ThisBuild();

// PREFIX when this process runs from an installed tree (PREFIX/bin/NAME beside
// PREFIX/share/warpscope: the .deb, or `cmake --install` anywhere), else empty (the build tree).
std::filesystem::path InstalledPrefix();

// "PROGRAM 0.1.0 (commit 0123456789ab, Release, CUDA runner built in)".
std::string VersionLine(std::string_view program);

}  // namespace ws
