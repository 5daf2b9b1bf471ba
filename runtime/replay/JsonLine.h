// One JSON object written on one line: torchtidy replay reads exactly one
// such line from torchtidy-replay's stdout.
#ifndef TORCHTIDY_REPLAY_JSONLINE_H
#define TORCHTIDY_REPLAY_JSONLINE_H

#include <cstdint>
#include <string>
#include <string_view>

namespace torchtidy::replay {

/// A JSON string literal, quotes included, with every character JSON
/// requires escaped.
std::string jsonString(std::string_view text);

/// A JSON number that always reads as a floating-point value ("1.0", not
/// "1"), so readers see the same type whatever the value.
std::string jsonReal(double value);

/// Builds `{"key":value,...}` in insertion order.
class JsonLine {
public:
  JsonLine &add(std::string_view key, std::string_view text);
  JsonLine &add(std::string_view key, const char *text) {
    return add(key, std::string_view(text));
  }
  JsonLine &add(std::string_view key, int64_t number);
  JsonLine &add(std::string_view key, double number);

  /// The object, without a trailing newline.
  std::string str() const { return "{" + members + "}"; }

private:
  JsonLine &addRaw(std::string_view key, const std::string &json);
  std::string members;
};

} // namespace torchtidy::replay

#endif
