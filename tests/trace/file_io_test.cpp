#include "warpscope/trace/file_io.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

namespace ws {
namespace {

namespace fs = std::filesystem;

class FileIo : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ws_file_io_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static std::string Read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  int FilesIn(const fs::path& d) const {
    int n = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(d)) ++n;
    return n;
  }

  fs::path dir_;
};

TEST_F(FileIo, WritesTheBytes) {
  ASSERT_TRUE(WriteFileAtomically(dir_ / "a.txt", std::string("hello")).ok());
  EXPECT_EQ(Read(dir_ / "a.txt"), "hello");
  EXPECT_EQ(FilesIn(dir_), 1);  // no temporary left behind
}

TEST_F(FileIo, ReplacesAnExistingFileWhole) {
  ASSERT_TRUE(WriteFileAtomically(dir_ / "a.txt", std::string("a long first version")).ok());
  ASSERT_TRUE(WriteFileAtomically(dir_ / "a.txt", std::string("short")).ok());
  EXPECT_EQ(Read(dir_ / "a.txt"), "short");
}

TEST_F(FileIo, MissingFolderFailsWithThePathAndLeavesNothing) {
  const fs::path target = dir_ / "no-such-folder" / "shot.png";
  Status s = WriteFileAtomically(target, std::string("x"));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find(target.string()), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("No such file or directory"), std::string::npos) << s.message();
  EXPECT_EQ(FilesIn(dir_), 0);
}

TEST_F(FileIo, PathUnderAFileFails) {
  ASSERT_TRUE(WriteFileAtomically(dir_ / "plain", std::string("x")).ok());
  Status s = WriteFileAtomically(dir_ / "plain" / "shot.png", std::string("y"));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("Not a directory"), std::string::npos) << s.message();
  EXPECT_EQ(Read(dir_ / "plain"), "x");  // the existing file is untouched
  EXPECT_EQ(FilesIn(dir_), 1);
}

TEST_F(FileIo, AFolderAsTargetIsRefusedAndKept) {
  fs::create_directories(dir_ / "sub");
  Status s = WriteFileAtomically(dir_ / "sub", std::string("y"));
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("it is a folder"), std::string::npos) << s.message();
  EXPECT_TRUE(fs::is_directory(dir_ / "sub"));
  EXPECT_EQ(FilesIn(dir_), 1);
}

TEST_F(FileIo, EmptyNameIsRefused) {
  EXPECT_FALSE(WriteFileAtomically(fs::path(), std::string("x")).ok());
}

}  // namespace
}  // namespace ws
