// A run's figures: what a lesson computes beyond the records (the block schedule of the
// scalability lesson, the sums of fp-order, the occupancy curves...). Each lesson's figures are
// one plain struct, filled by its driver and read by its view; no view parses JSON.
//
//   struct MyFigures {                        // with the lesson, or here when a view reads it
//     static constexpr const char* kKind = "my-lesson";
//     static constexpr int kVersion = 1;      // raise it when a field changes meaning
//     double answer = 0;
//   };
//   NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(MyFigures, answer)  // the JSON the CLI prints and
//                                                         // trace files keep
//   run.figures = MakeFigures(MyFigures{42});
//   if (const MyFigures* f = run.figures_as<MyFigures>()) Draw(f->answer);
//
// Trace files keep the JSON form with its kind and version (a versioned section of the header);
// reading it back goes through the lesson's ReadFigures<T>, which turns a missing field or a
// wrong type into UnreadFigures (the view then says why it cannot draw them).
#pragma once

#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace ws {

class Figures {
 public:
  virtual ~Figures() = default;
  virtual std::string_view kind() const = 0;
  virtual int version() const = 0;
  // The figures as the CLI prints them (`lesson_metrics`) and trace files store them.
  virtual const nlohmann::json& json() const = 0;
};

// Figures of type T (a struct with kKind, kVersion and nlohmann to_json/from_json).
template <typename T>
class FiguresOf final : public Figures {
 public:
  explicit FiguresOf(T v) : value(std::move(v)) {}
  std::string_view kind() const override { return T::kKind; }
  int version() const override { return T::kVersion; }
  const nlohmann::json& json() const override {
    std::call_once(json_made_, [this] { json_ = value; });
    return json_;
  }
  const T value;

 private:
  // Made once (the lesson panel lists it every frame), when first asked: most runs' figures are
  // only read as T (a slider's redraw, the tests' thousands of runs). The occupancy lesson's
  // curves are 2,300 points, a JSON object each.
  mutable std::once_flag json_made_;
  mutable nlohmann::json json_;
};

// Figures read from a trace file that could not be read as their kind: a field missing or of
// another type (a damaged file, or one from a version whose figures differ). Views say why.
class UnreadFigures final : public Figures {
 public:
  UnreadFigures(std::string kind, int version, nlohmann::json j, std::string why)
      : kind_(std::move(kind)), version_(version), json_(std::move(j)), why_(std::move(why)) {}
  std::string_view kind() const override { return kind_; }
  int version() const override { return version_; }
  const nlohmann::json& json() const override { return json_; }
  const std::string& why() const { return why_; }

 private:
  std::string kind_;
  int version_;
  nlohmann::json json_;
  std::string why_;
};

template <typename T>
std::shared_ptr<const Figures> MakeFigures(T value) {
  return std::make_shared<const FiguresOf<T>>(std::move(value));
}

// How a lesson reads its figures back from a trace file (LessonInfo::read_figures).
using FiguresReader = std::shared_ptr<const Figures> (*)(const nlohmann::json& j, int version);

template <typename T>
std::shared_ptr<const Figures> ReadFigures(const nlohmann::json& j, int version) {
  if (version > T::kVersion) {
    return std::make_shared<const UnreadFigures>(
        T::kKind, version, j,
        "the figures are version " + std::to_string(version) + ", newer than this build's " +
            std::to_string(T::kVersion));
  }
  try {
    return MakeFigures(j.get<T>());
  } catch (const std::exception& e) {
    return std::make_shared<const UnreadFigures>(T::kKind, version, j, e.what());
  }
}

}  // namespace ws
