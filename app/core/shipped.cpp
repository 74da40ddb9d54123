#include "core/shipped.h"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "core/capture.h"
#include "warpscope/kernels/catalog.h"
#include "warpscope/trace/build_info.h"

namespace ws {

std::filesystem::path ShippedFolder(std::string_view what) {
  std::error_code ec;
  std::filesystem::path dir;
  if (const std::filesystem::path prefix = InstalledPrefix(); !prefix.empty())
    dir = prefix / "share/warpscope" / what;
  if (dir.empty() || !std::filesystem::is_directory(dir, ec))
    dir = std::filesystem::path(WARPSCOPE_SOURCE_DIR) /
          (what == "examples" ? std::filesystem::path("examples")
                              : std::filesystem::path("assets") / what);
  return std::filesystem::is_directory(dir, ec) ? dir : std::filesystem::path();
}

std::string StartWarpscope(const std::vector<std::string>& args) {
  // Everything the children use is made before fork: between fork and exec only async-signal-
  // safe calls (this process has threads).
  // By its own path, not /proc/self/exe: the new process is then named warpscope, not "exe".
  std::error_code ec;
  const std::string exe = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  if (ec) return "could not start Warpscope: /proc/self/exe: " + ec.message();
  std::vector<std::string> owned = {"warpscope"};
  owned.insert(owned.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : owned) argv.push_back(a.data());
  argv.push_back(nullptr);
  const pid_t child = fork();
  if (child < 0) return "could not start Warpscope: fork: " + std::string(std::strerror(errno));
  if (child == 0) {
    setsid();
    const pid_t grandchild = fork();
    if (grandchild == 0) {
      execv(exe.c_str(), argv.data());
      _exit(127);
    }
    _exit(grandchild < 0 ? 1 : 0);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return "could not start Warpscope: fork failed in its starter";
  return "";
}

std::vector<std::filesystem::path> ShippedFiles(std::string_view what, std::string_view extension) {
  std::vector<std::filesystem::path> files;
  const std::filesystem::path folder = ShippedFolder(what);
  std::error_code ec;
  if (folder.empty()) return files;
  for (const auto& e : std::filesystem::directory_iterator(folder, ec)) {
    if (e.is_regular_file(ec) && e.path().extension() == extension) files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

Result<LessonRun> ShippedCapture(const std::string& lesson, const std::string& variant) {
  for (const std::string& name : {lesson + "-" + variant + ".wstrace", lesson + ".wstrace"}) {
    for (const shipped::EmbeddedFile& f : shipped::kEmbeddedFiles) {
      if (f.name != name) continue;
      auto contents = ParseTrace(std::span<const std::uint8_t>(f.bytes.data(), f.bytes.size()));
      if (!contents.ok()) return contents.status();
      auto run = RunOfTrace(std::move(contents).value(), "assets/traces/" + name);
      if (!run.ok()) return run.status();
      run->capture->shipped = true;
      return run;
    }
  }
  return Status::Error(lesson + ": this build ships no capture of it (assets/traces/" + lesson +
                       "-" + variant + ".wstrace was missing when Warpscope was built)");
}

Result<LessonRun> RunLessonOrShipped(const std::string& lesson, const std::string& variant,
                                     const Params& overrides, const std::string& backend,
                                     const RunOptions& options) {
  const LessonInfo* info = FindLesson(lesson);
  if (info == nullptr || !info->needs_gpu() || backend == "cuda")
    return RunLesson(lesson, variant, overrides, backend, options);
  // Wrong names and values are refused as for any run, before the capture stands in.
  auto request = ResolveLesson(lesson, variant, overrides);
  if (!request.ok()) return request.status();
  if (backend != "emu")
    return Status::Error("unknown backend '" + backend + "'; backends are: emu, cuda");
  auto run = ShippedCapture(lesson, request->variant);
  if (!run.ok()) return Status::Error(NeedsGpuMessage(*info) + "; " + run.status().message());
  return run;
}

}  // namespace ws
