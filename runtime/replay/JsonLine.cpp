#include "JsonLine.h"

#include <cmath>
#include <cstdio>

namespace torchtidy::replay {

std::string jsonString(std::string_view text) {
  std::string quoted = "\"";
  for (char c : text) {
    switch (c) {
    case '"':
      quoted += "\\\"";
      break;
    case '\\':
      quoted += "\\\\";
      break;
    case '\n':
      quoted += "\\n";
      break;
    case '\r':
      quoted += "\\r";
      break;
    case '\t':
      quoted += "\\t";
      break;
    default:
      if (static_cast<unsigned char>(c) < 0x20) {
        char escaped[8];
        std::snprintf(escaped, sizeof escaped, "\\u%04x",
                      static_cast<unsigned>(c));
        quoted += escaped;
      } else {
        quoted += c;
      }
    }
  }
  return quoted + "\"";
}

std::string jsonReal(double value) {
  if (!std::isfinite(value))
    return "null"; // JSON has no NaN or infinity.
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  std::string number = text;
  if (number.find_first_of(".e") == std::string::npos)
    number += ".0";
  return number;
}

JsonLine &JsonLine::addRaw(std::string_view key, const std::string &json) {
  if (!members.empty())
    members += ",";
  members += jsonString(key) + ":" + json;
  return *this;
}

JsonLine &JsonLine::add(std::string_view key, std::string_view text) {
  return addRaw(key, jsonString(text));
}

JsonLine &JsonLine::add(std::string_view key, int64_t number) {
  return addRaw(key, std::to_string(number));
}

JsonLine &JsonLine::add(std::string_view key, double number) {
  return addRaw(key, jsonReal(number));
}

} // namespace torchtidy::replay
