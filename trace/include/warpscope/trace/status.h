// Status and Result: how library code reports failure. Library code never exits or throws across
// a layer boundary; it returns a Status naming what failed, and main() decides what to do.
//
//   ws::Status s = ws::WriteFileAtomically(path, bytes);
//   if (!s.ok()) { std::cerr << s.message() << "\n"; return 1; }
#pragma once

#include <optional>
#include <string>
#include <utility>

namespace ws {

class Status {
 public:
  Status() = default;  // success
  static Status Error(std::string message) { return Status(std::move(message)); }

  bool ok() const { return !message_.has_value(); }
  explicit operator bool() const { return ok(); }
  // The message for the user: names what failed, the limit and the value where there is one.
  const std::string& message() const;

 private:
  explicit Status(std::string message) : message_(std::move(message)) {}
  std::optional<std::string> message_;
};

// A value or the Status that explains why there is none.
template <typename T>
class Result {
 public:
  Result(T value) : value_(std::move(value)) {}        // NOLINT: implicit on purpose
  Result(Status error) : status_(std::move(error)) {}  // NOLINT: implicit on purpose

  bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }
  const Status& status() const { return status_; }
  T& value() & { return *value_; }
  const T& value() const& { return *value_; }
  T&& value() && { return std::move(*value_); }
  T* operator->() { return &*value_; }
  const T* operator->() const { return &*value_; }
  T& operator*() { return *value_; }
  const T& operator*() const { return *value_; }

 private:
  std::optional<T> value_;
  Status status_;
};

}  // namespace ws
