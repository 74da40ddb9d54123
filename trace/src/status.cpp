#include "warpscope/trace/status.h"

namespace ws {

const std::string& Status::message() const {
  static const std::string kOk = "ok";
  return message_ ? *message_ : kOk;
}

}  // namespace ws
