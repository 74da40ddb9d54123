// Whatever bytes a program prints, warpscope-cli keeps them safely (trace/printed_text.h): its
// JSON is valid and round-trips, its text shows control characters instead of sending them to
// the terminal, a trace file keeps the output and its note, and output past the limit is said to
// be cut, with the byte counts. The program is tests/programs/prints_bytes.cu.
#include <gtest/gtest.h>

#include "cli_util.h"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>

namespace {

namespace fs = std::filesystem;
using ws::test::Cli;
using ws::test::CountOf;
using ws::test::Out;

const std::string kProgram =
    (fs::path(WARPSCOPE_SOURCE_DIR) / "tests" / "programs" / "prints_bytes.cu").string();
const std::string kFffd = "\xEF\xBF\xBD";

// The note's count of replaced bytes ("57 bytes that are not UTF-8 shown as U+FFFD"), or -1.
long long ReplacedIn(const std::string& note) {
  std::smatch m;
  if (!std::regex_search(note, m, std::regex(R"(^([0-9,]+) bytes? (that )?(is|are) not UTF-8)")))
    return -1;
  std::string digits = m[1];
  digits.erase(std::remove(digits.begin(), digits.end(), ','), digits.end());
  return std::stoll(digits);
}

// --json: exit 0 (it printed, it did not fail), one JSON object that parses, dumps strictly and
// parses back to itself; the markers around the random bytes are there, and the note's count is
// the number of U+FFFD in the output (the program never prints a real one: no 0xEF). The kinds
// line alone has 9 bytes that are not UTF-8 (80, BF; C0 AF; ED A0 80; E2 82), so at least 9.
TEST(CliBytes, AProgramsRandomBytesGiveValidJsonThatRoundTrips) {
  const Out r = Cli("run --file " + kProgram + " --json");
  ASSERT_EQ(r.code, 0) << r.out.substr(0, 2000);
  nlohmann::json j;
  ASSERT_NO_THROW(j = nlohmann::json::parse(r.out)) << r.out.substr(0, 2000);
  EXPECT_EQ(nlohmann::json::parse(j.dump()), j);  // strict dump: throws on invalid UTF-8
  const std::string out = j["stdout"];
  EXPECT_EQ(out.rfind("<<begin>>\n", 0), 0u) << out.substr(0, 200);
  EXPECT_NE(out.find("\n<<end>>\n"), std::string::npos);
  EXPECT_NE(out.find(std::string("\x1b[2J")), std::string::npos);  // JSON escapes it, keeps it
  EXPECT_NE(out.find("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"), std::string::npos);  // é€😀 kept
  ASSERT_TRUE(j.contains("stdout_note")) << j.dump(2).substr(0, 2000);
  const long long replaced = ReplacedIn(j["stdout_note"]);
  EXPECT_GE(replaced, 9) << j["stdout_note"];
  EXPECT_EQ(static_cast<long long>(CountOf(out, kFffd)), replaced);
}

// Text mode: no byte a terminal obeys (below 0x20 but newline and tab, DEL, a C1 control) reaches
// it; the escape sequences are shown as \x1b, NUL as \x00, CR as \x0d; the note follows.
TEST(CliBytes, TextModeShowsControlCharactersInsteadOfSendingThem) {
  const Out r = Cli("run --file " + kProgram);
  ASSERT_EQ(r.code, 0) << r.out.substr(0, 2000);
  for (std::size_t i = 0; i < r.out.size(); ++i) {
    const auto u = static_cast<unsigned char>(r.out[i]);
    ASSERT_TRUE((u >= 0x20 && u != 0x7F) || u == '\n' || u == '\t')
        << "byte " << int{u} << " at " << i;
    if (u == 0xC2 && i + 1 < r.out.size()) {
      ASSERT_GE(static_cast<unsigned char>(r.out[i + 1]), 0xA0) << "a C1 control at " << i;
    }
  }
  EXPECT_NE(r.out.find("\\x1b[2J\\x1b[31mred\\x1b[0m\\x0dCR\\x7f\\u009b"), std::string::npos)
      << r.out.substr(0, 2000);
  EXPECT_NE(r.out.find("\\x00\n<<end>>\n"), std::string::npos);
  EXPECT_NE(r.out.find(" not UTF-8 shown as U+FFFD)\n"), std::string::npos);
}

// 1.5 MiB printed (prints_bytes flood: 24,576 lines of 64 bytes = 1,572,864) against the 1 MiB
// output limit (ProgramOptions::output_limit_bytes, 1,048,576): 524,288 bytes not kept, said in
// the JSON and the text.
TEST(CliBytes, OutputPastTheLimitIsSaidToBeCutWithTheByteCounts) {
  const std::string note =
      "cut at the output limit: 1,048,576 bytes kept, 524,288 more printed and not kept";
  const Out r = Cli("run --file " + kProgram + " --arg flood --json");
  ASSERT_EQ(r.code, 0) << r.out.substr(0, 2000);
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["stdout_note"], note);
  EXPECT_EQ(j["stdout"].get<std::string>().size(), 1048576u);
  const Out text = Cli("run --file " + kProgram + " --arg flood");
  ASSERT_EQ(text.code, 0);
  EXPECT_NE(text.out.find("(" + note + ")\n"), std::string::npos)
      << text.out.substr(text.out.size() - std::min<std::size_t>(text.out.size(), 500));
}

// A trace file of the run keeps the output as valid UTF-8 and its note: `show --json` gives what
// `run --json` gave.
TEST(CliBytes, ATraceFileKeepsTheOutputAndItsNote) {
  const fs::path trace = fs::current_path() / "ws_cli_bytes.wstrace";
  fs::remove(trace);
  const Out cap = Cli("capture --file " + kProgram + " -o " + trace.string());
  ASSERT_EQ(cap.code, 0) << cap.out.substr(0, 2000);
  const Out shown = Cli("show " + trace.string() + " --json");
  ASSERT_EQ(shown.code, 0) << shown.out.substr(0, 2000);
  const auto from_trace = nlohmann::json::parse(shown.out);
  const auto live = nlohmann::json::parse(Cli("run --file " + kProgram + " --json").out);
  EXPECT_EQ(from_trace["stdout"], live["stdout"]);
  EXPECT_EQ(from_trace["stdout_note"], live["stdout_note"]);
  fs::remove(trace);
}

}  // namespace
