// The self-contained HTML player: one page holding the player's style sheet,
// the recording and the player script (three.js bundled in at build time, see
// cmake/PlayerAssets.cmake and web/player/). It needs no server and no network.
//
// The recording is a small JSON header and one base64 block of little-endian
// binary arrays (read by web/player/recording.js). Poses are all a large scene
// needs per frame, quantised to 12 bytes a body: 1001 bodies over 121 frames
// are 1.9 MB of base64 where the JSON numbers of version 1 took 16 MB.
//
// <script type="application/json" id="pabd-data">:
//   {"format": "pabd-recording", "version": 2, "scene", "dt", "every",
//    "iterations", "threads",
//    "shapes": [{"type", ...parameters}],                (shared by bodies)
//    "bodies": [{"name", "shape": index, "static", "mass", "color": [r, g, b],
//                "hidden": true (only where a surface or cloth draws it)}],
//    "joints": [{"kind", "body_a", "body_b", "local_a": [3], "local_b": [3]}],
//                  (-1 = the world; the ends in their body's frame)
//    "frames": {"count": F, "time": [F]},
//    "surfaces": [{"name", "kind": "sand" | "water", "body" (the recorded
//                  body it replaces, or -1), "columns", "rows", "spacing",
//                  "x0", "z0", "frames": [recording frame of each height frame],
//                  "range": [lo, hi], "color": [r, g, b], "opacity"}],
//    "cloths": [{"name", "particles": [body per vertex],
//                "triangles": [3 vertex indices each], "color": [r, g, b]}],
//    "arrays": {NAME: {"type", "offset", "length"}},    (into the binary block)
//    "timing": {"collision_ms": [steps], "solve_ms": [steps]}}
// <script type="application/octet-stream" id="pabd-arrays">: base64.
//
// The arrays (frame-major: body i of frame f is element f * B + i):
//   position_range  float32 [B * 6]  per body the low and high corner of its
//                                    positions over all frames [m]
//   position        uint16  [F*B*3]  lo + (hi - lo) * u / 65535 per axis
//                                    (error <= (hi - lo) / 131070)
//   orientation     uint16  [F*B*3]  "smallest three" (smallest_three below):
//                                    the rotation to within 1e-4 rad
//   and, with contacts (`pabd run --html-contacts`), contact c of frame f for
//   c in [contact_start[f], contact_start[f + 1]):
//   contact_start   uint32  [F + 1]
//   contact_point   float32 [C * 3]  midpoint of the two surface points [m]
//   contact_normal  int8    [C * 3]  unit normal times 127
//   contact_force   float32 [C]      normal force [N], 0 when speculative
//   and per surface s (its grid: columns x rows vertices, row-major), for its
//   height frames k = 0 .. K - 1 (K = the length of its "frames"):
//   surfaceS_rect   uint16  [K * 4]  c0, r0, c1, r1: the columns [c0, c1) and
//                                    rows [r0, r1) stored for frame k (the
//                                    whole grid for k = 0); elsewhere frame k
//                                    equals frame k - 1 (sand changes where
//                                    something pressed it, so most frames
//                                    store a few cells)
//   surfaceS_height uint16  [sum of the rectangles' areas]: lo + (hi - lo) * u
//                                    / 65535 ("range"), row by row per frame
//   A cloth is drawn from its particles' poses: it needs no array.// Every array starts at a
//   multiple of 4 bytes, so the reader views it in place.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "output/markup_escape.h"
#if PABD_HAVE_PLAYER
#include "output/player_assets.h"
#endif
#include "output/recording.h"
#include "output/surface_mesh.h"
#include "shapes/shape_mesh.h"

#ifndef PABD_HAVE_PLAYER
#define PABD_HAVE_PLAYER 0
#endif

namespace pabd {
// The page's data and its helpers exist only where the player is built in.
#if PABD_HAVE_PLAYER
namespace {

using nlohmann::json;

/// x to 6 significant digits: the player draws at screen precision, and the
/// shortest round-trip form nlohmann prints is then at most ~12 characters.
double round6(double x) {
  if (!std::isfinite(x) || x == 0) return x;  // non-finite becomes null in JSON
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", x);
  return std::strtod(text, nullptr);
}

/// Timings to 4 significant digits: a plot needs no more.
double round4(double x) {
  if (!std::isfinite(x) || x == 0) return x;
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", x);
  return std::strtod(text, nullptr);
}

json vec3(Vec3 v) { return json::array({round6(v.x), round6(v.y), round6(v.z)}); }

json numbers(const std::vector<double>& v, double (*round)(double)) {
  json a = json::array();
  for (double x : v) a.push_back(round(x));
  return a;
}

json flat(const std::vector<Vec3>& v) {
  json a = json::array();
  a.get_ref<json::array_t&>().reserve(v.size() * 3);
  for (const Vec3& x : v) {
    a.push_back(round6(x.x));
    a.push_back(round6(x.y));
    a.push_back(round6(x.z));
  }
  return a;
}

// ---------------------------------------------------------------------------
// Shapes, once each: bodies of one shape share it, and the player one
// instanced mesh.

json shape_json(const ShapeDef& s) {
  switch (s.type) {
    case ShapeType::Plane:
      return {{"type", "plane"}, {"normal", vec3(s.normal)}, {"offset", round6(s.offset)}};
    case ShapeType::Box:
      return {{"type", "box"}, {"size", vec3(s.size)}};
    case ShapeType::Sphere:
      return {{"type", "sphere"}, {"radius", round6(s.radius)}};
    case ShapeType::Capsule:
      return {{"type", "capsule"},
              {"radius", round6(s.radius)},
              {"half_height", round6(s.half_height)}};
    case ShapeType::ConvexHull:
    case ShapeType::Compound:
    case ShapeType::HeightField:
    case ShapeType::TriangleMesh:
      // Drawn from shape_mesh's triangles (three corners each, body frame).
      return {{"type", "triangles"}, {"positions", flat(shape_mesh(s).positions)}};
  }
  return {{"type", "unknown"}};
}

/// Equal keys for equal shapes: the parameters, and the built data (hulls,
/// compounds, height fields, meshes) by identity, so no mesh is built twice.
using ShapeKey = std::tuple<int, double, double, double, double, double, double, double, double,
                            double, const void*>;
ShapeKey shape_key(const ShapeDef& s) {
  return {static_cast<int>(s.type),
          s.size.x,
          s.size.y,
          s.size.z,
          s.radius,
          s.half_height,
          s.normal.x,
          s.normal.y,
          s.normal.z,
          s.offset,
          s.data.get()};
}

// ---------------------------------------------------------------------------
// The binary block.

class BinaryBlock {
 public:
  /// Starts array `name` of `length` elements of `type`; returns where its bytes go.
  void begin(const std::string& name, const char* type, std::size_t length) {
    while (bytes_.size() % 4 != 0) bytes_.push_back(0);
    index_[name] = {{"type", type}, {"offset", bytes_.size()}, {"length", length}};
  }
  void u8(std::uint8_t v) { bytes_.push_back(v); }
  void u16(std::uint16_t v) {
    u8(std::uint8_t(v & 0xff));
    u8(std::uint8_t(v >> 8));
  }
  void u32(std::uint32_t v) {
    u16(std::uint16_t(v & 0xffff));
    u16(std::uint16_t(v >> 16));
  }
  void f32(double x) {
    const float f = static_cast<float>(x);
    std::uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    u32(bits);
  }
  /// Signed value in [-1, 1] as a fixed-point integer of `scale` (127, 32767).
  static long snorm(double x, long scale) {
    if (!std::isfinite(x)) return 0;
    return std::lround(std::clamp(x, -1.0, 1.0) * double(scale));
  }

  const json& index() const { return index_; }
  const std::vector<std::uint8_t>& bytes() const { return bytes_; }

 private:
  std::vector<std::uint8_t> bytes_;
  json index_ = json::object();
};

/// Low and high corner of one body's finite positions over all frames.
std::pair<Vec3, Vec3> position_range(const Recording& rec, int body) {
  const int n = rec.body_count();
  Vec3 lo{0, 0, 0}, hi{0, 0, 0};
  bool any = false;
  for (int f = 0; f < rec.frame_count(); ++f) {
    const Vec3 p = rec.position[std::size_t(f) * n + body];
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) continue;
    lo = any ? Vec3{std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)} : p;
    hi = any ? Vec3{std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)} : p;
    any = true;
  }
  return {lo, hi};
}

/// x in [lo, hi] as 0..65535 (non-finite as lo: the player has nothing better to draw).
std::uint16_t quantise(double x, double lo, double hi) {
  if (!std::isfinite(x) || !(hi > lo)) return 0;
  return static_cast<std::uint16_t>(
      std::lround(std::clamp((x - lo) / (hi - lo), 0.0, 1.0) * 65535));
}

/// A rotation in 48 bits ("smallest three"): the largest of w, x, y, z is
/// dropped (its sign made positive, so it follows from the others as
/// sqrt(1 - a^2 - b^2 - c^2)); the other three, in order, lie in
/// [-1/sqrt2, 1/sqrt2] and are kept as 15-bit fractions of that range, each
/// shifted up one bit; the dropped index is the low bits of the first two.
std::array<std::uint16_t, 3> smallest_three(Quat q0) {
  const double norm = std::sqrt(q0.w * q0.w + q0.x * q0.x + q0.y * q0.y + q0.z * q0.z);
  std::array<double, 4> q = {1, 0, 0, 0};  // non-finite: drawn unrotated
  if (std::isfinite(norm) && norm > 0) q = {q0.w / norm, q0.x / norm, q0.y / norm, q0.z / norm};
  int largest = 0;
  for (int k = 1; k < 4; ++k)
    if (std::abs(q[std::size_t(k)]) > std::abs(q[std::size_t(largest)])) largest = k;
  const double sign = q[std::size_t(largest)] < 0 ? -1 : 1;
  std::array<std::uint16_t, 3> out{};
  for (int k = 0, slot = 0; k < 4; ++k) {
    if (k == largest) continue;
    const double x = std::clamp(sign * q[std::size_t(k)] * std::sqrt(2.0), -1.0, 1.0);
    out[std::size_t(slot++)] = static_cast<std::uint16_t>(std::lround((x + 1) / 2 * 32767) << 1);
  }
  out[0] |= static_cast<std::uint16_t>(largest & 1);
  out[1] |= static_cast<std::uint16_t>(largest >> 1);
  return out;
}

void write_poses(const Recording& rec, BinaryBlock& block) {
  const int n = rec.body_count(), frames = rec.frame_count();
  std::vector<std::pair<Vec3, Vec3>> range;
  block.begin("position_range", "float32", std::size_t(n) * 6);
  for (int i = 0; i < n; ++i) {
    range.push_back(position_range(rec, i));
    const auto [lo, hi] = range.back();
    for (double x : {lo.x, lo.y, lo.z, hi.x, hi.y, hi.z}) block.f32(x);
  }
  block.begin("position", "uint16", std::size_t(frames) * n * 3);
  for (int f = 0; f < frames; ++f)
    for (int i = 0; i < n; ++i) {
      const Vec3 p = rec.position[std::size_t(f) * n + i];
      const auto [lo, hi] = range[std::size_t(i)];
      block.u16(quantise(p.x, lo.x, hi.x));
      block.u16(quantise(p.y, lo.y, hi.y));
      block.u16(quantise(p.z, lo.z, hi.z));
    }
  block.begin("orientation", "uint16", std::size_t(frames) * n * 3);
  for (const Quat& q : rec.orientation) {
    const std::array<std::uint16_t, 3> packed = smallest_three(q);
    for (std::uint16_t u : packed) block.u16(u);
  }
}

void write_contacts(const Recording& rec, BinaryBlock& block) {
  block.begin("contact_start", "uint32", rec.contact_start.size());
  for (int start : rec.contact_start) block.u32(static_cast<std::uint32_t>(start));
  block.begin("contact_point", "float32", rec.contacts.size() * 3);
  for (const RecordedContact& c : rec.contacts)
    for (double x : {c.point.x, c.point.y, c.point.z}) block.f32(x);
  block.begin("contact_normal", "int8", rec.contacts.size() * 3);
  for (const RecordedContact& c : rec.contacts)
    for (double x : {c.normal.x, c.normal.y, c.normal.z})
      block.u8(static_cast<std::uint8_t>(BinaryBlock::snorm(x, 127)));
  block.begin("contact_force", "float32", rec.contacts.size());
  for (const RecordedContact& c : rec.contacts) block.f32(c.normal_force);
}

/// Low and high of a surface's finite heights (0, 0 when none is).
std::pair<double, double> height_range(const RecordedSurface& s) {
  double lo = 0, hi = 0;
  bool any = false;
  for (float h : s.height) {
    if (!std::isfinite(h)) continue;
    lo = any ? std::min(lo, double(h)) : h;
    hi = any ? std::max(hi, double(h)) : h;
    any = true;
  }
  return {lo, hi};
}

/// Surface `index`'s height frames: each the rectangle of vertices that
/// differ (quantised) from the frame before, the first one whole.
void write_surface(const RecordedSurface& s, int index, BinaryBlock& block) {
  const auto [lo, hi] = height_range(s);
  std::vector<std::uint16_t> q(s.height.size());
  for (std::size_t i = 0; i < q.size(); ++i) q[i] = quantise(s.height[i], lo, hi);
  const int frames = s.frame_count(), w = s.columns;
  const std::size_t n = s.vertex_count();
  std::vector<std::array<int, 4>> rects;
  std::size_t stored = 0;
  for (int k = 0; k < frames; ++k) {
    std::array<int, 4> r = {0, 0, s.columns, s.rows};
    if (k > 0) {
      r = {s.columns, s.rows, 0, 0};
      const std::uint16_t* a = q.data() + std::size_t(k - 1) * n;
      const std::uint16_t* b = a + n;
      for (int row = 0; row < s.rows; ++row)
        for (int c = 0; c < w; ++c)
          if (a[std::size_t(row) * std::size_t(w) + std::size_t(c)] !=
              b[std::size_t(row) * std::size_t(w) + std::size_t(c)])
            r = {std::min(r[0], c), std::min(r[1], row), std::max(r[2], c + 1),
                 std::max(r[3], row + 1)};
      if (r[2] == 0) r = {0, 0, 0, 0};  // nothing changed
    }
    rects.push_back(r);
    stored += std::size_t(r[2] - r[0]) * std::size_t(r[3] - r[1]);
  }
  const std::string name = "surface" + std::to_string(index);
  block.begin(name + "_rect", "uint16", rects.size() * 4);
  for (const auto& r : rects)
    for (int v : r) block.u16(static_cast<std::uint16_t>(v));
  block.begin(name + "_height", "uint16", stored);
  for (int k = 0; k < frames; ++k) {
    const auto& r = rects[std::size_t(k)];
    for (int row = r[1]; row < r[3]; ++row)
      for (int c = r[0]; c < r[2]; ++c)
        block.u16(q[std::size_t(k) * n + std::size_t(row) * std::size_t(w) + std::size_t(c)]);
  }
}

std::string base64(const std::vector<std::uint8_t>& bytes) {
  static const char* digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t k = 0; k < bytes.size(); k += 3) {
    const std::uint32_t b0 = bytes[k];
    const std::uint32_t b1 = k + 1 < bytes.size() ? bytes[k + 1] : 0;
    const std::uint32_t b2 = k + 2 < bytes.size() ? bytes[k + 2] : 0;
    const std::uint32_t v = (b0 << 16) | (b1 << 8) | b2;
    out += digits[(v >> 18) & 63];
    out += digits[(v >> 12) & 63];
    out += k + 1 < bytes.size() ? digits[(v >> 6) & 63] : '=';
    out += k + 2 < bytes.size() ? digits[v & 63] : '=';
  }
  return out;
}

// ---------------------------------------------------------------------------
// The header.

json surfaces_json(const Recording& rec) {
  json out = json::array();
  for (const RecordedSurface& s : rec.surfaces) {
    const bool water = s.kind == SurfaceKind::Water;
    const auto [lo, hi] = height_range(s);
    out.push_back({{"name", s.name},
                   {"kind", water ? "water" : "sand"},
                   {"body", s.body},
                   {"columns", s.columns},
                   {"rows", s.rows},
                   {"spacing", s.spacing},
                   {"x0", s.x0},
                   {"z0", s.z0},
                   {"frames", s.frame},
                   {"range", {lo, hi}},
                   {"color", vec3(water ? kWaterColor : kSandColor)},
                   {"opacity", water ? kWaterOpacity : 1.0}});
  }
  return out;
}

/// Cloths with triangles of cloth vertices (the particles' order).
json cloths_json(const Recording& rec) {
  json out = json::array();
  std::vector<int> vertex(rec.bodies.size(), -1);
  for (const RecordedCloth& c : rec.cloths) {
    json particles = json::array(), triangles = json::array();
    for (int b : c.particles)
      if (b >= 0 && vertex[std::size_t(b)] < 0) {
        vertex[std::size_t(b)] = int(particles.size());
        particles.push_back(b);
      }
    for (int b : c.triangles) triangles.push_back(vertex[std::size_t(b)]);
    for (int b : c.particles)
      if (b >= 0) vertex[std::size_t(b)] = -1;
    out.push_back({{"name", c.name},
                   {"particles", std::move(particles)},
                   {"triangles", std::move(triangles)},
                   {"color", vec3(kClothColor)}});
  }
  return out;
}

json header_json(const Recording& rec, const json& arrays) {
  json shapes = json::array();
  std::map<ShapeKey, int> shape_index;
  json bodies = json::array();
  const std::vector<bool> hidden = rec.drawn_by_field();
  for (int i = 0; i < rec.body_count(); ++i) {
    const RecordedBody& b = rec.bodies[std::size_t(i)];
    // A body a surface draws (the sand's height field) is not drawn itself:
    // its mesh, a large one, is left out.
    const bool surface = hidden[std::size_t(i)] && b.shape.type == ShapeType::HeightField;
    const ShapeKey key =
        surface ? ShapeKey{-1, 0, 0, 0, 0, 0, 0, 0, 0, 0, nullptr} : shape_key(b.shape);
    const auto [at, added] = shape_index.try_emplace(key, int(shapes.size()));
    if (added) shapes.push_back(surface ? json{{"type", "none"}} : shape_json(b.shape));
    const Vec3 c = body_color(i, b.is_static);  // the viewer's and glTF's colours
    json body = {{"name", b.name},
                 {"shape", at->second},
                 {"static", b.is_static},
                 {"mass", round6(b.mass)},
                 {"color", vec3(c)}};
    if (hidden[std::size_t(i)]) body["hidden"] = true;
    bodies.push_back(std::move(body));
  }
  json joints = json::array();
  for (const RecordedJoint& j : rec.joints)
    joints.push_back({{"kind", joint_kind_name(j.kind)},
                      {"body_a", j.body_a},
                      {"body_b", j.body_b},
                      {"local_a", vec3(j.local_a)},
                      {"local_b", vec3(j.local_b)}});
  return {{"format", "pabd-recording"},
          {"version", 2},
          {"scene", rec.scene},
          {"dt", rec.dt},
          {"every", rec.every},
          {"iterations", rec.iterations},
          {"threads", rec.threads},
          {"shapes", std::move(shapes)},
          {"bodies", std::move(bodies)},
          {"joints", std::move(joints)},
          {"frames", {{"count", rec.frame_count()}, {"time", numbers(rec.frame_time, round6)}}},
          {"surfaces", surfaces_json(rec)},
          {"cloths", cloths_json(rec)},
          {"arrays", arrays},
          {"timing",
           {{"collision_ms", numbers(rec.step_collision_ms, round4)},
            {"solve_ms", numbers(rec.step_solve_ms, round4)}}}};
}

/// JSON that is safe inside <script>: every '<' becomes \u003c (only strings
/// can hold one, and the escape means the same there), so no "</script>" or
/// "<!--" can end or confuse the element. Invalid UTF-8 in names is replaced.
std::string script_safe_json(const json& j) {
  const std::string text = j.dump(-1, ' ', false, json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '<')
      out += "\\u003c";
    else
      out += c;
  }
  return out;
}

}  // namespace
#endif

bool html_player_built() { return PABD_HAVE_PLAYER != 0; }

void write_html(const Recording& rec, const std::string& path) {
#if !PABD_HAVE_PLAYER
  (void)rec;
  throw Error(path + ": " + kNoPlayer);
#else
  BinaryBlock block;
  write_poses(rec, block);
  if (rec.has_contacts) write_contacts(rec, block);
  for (std::size_t s = 0; s < rec.surfaces.size(); ++s)
    write_surface(rec.surfaces[s], static_cast<int>(s), block);

  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw Error(path + ": cannot write the HTML player (cannot open the file)");
  out << "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      << "<meta name=\"generator\" content=\"pabd\">\n"
      << "<title>" << escape_markup(rec.scene.empty() ? "pabd" : rec.scene) << " - pabd player"
      << "</title>\n<style>\n";
  out.write(reinterpret_cast<const char*>(kPlayerCss), std::streamsize(kPlayerCssSize));
  out << "</style>\n</head>\n<body>\n<script type=\"application/json\" id=\"pabd-data\">"
      << script_safe_json(header_json(rec, block.index()))
      << "</script>\n<script type=\"application/octet-stream\" id=\"pabd-arrays\">"
      << base64(block.bytes()) << "</script>\n<script>\n";
  out.write(reinterpret_cast<const char*>(kPlayerJs), std::streamsize(kPlayerJsSize));
  out << "</script>\n</body>\n</html>\n";
  out.flush();
  if (!out) throw Error(path + ": cannot write the HTML player (write failed)");
#endif
}

}  // namespace pabd
