#include "warpscope/trace/file_io.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>

namespace ws {
namespace {

Status Fail(const std::filesystem::path& path, const char* what, int err) {
  return Status::Error("cannot write " + path.string() + ": " + what + ": " + std::strerror(err));
}

std::string TempSuffix() {
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  char buf[32];
  std::snprintf(buf, sizeof buf, ".tmp-%08llx",
                static_cast<unsigned long long>(rng() & 0xffffffffULL));
  return buf;
}

}  // namespace

Status WriteFileAtomically(const std::filesystem::path& path, std::span<const std::uint8_t> bytes) {
  if (path.empty()) return Status::Error("cannot write a file with an empty name");
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return Status::Error("cannot write " + path.string() + ": it is a folder");
  }
  const std::filesystem::path tmp = path.string() + TempSuffix();
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return Fail(path, "cannot create the file", errno);

  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      return Fail(path, "write failed", err);
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    return Fail(path, "flush failed", err);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(tmp.c_str());
    return Fail(path, "rename failed", err);
  }
  return {};
}

Status WriteFileAtomically(const std::filesystem::path& path, const std::string& text) {
  return WriteFileAtomically(
      path, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

}  // namespace ws
