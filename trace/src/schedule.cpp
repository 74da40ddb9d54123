#include "warpscope/trace/schedule.h"

#include <charconv>
#include <utility>

namespace ws {
namespace {

// The orders without a seed, by name.
constexpr std::pair<const char*, Schedule::Kind> kNamed[] = {
    {"in-order", Schedule::Kind::kInOrder},
    {"reverse", Schedule::Kind::kReverse},
    {"lockstep", Schedule::Kind::kLockstep}};

}  // namespace

std::string Schedule::Name() const {
  if (kind == Kind::kRandom) return "random:" + std::to_string(seed);
  for (const auto& [name, k] : kNamed) {
    if (k == kind) return name;
  }
  return "?";
}

Result<Schedule> ParseSchedule(std::string_view text) {
  Schedule s;
  for (const auto& [name, kind] : kNamed) {
    if (text == name) {
      s.kind = kind;
      return s;
    }
  }
  if (text.substr(0, 7) == "random:" && text.size() > 7) {
    const std::string_view digits = text.substr(7);
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), s.seed);
    if (ec == std::errc() && end == digits.data() + digits.size()) {
      s.kind = Schedule::Kind::kRandom;
      return s;
    }
    return Status::Error("schedule '" + std::string(text) + "': the seed must be a whole number " +
                         "from 0 to 18446744073709551615");
  }
  return Status::Error("schedule '" + std::string(text) +
                       "' is not one of in-order, reverse, lockstep, random:SEED (random:1)");
}

}  // namespace ws
