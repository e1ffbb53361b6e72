// The strict reader of scene files' JSON trees, shared by the parts of the
// parser (scene_parse.cpp: settings, bodies, joints; scene_fields.cpp: sand,
// water, wind, cloth): JSON Pointer paths, the one error format
// "FILE: /json/pointer: expected ...", and type- and range-checked values.
#pragma once

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "pabd/scene.h"

namespace pabd::scene_reader {

using nlohmann::json;

// ---------------------------------------------------------------------------
// JSON Pointer paths and the one error format.

/// Appends one reference token to a JSON Pointer (RFC 6901 escapes '~' and '/').
inline std::string child(const std::string& path, const std::string& key) {
  std::string out = path + "/";
  for (char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}
inline std::string child(const std::string& path, std::size_t index) {
  return path + "/" + std::to_string(index);
}

/// The whole document is the empty pointer; print it as "/" so the line reads well.
inline std::string shown(const std::string& path) { return path.empty() ? "/" : path; }

/// Keeps messages on one line and of bounded length.
inline std::string one_line(std::string s, std::size_t max_len = 200) {
  for (char& c : s)
    if (c == '\n' || c == '\r') c = ' ';
  if (s.size() > max_len) s = s.substr(0, max_len) + "...";
  return s;
}

[[noreturn]] inline void fail(const std::string& file, const std::string& path,
                              const std::string& what) {
  throw SceneError(one_line(file + ": " + shown(path) + ": " + what, 400));
}

/// Short description of a value for "got ..." in messages.
inline std::string describe(const json& v) {
  switch (v.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::object:
      return "an object";
    case json::value_t::array:
      return "an array of " + std::to_string(v.size());
    default:
      return one_line(v.dump(), 40);
  }
}

inline Real max_abs(Vec3 v) { return std::max({std::fabs(v.x), std::fabs(v.y), std::fabs(v.z)}); }

/// v / s component-wise (not v * (1/s): 1/s overflows for a subnormal s).
inline Vec3 scaled(Vec3 v, Real s) { return {v.x / s, v.y / s, v.z / s}; }

/// |v| without overflow or underflow for huge or tiny components (scaled by the largest).
inline Real safe_length(Vec3 v) {
  const Real s = max_abs(v);
  return s == 0 ? 0 : s * length(scaled(v, s));
}

/// Which numbers a key accepts.
enum class Range { Any, Positive, NonNegative, UnitInterval };

class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail_at(const std::string& path, const std::string& what) const {
    fail(file_, path, what);
  }

  /// Rejects keys outside `allowed`; names the allowed ones in the message.
  void check_object(const json& v, const std::string& path, const char* what,
                    std::initializer_list<const char*> allowed) const {
    if (!v.is_object()) fail_at(path, std::string("expected ") + what + ", got " + describe(v));
    for (const auto& [key, value] : v.items()) {
      bool known = false;
      for (const char* a : allowed) known = known || key == a;
      if (known) continue;
      std::string list;
      for (const char* a : allowed) list += std::string(list.empty() ? "" : ", ") + a;
      fail_at(child(path, key), "expected one of the keys " + list + ", got an unknown key");
    }
  }

  /// The value of a required key.
  const json& required(const json& obj, const std::string& path, const char* key,
                       const char* what) const {
    if (!obj.contains(key))
      fail_at(child(path, key), std::string("expected ") + what + ", but the key is missing");
    return obj.at(key);
  }

  Real number(const json& v, const std::string& path, Range range) const {
    const char* what = range == Range::Positive       ? "a positive finite number"
                       : range == Range::NonNegative  ? "a non-negative finite number"
                       : range == Range::UnitInterval ? "a number in [0, 1]"
                                                      : "a finite number";
    if (!v.is_number()) fail_at(path, std::string("expected ") + what + ", got " + describe(v));
    const Real x = v.get<Real>();
    const bool ok =
        std::isfinite(x) && (range == Range::Any || (range == Range::Positive && x > 0) ||
                             (range == Range::NonNegative && x >= 0) ||
                             (range == Range::UnitInterval && x >= 0 && x <= 1));
    if (!ok) fail_at(path, std::string("expected ") + what + ", got " + describe(v));
    return x;
  }

  /// An integer in [min, max] (a float such as 20.0 is rejected: counts are integers).
  long long integer(const json& v, const std::string& path, long long min, long long max) const {
    const std::string what =
        "an integer from " + std::to_string(min) + " to " + std::to_string(max);
    bool ok = false;
    long long x = 0;
    if (v.is_number_unsigned()) {
      ok = v.get<unsigned long long>() <= static_cast<unsigned long long>(max);
      x = ok ? static_cast<long long>(v.get<unsigned long long>()) : 0;
    } else if (v.is_number_integer()) {
      x = v.get<long long>();
      ok = true;
    }
    if (!ok || x < min || x > max) fail_at(path, "expected " + what + ", got " + describe(v));
    return x;
  }

  bool boolean(const json& v, const std::string& path) const {
    if (!v.is_boolean()) fail_at(path, "expected true or false, got " + describe(v));
    return v.get<bool>();
  }

  std::string text(const json& v, const std::string& path) const {
    if (!v.is_string()) fail_at(path, "expected a string, got " + describe(v));
    return v.get<std::string>();
  }

  Vec3 vec3(const json& v, const std::string& path) const {
    if (!v.is_array() || v.size() != 3)
      fail_at(path, "expected an array of 3 numbers, got " + describe(v));
    Real c[3];
    for (std::size_t i = 0; i < 3; ++i) c[i] = number(v[i], child(path, i), Range::Any);
    return {c[0], c[1], c[2]};
  }

  /// A non-zero direction, returned with unit length.
  Vec3 direction(const json& v, const std::string& path) const {
    const Vec3 d = vec3(v, path);
    const Real s = max_abs(d);
    if (s == 0) fail_at(path, "expected a non-zero vector, got [0, 0, 0]");
    const Vec3 u = scaled(d, s);
    return (1 / length(u)) * u;
  }

  /// [w, x, y, z], normalised; the zero quaternion is not a rotation.
  Quat quaternion(const json& v, const std::string& path) const {
    if (!v.is_array() || v.size() != 4)
      fail_at(path, "expected an array of 4 numbers [w, x, y, z], got " + describe(v));
    Real c[4];
    for (std::size_t i = 0; i < 4; ++i) c[i] = number(v[i], child(path, i), Range::Any);
    const Real s = std::max({std::fabs(c[0]), std::fabs(c[1]), std::fabs(c[2]), std::fabs(c[3])});
    if (s == 0) fail_at(path, "expected a non-zero quaternion, got [0, 0, 0, 0]");
    return normalized(Quat{c[0] / s, c[1] / s, c[2] / s, c[3] / s});
  }

  // Optional keys: leave `out` (the default) alone when the key is absent.
  void opt_number(const json& obj, const std::string& path, const char* key, Range r,
                  Real& out) const {
    if (obj.contains(key)) out = number(obj.at(key), child(path, key), r);
  }
  void opt_vec3(const json& obj, const std::string& path, const char* key, Vec3& out) const {
    if (obj.contains(key)) out = vec3(obj.at(key), child(path, key));
  }

  /// The scene file's label (its path when loaded from a file).
  const std::string& file() const { return file_; }

 private:
  std::string file_;
};

/// An optional key naming one of `choices` ("expected \"a\" or \"b\"" otherwise).
template <typename E>
void opt_choice(const Reader& r, const json& s, const std::string& path, const std::string& key,
                std::initializer_list<std::pair<const char*, E>> choices, E& out) {
  if (!s.contains(key)) return;
  const std::string value = r.text(s.at(key), child(path, key));
  std::string expected;  // "a" or "b"; "a", "b" or "c"
  std::size_t at = 0;
  for (const auto& [name, e] : choices) {
    if (value == name) {
      out = e;
      return;
    }
    if (at > 0) expected += at + 1 == choices.size() ? " or " : ", ";
    expected += std::string("\"") + name + "\"";
    ++at;
  }
  r.fail_at(child(path, key), "expected " + expected + ", got " + describe(s.at(key)));
}

}  // namespace pabd::scene_reader
