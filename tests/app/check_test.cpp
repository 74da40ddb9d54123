// `warpscope-cli check`: the shipped assignments pass with their solutions (tests/assignments/)
// and fail with their starting programs; a folder of ten submissions, broken ones among them, gets
// the right verdict for each in one run.
#include <gtest/gtest.h>

#include "check_util.h"
#include "cli_util.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace {

namespace fs = std::filesystem;
using ws::test::kAssignments;
using ws::test::kSolutions;

using ws::test::Cli;
using ws::test::CountOf;
using ws::test::Out;
using ws::test::Slurp;

// The goals each start misses (the task), and that each solution meets all.
TEST(Check, EverySeedAssignmentPassesWithItsSolutionAndFailsWithItsStart) {
  struct Case {
    const char* name;
    std::vector<std::string> solutions;
    std::vector<std::string> missed_by_start;
  };
  for (const Case& c :
       {Case{"transpose-coalesce", {"transpose-coalesce.solution.cu"}, {"stores coalesced"}},
        Case{"transpose-banks",
             {"transpose-banks.solution.cu", "transpose-banks.swizzled.cu"},
             {"tile read conflict free"}},
        Case{"block-transpose-race",
             {"block-transpose-race.solution.cu"},
             {"no races", "output right"}},
        Case{"reduction",
             {"reduction.solution.cu"},
             {"tree requests at most 30 % of the start's"}}}) {
    SCOPED_TRACE(c.name);
    const std::string toml = (kAssignments / (std::string(c.name) + ".toml")).string();
    for (const std::string& s : c.solutions) {
      const Out r = Cli("check " + toml + " " + (kSolutions / s).string());
      SKIP_WITHOUT_SANDBOX(r);
      EXPECT_EQ(r.code, 0) << r.out;
    }
    const Out r =
        Cli("check --json " + toml + " " + (kAssignments / (std::string(c.name) + ".cu")).string());
    EXPECT_EQ(r.code, 1) << r.out;
    const auto j = nlohmann::json::parse(r.out);
    std::vector<std::string> missed;
    for (const auto& g : j["submissions"][0]["goals"])
      if (!g["met"].get<bool>()) missed.push_back(g["name"]);
    EXPECT_EQ(missed, c.missed_by_start);
  }
}

// The figures by hand. Reduction, 64 blocks of 256 threads: the interleaved tree makes 47 warp
// requests of its two loads per block (8 warps at s = 1, 2, 4, 8, 16; then 4, 2, 1) = 94, x 64 =
// 6,016; the sequential one 12 (4, 2, 1, 1, 1, 1, 1, 1) x 2 x 64 = 1,536, under 0.3 x 6,016 =
// 1,804.8. The strided index 2 s tid reads words 2 s apart: 8 lanes on one bank at s = 4: 8-way.
TEST(Check, TheReductionsFiguresAreTheHandCounts) {
  const std::string toml = (kAssignments / "reduction.toml").string();
  const Out r = Cli("check --json " + toml + " " + (kSolutions / "reduction.solution.cu").string() +
                    " " + (kSolutions / "reduction.strided.cu").string());
  SKIP_WITHOUT_SANDBOX(r);
  ASSERT_EQ(r.code, 1) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  const auto& sol = j["submissions"][0]["goals"];
  const auto& strided = j["submissions"][1]["goals"];
  EXPECT_EQ(sol[0]["value"], 1);
  EXPECT_EQ(sol[1]["value"], 1536);
  EXPECT_NE(sol[1]["text"].get<std::string>().find("at most 1,804.8 (0.3 of the start's 6,016)"),
            std::string::npos)
      << sol[1]["text"];
  EXPECT_EQ(strided[0]["value"], 8);
  EXPECT_FALSE(strided[0]["met"]);
  EXPECT_EQ(strided[1]["value"], 1536);
}

// One folder, ten submissions to the bank-conflict assignment: the two solutions, the start, the
// first assignment's solution (no tile-read marker), a conflict-free tile that writes the wrong
// element, a padded tile whose stores walk columns, a race (the barrier removed), and three that
// are broken: a compile error, an endless loop (stopped at the time limit) and a write past the
// end of the output. Each gets its own verdict; the run goes on after each failure.
TEST(Check, AFolderOfTenSubmissionsGetsAVerdictEach) {
  const fs::path dir = fs::temp_directory_path() / "ws_check_folder";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string start = Slurp(kAssignments / "transpose-banks.cu");
  const std::string padded = Slurp(kSolutions / "transpose-banks.solution.cu");
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
  };
  auto edit = [](std::string text, const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return at == std::string::npos ? text : text.replace(at, from.size(), to);
  };
  write("01-padded.cu", padded);
  write("02-swizzled.cu", Slurp(kSolutions / "transpose-banks.swizzled.cu"));
  write("03-start.cu", start);
  write("04-other-assignment.cu", Slurp(kSolutions / "transpose-coalesce.solution.cu"));
  write("05-wrong-element.cu", edit(padded, "float v = tile[threadIdx.x][threadIdx.y];",
                                    "float v = tile[threadIdx.y][threadIdx.x];"));
  write("06-uncoalesced.cu",
        edit(padded, "odata[y * height + x] = v;", "odata[x * height + y] = v;"));
  write("07-race.cu", edit(padded, "    __syncthreads();\n", ""));
  write("08-compile-error.cu", edit(padded, "float v =", "flaot v ="));
  write("09-endless.cu", edit(padded, "    __syncthreads();\n",
                              "    __syncthreads();\n    while (idata[0] >= 0.0f) {}\n"));
  write("10-out-of-range.cu",
        edit(padded, "odata[y * height + x] = v;", "odata[y * height + x + width * height] = v;"));
  const Out r = Cli("check --json --timeout 3 " + (kAssignments / "transpose-banks.toml").string() +
                    " " + dir.string());
  SKIP_WITHOUT_SANDBOX(r);
  ASSERT_EQ(r.code, 1) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["submissions"].size(), 10u);
  auto sub = [&](int i) { return j["submissions"][static_cast<std::size_t>(i)]; };
  auto goal_met = [&](int i, int g) {
    return sub(i)["goals"][static_cast<std::size_t>(g)]["met"].get<bool>();
  };
  // Goals: 0 tile read conflict free, 1 stores coalesced, 2 output right, 3 no races.
  EXPECT_TRUE(sub(0)["met"]);
  EXPECT_TRUE(sub(1)["met"]);
  EXPECT_FALSE(sub(2)["met"]);
  EXPECT_FALSE(goal_met(2, 0));
  EXPECT_TRUE(goal_met(2, 1));
  EXPECT_FALSE(goal_met(3, 0));  // no `// goal: tile-read` in it
  EXPECT_NE(sub(3)["goals"][0]["text"].get<std::string>().find("no marker `// goal: tile-read`"),
            std::string::npos);
  EXPECT_FALSE(goal_met(4, 2));  // tile[ty][tx]: the element it stored itself
  EXPECT_TRUE(goal_met(4, 0));
  EXPECT_FALSE(goal_met(5, 1));  // 32 sectors per request
  EXPECT_EQ(sub(5)["goals"][1]["value"], 32);
  EXPECT_FALSE(goal_met(6, 3));  // the race
  for (int i : {7, 8, 9}) {
    EXPECT_FALSE(sub(i)["met"]) << i;
    EXPECT_FALSE(goal_met(i, 2)) << i;
  }
  EXPECT_NE(sub(7)["failure"].get<std::string>().find("does not compile"), std::string::npos)
      << sub(7)["failure"];
  EXPECT_NE(sub(8)["failure"].get<std::string>().find("3.00 s"), std::string::npos)
      << sub(8)["failure"];
  EXPECT_NE(sub(9)["failure"].get<std::string>().find("stopped"), std::string::npos)
      << sub(9)["failure"];
  fs::remove_all(dir);
}

// The sandbox (bubblewrap): a submission that writes a file outside its scratch folder, or
// connects to a port this test listens on, fails with the reason it was given, and the file is
// not there afterwards. Unsandboxed (`run --file` without --sandbox) the same connect succeeds,
// which shows the sandbox, not the program, refused it.
TEST(Check, ASubmissionCannotWriteOutsideItsScratchFolderOrReachTheNetwork) {
  // Not under /tmp: the sandbox has a /tmp of its own, where a write would just vanish.
  const fs::path dir = fs::current_path() / "ws_check_sandbox";
  fs::remove_all(dir);
  fs::create_directories(dir / "subs");
  const fs::path victim = dir / "victim.txt";
  int listener = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(listen(listener, 4), 0);
  socklen_t len = sizeof addr;
  getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len);
  const int port = ntohs(addr.sin_port);
  const std::string start = Slurp(kSolutions / "transpose-banks.solution.cu");
  auto with_main_prefix = [&](const std::string& code) {
    std::string text = start;
    const std::size_t at = text.find("int main()\n{\n");
    EXPECT_NE(at, std::string::npos);
    text.insert(at + 13, code);
    return text;
  };
  std::ofstream(dir / "subs" / "write.cu")
      << with_main_prefix("    FILE* f = fopen(\"" + victim.string() +
                          "\", \"w\");\n"
                          "    if (f == NULL) { perror(\"fopen\"); return 1; }\n    fclose(f);\n");
  const std::string connect_code =
      "    int s = socket(AF_INET, SOCK_STREAM, 0);\n"
      "    struct sockaddr_in a = {};\n    a.sin_family = AF_INET;\n"
      "    a.sin_port = htons(" +
      std::to_string(port) +
      ");\n"
      "    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);\n"
      "    if (connect(s, (struct sockaddr*)&a, sizeof a) != 0) { perror(\"connect\"); return 1; "
      "}\n"
      "    printf(\"connected\\n\");\n";
  const std::string net =
      "#include <arpa/inet.h>\n#include <sys/socket.h>\n" + with_main_prefix(connect_code);
  std::ofstream(dir / "subs" / "network.cu") << net;
  const Out r = Cli("check --json " + (kAssignments / "transpose-banks.toml").string() + " " +
                    (dir / "subs").string());
  if (r.code == 2) close(listener);
  SKIP_WITHOUT_SANDBOX(r);
  ASSERT_EQ(r.code, 1) << r.out;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["submissions"].size(), 2u);
  const std::string net_out = j["submissions"][0]["goals"][2]["text"];  // network.cu first
  const std::string write_out = j["submissions"][1]["goals"][2]["text"];
  // Its own network namespace: its 127.0.0.1 has no listener ("Connection refused").
  EXPECT_NE(net_out.find("connect: Connection refused"), std::string::npos) << net_out;
  EXPECT_NE(write_out.find("fopen: Read-only file system"), std::string::npos) << write_out;
  EXPECT_FALSE(fs::exists(victim));
  // The same program unsandboxed reaches the port: the sandbox made the difference.
  const Out plain = Cli("run --file " + (dir / "subs" / "network.cu").string());
  EXPECT_NE(plain.out.find("connected"), std::string::npos) << plain.out;
  close(listener);
  fs::remove_all(dir);
}

// --report DIR: each submission's page, with the view of each goal site. Block 0 of the 32 x 32
// transpose has 32 warps, each reading the tile once at `// goal: tile-read`: 32 requests, the
// heatmap's 32 rows of 32 banks. The padded tile spreads a warp's 32 words over the 32 banks (1
// word each: 1,024 cells of 1); the start's column read puts all 32 in one bank (a 32 in each
// row, the other 31 x 32 = 992 cells empty). The stores' strip: 4 sectors, 128 bytes for 128.
TEST(Check, EachSubmissionsReportShowsTheViewsOfItsGoalSites) {
  const fs::path dir = fs::current_path() / "ws_check_reports";
  fs::remove_all(dir);
  const Out r = Cli("check --report " + dir.string() + " " +
                    (kAssignments / "transpose-banks.toml").string() + " " +
                    (kSolutions / "transpose-banks.solution.cu").string() + " " +
                    (kAssignments / "transpose-banks.cu").string());
  SKIP_WITHOUT_SANDBOX(r);
  ASSERT_EQ(r.code, 1) << r.out;
  const std::string solution = Slurp(dir / "transpose-banks.solution.html");
  const std::string start = Slurp(dir / "transpose-banks.html");
  EXPECT_NE(solution.find("Every goal is met."), std::string::npos);
  EXPECT_NE(start.find("Not every goal is met."), std::string::npos);
  EXPECT_NE(solution.find("block 0: worst 1-way"), std::string::npos);
  EXPECT_EQ(CountOf(solution, "data-words=\"1\""), 1024u);
  EXPECT_EQ(CountOf(solution, "data-words=\""), 1024u);
  EXPECT_NE(start.find("block 0: worst 32-way"), std::string::npos);
  EXPECT_EQ(CountOf(start, "data-words=\"32\""), 32u);
  EXPECT_EQ(CountOf(start, "data-words=\"0\""), 992u);
  for (const std::string* page : {&solution, &start}) {
    EXPECT_NE(page->find("4 sectors, 128 bytes moved for 128 asked"), std::string::npos);
    EXPECT_EQ(CountOf(*page, "class=\"sector\""), 4u);
    EXPECT_EQ(CountOf(*page, "<svg"), 2u);  // one view for each of the two goal sites
    EXPECT_NE(page->find("<figcaption>line 21, <code>tile[threadIdx.x][threadIdx.y]</code> "
                         "(load, shared), launch 1 (transpose)</figcaption>"),
              std::string::npos);
  }
  // The reduction's two goals name the same two loads (sdata[tid] and sdata[tid + s]): each is
  // drawn once, under the first goal, and the second goal points up to them.
  const Out red =
      Cli("check --report " + dir.string() + " " + (kAssignments / "reduction.toml").string() +
          " " + (kAssignments / "reduction.cu").string());
  ASSERT_EQ(red.code, 1) << red.out;
  const std::string reduction = Slurp(dir / "reduction.html");
  EXPECT_EQ(CountOf(reduction, "<svg"), 2u);
  EXPECT_EQ(CountOf(reduction, ": drawn above.</p>"), 2u);
  EXPECT_NE(reduction.find("<code>sdata[tid + s]</code> (load, shared), launch 1 (reduce)"),
            std::string::npos);
  fs::remove_all(dir);
}

// A goal whose marker is in a header (the kernel in kern.cuh, as course programs keep them) and
// whose kernel is not the launch the views show (launches: zero, scale, zero; the views show the
// last). scale's store writes 32 consecutive floats a warp: 4 sectors per request, at kern.cuh:3.
// The report draws it from launch 2 and says so (tests/assignments/in-header).
TEST(Check, AGoalInAHeaderAndAnotherLaunchIsFoundAndDrawn) {
  const fs::path dir = fs::current_path() / "ws_check_header";
  fs::remove_all(dir);
  const fs::path in = kSolutions / "in-header";
  const Out r = Cli("check --report " + (dir / "reports").string() + " " +
                    (in / "in-header.toml").string() + " " + (in / "main.cu").string());
  SKIP_WITHOUT_SANDBOX(r);
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("stores coalesced: 4 sectors per request at kern.cuh:3, at most 4: met"),
            std::string::npos)
      << r.out;
  const std::string page = Slurp(dir / "reports" / "main.html");
  EXPECT_NE(page.find("kern.cuh:3: if (i &lt; n) out[i] = 2.0f * in[i];  // goal: store"),
            std::string::npos);
  EXPECT_NE(page.find("<figcaption>kern.cuh:3, <code>out[i]</code> (store, global), launch 2 "
                      "(scale)</figcaption>"),
            std::string::npos)
      << page.substr(0, 3000);
  EXPECT_NE(page.find("4 sectors, 128 bytes moved for 128 asked"), std::string::npos);
  fs::remove_all(dir);
}

// Where bubblewrap is installed but cannot make its namespaces (user namespaces off: the kernel's
// words are bwrap's, here from a stand-in that fails as bwrap 0.8 does there), check grades
// nothing and says why in one line; run --sandbox refuses to run the program at all.
TEST(Check, WithoutUserNamespacesItRefusesInOneLine) {
  const fs::path dir = fs::current_path() / "ws_check_no_userns";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string says =
      "bwrap: No permissions to creating new namespace, likely because the kernel does not "
      "allow non-privileged user namespaces.";
  std::ofstream(dir / "bwrap") << "#!/bin/sh\necho '" << says << "' >&2\nexit 1\n";
  fs::permissions(dir / "bwrap", fs::perms::owner_all);
  const std::string env = "PATH=" + dir.string() + ":$PATH";
  const std::string start = (kAssignments / "transpose-banks.cu").string();
  const Out r = Cli("check " + (kAssignments / "transpose-banks.toml").string() + " " + start, env);
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(
      r.out,
      "warpscope-cli: check: the sandbox (bubblewrap) cannot make its namespaces here: " + says +
          " (user namespaces may be off: sysctl kernel.unprivileged_userns_clone); not "
          "grading unsandboxed\n");
  const Out run = Cli("run --sandbox --file " + start, env);
  EXPECT_NE(run.code, 0);
  EXPECT_NE(run.out.find("cannot make its namespaces here"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("the program was not run (never unsandboxed)"), std::string::npos)
      << run.out;
  EXPECT_EQ(run.out.find("elements wrong"), std::string::npos) << run.out;  // it printed nothing
  fs::remove_all(dir);
}

TEST(Check, AMistakeInTheAssignmentNamesItsLineAndKey) {
  const fs::path dir = fs::temp_directory_path() / "ws_check_bad";
  fs::create_directories(dir);
  std::ofstream(dir / "start.cu") << "int main() { return 0; }\n";
  std::ofstream(dir / "a.toml") << "title = \"A\"\nprogram = \"start.cu\"\n\n[[goal]]\n"
                                   "figure = \"sector\"\nat_most = 4\n";
  Out r = Cli("check " + (dir / "a.toml").string() + " " + (dir / "start.cu").string());
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(
      r.out.rfind("warpscope-cli: a.toml:5: goal 1: figure: 'sector' is not one of: "
                  "sectors_per_request, bank_conflict_ways, bank_conflicts, requests, hazards, "
                  "output, modeled_time, gpu_bandwidth",
                  0),
      0u)
      << r.out;
  std::ofstream(dir / "b.toml") << "title = \"B\"\nprogram = \"start.cu\"\n\n[[goal]]\n"
                                   "figure = \"hazards\"\n";
  r = Cli("check " + (dir / "b.toml").string() + " " + (dir / "start.cu").string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.out.find("b.toml:4: goal 1: at_most: a hazards goal needs at_most or at_least"),
            std::string::npos)
      << r.out;
  fs::remove_all(dir);
}

}  // namespace
