// The self-contained HTML player: one page holding the player's style sheet,
// the recording as JSON and the player script (three.js bundled in at build
// time, see cmake/PlayerAssets.cmake and web/player/). It needs no server and
// no network.
//
// The JSON (read by web/player/recording.js):
//   {"format": "pabd-recording", "version": 1, "scene", "dt", "every",
//    "iterations", "threads",
//    "bodies": [{"name", "shape": {"type", ...parameters}, "static", "mass",
//                "color": [r, g, b]}],
//    "joints": [{"kind", "body_a", "body_b"}],          (-1 = the world)
//    "frames": {"time": [F], "position": [F*B*3], "orientation": [F*B*4, w x y z],
//               "velocity": [F*B*3], "angular_velocity": [F*B*3],
//               "joint_a": [F*J*3], "joint_b": [F*J*3]},  (frame-major)
//    "timing": {"collision_ms": [steps], "solve_ms": [steps]}}
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "output/markup_escape.h"
#if PABD_HAVE_PLAYER
#include "output/player_assets.h"
#endif
#include "output/recording.h"
#include "output/shape_mesh.h"

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

json flat(const std::vector<Vec3>& v);

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

json flat(const std::vector<Quat>& v) {
  json a = json::array();
  a.get_ref<json::array_t&>().reserve(v.size() * 4);
  for (const Quat& q : v) {
    a.push_back(round6(q.w));
    a.push_back(round6(q.x));
    a.push_back(round6(q.y));
    a.push_back(round6(q.z));
  }
  return a;
}

json numbers(const std::vector<double>& v, double (*round)(double)) {
  json a = json::array();
  for (double x : v) a.push_back(round(x));
  return a;
}

json recording_json(const Recording& rec) {
  json bodies = json::array();
  for (int i = 0; i < rec.body_count(); ++i) {
    const RecordedBody& b = rec.bodies[std::size_t(i)];
    const Vec3 c = body_color(i, b.is_static);  // the viewer's and glTF's colours
    bodies.push_back({{"name", b.name},
                      {"shape", shape_json(b.shape)},
                      {"static", b.is_static},
                      {"mass", round6(b.mass)},
                      {"color", vec3(c)}});
  }
  json joints = json::array();
  for (const RecordedJoint& j : rec.joints)
    joints.push_back(
        {{"kind", joint_kind_name(j.kind)}, {"body_a", j.body_a}, {"body_b", j.body_b}});
  return {{"format", "pabd-recording"},
          {"version", 1},
          {"scene", rec.scene},
          {"dt", rec.dt},
          {"every", rec.every},
          {"iterations", rec.iterations},
          {"threads", rec.threads},
          {"bodies", std::move(bodies)},
          {"joints", std::move(joints)},
          {"frames",
           {{"time", numbers(rec.frame_time, round6)},
            {"position", flat(rec.position)},
            {"orientation", flat(rec.orientation)},
            {"velocity", flat(rec.velocity)},
            {"angular_velocity", flat(rec.angular_velocity)},
            {"joint_a", flat(rec.joint_a)},
            {"joint_b", flat(rec.joint_b)}}},
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
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw Error(path + ": cannot write the HTML player (cannot open the file)");
  out << "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      << "<meta name=\"generator\" content=\"pabd\">\n"
      << "<title>" << escape_markup(rec.scene.empty() ? "pabd" : rec.scene) << " - pabd player"
      << "</title>\n<style>\n";
  out.write(reinterpret_cast<const char*>(kPlayerCss), std::streamsize(kPlayerCssSize));
  out << "</style>\n</head>\n<body>\n<script type=\"application/json\" id=\"pabd-data\">"
      << script_safe_json(recording_json(rec)) << "</script>\n<script>\n";
  out.write(reinterpret_cast<const char*>(kPlayerJs), std::streamsize(kPlayerJsSize));
  out << "</script>\n</body>\n</html>\n";
  out.flush();
  if (!out) throw Error(path + ": cannot write the HTML player (write failed)");
#endif
}

}  // namespace pabd
