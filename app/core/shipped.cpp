#include "core/shipped.h"

#include "core/capture.h"
#include "warpscope/kernels/catalog.h"

namespace ws {

std::filesystem::path ShippedFolder(std::string_view what) {
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  std::filesystem::path dir;
  if (!ec && exe.parent_path().filename() == "bin")
    dir = exe.parent_path().parent_path() / "share/warpscope" / what;
  if (dir.empty() || !std::filesystem::is_directory(dir, ec))
    dir = std::filesystem::path(WARPSCOPE_SOURCE_DIR) /
          (what == "examples" ? std::filesystem::path("examples")
                              : std::filesystem::path("assets") / what);
  return std::filesystem::is_directory(dir, ec) ? dir : std::filesystem::path();
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
