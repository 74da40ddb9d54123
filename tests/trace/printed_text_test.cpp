// What a program printed, made safe to keep and to show (trace/printed_text.h): the UTF-8 rules
// by hand, the escapes, the notes, and random bytes that never make JSON throw.
#include "warpscope/trace/printed_text.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "warpscope/trace/program_record.h"

namespace ws {
namespace {

const std::string kFffd = "\xEF\xBF\xBD";

// Each case: the bytes, what they become, and how many were replaced, by the rules of RFC 3629
// and Unicode's table 3-7 (the second byte's range after E0, ED, F0 and F4).
TEST(PrintedText, ValidUtf8ReplacesEachByteOfABadSequence) {
  struct Case {
    std::string in, out;
    std::uint64_t replaced;
  };
  const std::string nul("a\0b", 3);
  for (const Case& c : {
           Case{"plain ASCII\n", "plain ASCII\n", 0}, Case{nul, nul, 0},  // NUL is valid UTF-8
           Case{"\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80", "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80", 0},
           Case{"\x80", kFffd, 1},                                      // a lone continuation
           Case{"\xFF\xFE", kFffd + kFffd, 2},                          // never in UTF-8
           Case{"\xC0\xAF", kFffd + kFffd, 2},                          // overlong '/'
           Case{"\xE0\x80\xAF", kFffd + kFffd + kFffd, 3},              // overlong, 3 bytes
           Case{"\xED\xA0\x80", kFffd + kFffd + kFffd, 3},              // a surrogate, U+D800
           Case{"\xF4\x90\x80\x80", kFffd + kFffd + kFffd + kFffd, 4},  // U+110000
           Case{"\xE2\x82 x", kFffd + kFffd + " x", 2},                 // cut short
           Case{"ok\xE2\x82", "ok" + kFffd + kFffd, 2},                 // cut short at the end
       }) {
    const Utf8Text t = ValidUtf8(c.in);
    EXPECT_EQ(t.text, c.out) << c.in;
    EXPECT_EQ(t.replaced, c.replaced) << c.in;
  }
}

// Newline and tab stay; the other C0 controls and DEL become \xNN, the C1 controls \u00NN; other
// text, valid multi-byte characters included, is unchanged.
TEST(PrintedText, VisibleControlsWritesControlCharactersOut) {
  const std::string in = std::string("a\tb\n", 4) + std::string("\0", 1) + "\x1b[2J\r\x7f" +
                         "\xC2\x9B" + "\xC2\xA0" + "\xC3\xA9";
  EXPECT_EQ(VisibleControls(in), "a\tb\n\\x00\\x1b[2J\\x0d\\x7f\\u009b\xC2\xA0\xC3\xA9");
}

// The notes, in the words the CLI, the JSON and the app show.
TEST(PrintedText, TheNoteSaysWhatWasReplacedAndWhatWasCut) {
  ProgramRecord p;
  p.stdout_text = "ok\n";
  EXPECT_EQ(ProgramStdout(p).note, "");
  p.stdout_text = "\xFF ok \x80\x80\n";  // 3 bytes not UTF-8
  PrintedText t = ProgramStdout(p);
  EXPECT_EQ(t.note, "3 bytes that are not UTF-8 shown as U+FFFD");
  EXPECT_EQ(t.text, kFffd + " ok " + kFffd + kFffd + "\n");
  p.stdout_text = std::string(1000, 'x');
  p.stdout_cut_bytes = 2500;
  EXPECT_EQ(ProgramStdout(p).note,
            "cut at the output limit: 1,000 bytes kept, 2,500 more printed and not kept");
  // A trace file keeps valid UTF-8 and the count it replaced: the note is the same after it.
  p.stdout_text = "\x80";
  p.stdout_cut_bytes = 0;
  p.stdout_replaced_bytes = 4;  // the file's earlier replacements, plus this one
  EXPECT_EQ(ProgramStdout(p).note, "5 bytes that are not UTF-8 shown as U+FFFD");
}

// nlohmann's dump throws on a string that is not UTF-8; JsonText writes U+FFFD instead.
TEST(PrintedText, JsonTextNeverThrowsOnAStrayByte) {
  const nlohmann::json j = {{"stderr", "bad \xC0 byte"}};
  EXPECT_THROW((void)j.dump(), nlohmann::json::type_error);
  EXPECT_EQ(JsonText(j), "{\"stderr\":\"bad " + kFffd + " byte\"}");
}

// Random bytes, every value from 0 to 255 and runs of the bytes that start sequences (so that
// cut-short and overlong forms come up often): ValidUtf8 makes text that nlohmann's strict dump
// takes and that round-trips, keeps every valid byte (the count of bytes out is the bytes in plus
// two for each one replaced by the three-byte U+FFFD), and VisibleControls leaves no control
// byte but newline and tab.
TEST(PrintedText, RandomBytesAlwaysBecomeJsonThatRoundTrips) {
  std::mt19937 rng(20261128);
  std::uniform_int_distribution<int> byte(0, 255), len(0, 200), pick(0, 3);
  const unsigned char leads[] = {0xC2, 0xE0, 0xED, 0xF0, 0xF4, 0x80, 0xBF, 0x1B};
  for (int round = 0; round < 2000; ++round) {
    std::string in;
    const int n = len(rng);
    for (int i = 0; i < n; ++i)
      in += static_cast<char>(pick(rng) == 0 ? leads[static_cast<std::size_t>(byte(rng)) % 8]
                                             : byte(rng));
    const Utf8Text t = ValidUtf8(in);
    std::string dumped;
    ASSERT_NO_THROW(dumped = nlohmann::json(t.text).dump()) << round;
    EXPECT_EQ(nlohmann::json::parse(dumped).get<std::string>(), t.text) << round;
    EXPECT_EQ(t.text.size(), in.size() + 2 * t.replaced) << round;
    for (const char c : VisibleControls(t.text)) {
      const auto u = static_cast<unsigned char>(c);
      EXPECT_TRUE((u >= 0x20 && u != 0x7F) || c == '\n' || c == '\t') << round << ": " << int{u};
    }
  }
}

}  // namespace
}  // namespace ws
