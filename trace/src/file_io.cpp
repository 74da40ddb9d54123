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

Status WriteFileAtomically(const std::filesystem::path& path,
                           const std::function<void(const PiecePut& put)>& produce, bool durable) {
  if (path.empty()) return Status::Error("cannot write a file with an empty name");
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return Status::Error("cannot write " + path.string() + ": it is a folder");
  }
  const std::filesystem::path tmp = path.string() + TempSuffix();
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return Fail(path, "cannot create the file", errno);
  // Small pieces gather in a buffer; a large one is written where it lies.
  std::vector<std::uint8_t> buffer;
  buffer.reserve(std::size_t{1} << 16);
  int err = 0;
  auto write_all = [&](const std::uint8_t* data, std::size_t size) {
    std::size_t done = 0;
    while (done < size) {
      const ssize_t n = ::write(fd, data + done, size - done);
      if (n < 0) {
        if (errno == EINTR) continue;
        err = errno;
        return false;
      }
      done += static_cast<std::size_t>(n);
    }
    return true;
  };
  auto flush = [&] {
    const bool ok = write_all(buffer.data(), buffer.size());
    buffer.clear();
    return ok;
  };
  produce([&](std::span<const std::uint8_t> piece) {
    if (err != 0) return false;
    if (buffer.size() + piece.size() > buffer.capacity() && !flush()) return false;
    if (piece.size() > buffer.capacity()) return write_all(piece.data(), piece.size());
    buffer.insert(buffer.end(), piece.begin(), piece.end());
    return true;
  });
  if (err == 0) flush();
  if (err != 0) {
    ::close(fd);
    ::unlink(tmp.c_str());
    return Fail(path, "write failed", err);
  }
  if ((durable && ::fsync(fd) != 0) || ::close(fd) != 0) {
    err = errno;
    ::unlink(tmp.c_str());
    return Fail(path, "flush failed", err);
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    err = errno;
    ::unlink(tmp.c_str());
    return Fail(path, "rename failed", err);
  }
  return {};
}

Status WriteFileAtomically(const std::filesystem::path& path, std::span<const std::uint8_t> bytes,
                           bool durable) {
  return WriteFileAtomically(
      path, [&](const PiecePut& put) { put(bytes); }, durable);
}

Status WriteFileAtomically(const std::filesystem::path& path, const std::string& text) {
  return WriteFileAtomically(
      path, std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
}

}  // namespace ws
