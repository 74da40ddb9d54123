#include "core/settings.h"

#include <gtest/gtest.h>

#include <fstream>

namespace ws {
namespace {

namespace fs = std::filesystem;

class SettingsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("ws_settings_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void WriteRaw(const std::string& text) {
    fs::create_directories(dir_);
    std::ofstream(dir_ / "settings.json") << text;
  }
  fs::path dir_;
};

TEST_F(SettingsTest, MissingFileGivesDefaults) {
  std::string warning;
  Settings s = LoadSettings(dir_, &warning);
  EXPECT_EQ(s.ui_scale_percent, 100);
  EXPECT_FALSE(s.export_2x);
  EXPECT_TRUE(warning.empty());
}

TEST_F(SettingsTest, SaveThenLoadPersists) {
  Settings s;
  s.ui_scale_percent = 175;
  s.export_2x = true;
  s.screenshot_dir = "/tmp/shots";
  ASSERT_TRUE(SaveSettings(dir_, s).ok());  // creates the folder too
  std::string warning;
  Settings back = LoadSettings(dir_, &warning);
  EXPECT_EQ(back.ui_scale_percent, 175);
  EXPECT_TRUE(back.export_2x);
  EXPECT_EQ(back.screenshot_dir, fs::path("/tmp/shots"));
  EXPECT_TRUE(warning.empty()) << warning;
}

TEST_F(SettingsTest, OutOfRangeScaleIsClampedAndExplained) {
  WriteRaw(R"({"ui_scale_percent": 900})");
  std::string warning;
  Settings s = LoadSettings(dir_, &warning);
  EXPECT_EQ(s.ui_scale_percent, 300);
  EXPECT_NE(warning.find("900"), std::string::npos) << warning;
  EXPECT_NE(warning.find("100-300"), std::string::npos) << warning;
}

TEST_F(SettingsTest, BrokenJsonGivesDefaultsAndAWarning) {
  WriteRaw("{ this is not json");
  std::string warning;
  Settings s = LoadSettings(dir_, &warning);
  EXPECT_EQ(s.ui_scale_percent, 100);
  EXPECT_NE(warning.find("not valid JSON"), std::string::npos) << warning;
}

TEST_F(SettingsTest, WrongTypesAreNamed) {
  WriteRaw(R"({"ui_scale_percent": "big", "export_2x": 3, "screenshot_dir": 5})");
  std::string warning;
  Settings s = LoadSettings(dir_, &warning);
  EXPECT_EQ(s.ui_scale_percent, 100);
  EXPECT_NE(warning.find("ui_scale_percent"), std::string::npos);
  EXPECT_NE(warning.find("export_2x"), std::string::npos);
  EXPECT_NE(warning.find("screenshot_dir"), std::string::npos);
}

TEST(UiScale, ClampNamesLimitAndValue) {
  int low = 50, ok = 250, high = 301;
  EXPECT_NE(ClampUiScale(&low).find("50"), std::string::npos);
  EXPECT_EQ(low, 100);
  EXPECT_TRUE(ClampUiScale(&ok).empty());
  EXPECT_EQ(ok, 250);
  EXPECT_FALSE(ClampUiScale(&high).empty());
  EXPECT_EQ(high, 300);
}

TEST(ScreenshotName, HasPanelAndTimestamp) {
  // 2026-01-02 03:04:05 UTC; the name uses local time, so only check the shape.
  const std::string whole = ScreenshotFileName("", 1767323045);
  const std::string panel = ScreenshotFileName("banks", 1767323045);
  EXPECT_EQ(whole.rfind("warpscope-2026", 0), 0u) << whole;
  EXPECT_EQ(whole.size(), std::string("warpscope-20260102-030405.png").size());
  EXPECT_EQ(panel.rfind("warpscope-banks-2026", 0), 0u) << panel;
}

TEST(ConfigDirTest, FollowsTheEnvironment) {
  ::setenv("WARPSCOPE_CONFIG_DIR", "/tmp/ws-config-x", 1);
  EXPECT_EQ(ConfigDir(), fs::path("/tmp/ws-config-x"));
  ::unsetenv("WARPSCOPE_CONFIG_DIR");
  ::setenv("XDG_CONFIG_HOME", "/tmp/xdg", 1);
  EXPECT_EQ(ConfigDir(), fs::path("/tmp/xdg/warpscope"));
  ::unsetenv("XDG_CONFIG_HOME");
}

}  // namespace
}  // namespace ws
