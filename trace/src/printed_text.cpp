// What a program printed, made safe to keep and to show (printed_text.h).
#include "warpscope/trace/printed_text.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "warpscope/trace/program_record.h"
#include "warpscope/trace/units.h"

namespace ws {
namespace {

constexpr char kReplacement[] = "\xEF\xBF\xBD";  // U+FFFD REPLACEMENT CHARACTER

// The length of the well-formed UTF-8 sequence at `at`, or 0 when the byte there does not start
// one. The ranges of the second byte are the Unicode standard's table 3-7: E0 needs A0..BF (no
// overlong form), ED 80..9F (no surrogate), F0 90..BF, F4 80..8F (nothing past U+10FFFF).
std::size_t SequenceAt(std::string_view s, std::size_t at) {
  const auto b = [&](std::size_t i) { return static_cast<unsigned char>(s[at + i]); };
  const unsigned char c = b(0);
  if (c < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the second byte's range
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;  // 80..C1 (a continuation byte, an overlong lead), F5..FF
  }
  if (at + n > s.size()) return 0;
  if (b(1) < lo || b(1) > hi) return 0;
  for (std::size_t i = 2; i < n; ++i) {
    if (b(i) < 0x80 || b(i) > 0xBF) return 0;
  }
  return n;
}

}  // namespace

Utf8Text ValidUtf8(std::string_view bytes) {
  Utf8Text out;
  out.text.reserve(bytes.size());
  for (std::size_t at = 0; at < bytes.size();) {
    const std::size_t n = SequenceAt(bytes, at);
    if (n == 0) {
      out.text += kReplacement;
      ++out.replaced;
      ++at;
    } else {
      out.text.append(bytes.data() + at, n);
      at += n;
    }
  }
  return out;
}

std::string VisibleControls(std::string_view utf8) {
  std::string out;
  out.reserve(utf8.size());
  char hex[8];
  for (std::size_t i = 0; i < utf8.size(); ++i) {
    const auto c = static_cast<unsigned char>(utf8[i]);
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F) {
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    } else if (c == 0xC2 && i + 1 < utf8.size() && static_cast<unsigned char>(utf8[i + 1]) < 0xA0) {
      // U+0080..U+009F, two bytes C2 80..C2 9F: C1 controls (U+009B is a CSI to some terminals).
      std::snprintf(hex, sizeof hex, "\\u%04x", static_cast<unsigned char>(utf8[i + 1]));
      out += hex;
      ++i;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

namespace {

PrintedText Printed(std::string_view bytes, std::uint64_t kept, std::uint64_t replaced,
                    std::uint64_t cut) {
  PrintedText out;
  Utf8Text valid = ValidUtf8(bytes);
  out.text = std::move(valid.text);
  out.not_utf8 = valid.replaced + replaced;
  if (out.not_utf8 > 0)
    out.note = FormatNumber(static_cast<double>(out.not_utf8)) +
               (out.not_utf8 == 1 ? " byte that is" : " bytes that are") +
               " not UTF-8 shown as U+FFFD";
  if (cut > 0)
    out.note += (out.note.empty() ? "" : "; ") + std::string("cut at the output limit: ") +
                FormatNumber(static_cast<double>(kept)) + " bytes kept, " +
                FormatNumber(static_cast<double>(cut)) + " more printed and not kept";
  return out;
}

}  // namespace

PrintedText ProgramStdout(const ProgramRecord& p) {
  return Printed(p.stdout_text, p.stdout_text.size(), p.stdout_replaced_bytes, p.stdout_cut_bytes);
}

PrintedText ProgramStderr(const ProgramRecord& p) {
  if (p.ok())
    return Printed(p.stderr_text, p.stderr_text.size(), p.stderr_replaced_bytes,
                   p.stderr_cut_bytes);
  std::string kept;  // without the failure's own lines
  for (std::size_t at = 0; at < p.stderr_text.size();) {
    std::size_t end = p.stderr_text.find('\n', at);
    end = end == std::string::npos ? p.stderr_text.size() : end + 1;
    const std::string_view line(p.stderr_text.data() + at, end - at);
    if (line.substr(0, 11) != "warpscope: ") kept += line;
    at = end;
  }
  return Printed(kept, p.stderr_text.size(), p.stderr_replaced_bytes, p.stderr_cut_bytes);
}

std::string JsonText(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace ws
