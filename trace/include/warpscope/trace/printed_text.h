// What a program printed, made safe to keep and to show. A student's program may print any bytes:
// NUL, bytes that are not UTF-8 (a char array printed past its end, binary data), a terminal's
// escape sequences (`\x1b[2J` clears the screen). JSON needs valid UTF-8 (nlohmann's dump throws
// on anything else), a trace file's header is JSON, ImGui stops a string at its first NUL, and a
// terminal obeys escape codes. Every place that shows or stores a program's output goes through
// these helpers, so they all agree on what was changed and say so:
//
//   const PrintedText out = ProgramStdout(*run.program);   // valid UTF-8 and a note
//   j["stdout"] = out.text;
//   if (!out.note.empty()) j["stdout_note"] = out.note;   // "3 bytes that are not UTF-8 ..."
//   std::cout << VisibleControls(out.text);               // a terminal: ESC as \x1b
//   std::cout << JsonText(j, 2);                          // never throws on a stray byte
//
// Pitfall: the bytes a program printed stay as they were in ProgramRecord::stdout_text (an output
// goal's `contains` looks there); only what is shown or written out is changed.
#pragma once

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>

namespace ws {

struct ProgramRecord;

struct Utf8Text {
  std::string text;            // valid UTF-8
  std::uint64_t replaced = 0;  // bytes of the input that were not UTF-8, each now U+FFFD
};
// `bytes` with every byte that does not belong to a well-formed UTF-8 sequence (RFC 3629: no
// overlong forms, no surrogates, nothing past U+10FFFF, no sequence cut short) replaced by
// U+FFFD, one for each byte. Valid text comes back unchanged, NUL included.
Utf8Text ValidUtf8(std::string_view bytes);

// Valid UTF-8 `utf8` with each control character but newline and tab written out so that a
// terminal shows it instead of obeying it: C0 controls and DEL as \xNN (NUL \x00, ESC \x1b,
// CR \x0d), the C1 controls U+0080..U+009F as \u0080..\u009f.
std::string VisibleControls(std::string_view utf8);

// A program's stdout as shown: valid UTF-8, and a note on what differs from what it printed ("":
// nothing): "3 bytes that are not UTF-8 shown as U+FFFD", "cut at the output limit: 1,048,576
// bytes kept, 524,288 more printed and not kept", or both, joined by "; ".
struct PrintedText {
  std::string text;
  std::string note;
  std::uint64_t not_utf8 = 0;  // bytes shown as U+FFFD (also those a trace file had replaced)
};
PrintedText ProgramStdout(const ProgramRecord& p);
// Its stderr as shown, the same way: what the program wrote there (CUDA's helper_cuda.h reports a
// failed call there and exits; a runtime warning of Warpscope's, "warpscope: cudaFree(...): not a
// pointer cudaMalloc returned", goes there too). Where the run failed, the runtime's own
// "warpscope: " lines are the failure's message, shown as the failure, and are left out here.
PrintedText ProgramStderr(const ProgramRecord& p);

// `j` as JSON text (indent as nlohmann's dump takes it, -1: one line) whose strings are valid
// UTF-8 even where a field holds bytes that are not (a message quoting a program's stderr): those
// become U+FFFD instead of an exception. Use it wherever a run's JSON is written.
std::string JsonText(const nlohmann::json& j, int indent = -1);

}  // namespace ws
