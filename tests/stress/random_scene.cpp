#include "stress/random_scene.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <random>
#include <vector>

namespace pabd::stress {

namespace {

using nlohmann::json;
constexpr double kPi = 3.14159265358979323846;

/// Draws from the seed's stream; uniform() is our own mapping of the 64 raw
/// bits, so a seed gives the same scene with any standard library.
class Draw {
 public:
  explicit Draw(std::uint64_t seed) : engine_(seed) {}
  double uniform(double lo = 0, double hi = 1) {
    const double u = static_cast<double>(engine_() >> 11) * 0x1.0p-53;
    return lo + (hi - lo) * u;
  }
  double log_uniform(double lo, double hi) { return std::exp(uniform(std::log(lo), std::log(hi))); }
  int integer(int lo, int hi) {  // inclusive
    return lo + static_cast<int>(engine_() % static_cast<std::uint64_t>(hi - lo + 1));
  }
  bool chance(double p) { return uniform() < p; }
  json vec(double lo, double hi) {
    return json::array({uniform(lo, hi), uniform(lo, hi), uniform(lo, hi)});
  }
  /// A unit vector, uniform on the sphere.
  json direction() {
    const double z = uniform(-1, 1), phi = uniform(0, 2 * kPi), r = std::sqrt(1 - z * z);
    return json::array({r * std::cos(phi), r * std::sin(phi), z});
  }
  json quaternion() {
    const double a = uniform(0, 2 * kPi);
    const json n = direction();
    const double s = std::sin(a / 2);
    return json::array(
        {std::cos(a / 2), s * n[0].get<double>(), s * n[1].get<double>(), s * n[2].get<double>()});
  }

 private:
  std::mt19937_64 engine_;
};

/// A convex shape of about `size` across: box, sphere, capsule or hull.
json convex_shape(Draw& d, double size) {
  switch (d.integer(0, 3)) {
    case 0:
      return {{"type", "box"},
              {"size", json::array({size * d.uniform(0.2, 1), size * d.uniform(0.2, 1),
                                    size * d.uniform(0.2, 1)})}};
    case 1:
      return {{"type", "sphere"}, {"radius", size * d.uniform(0.2, 0.5)}};
    case 2:
      return {{"type", "capsule"},
              {"radius", size * d.uniform(0.1, 0.3)},
              {"half_height", size * d.uniform(0.05, 0.3)}};
    default: {
      // Points on a box's corners, jittered: never all on one plane.
      json points = json::array();
      for (int k = 0; k < 8; ++k)
        points.push_back(json::array({size * ((k & 1) ? 0.5 : -0.5) * d.uniform(0.5, 1),
                                      size * ((k & 2) ? 0.5 : -0.5) * d.uniform(0.5, 1),
                                      size * ((k & 4) ? 0.5 : -0.5) * d.uniform(0.5, 1)}));
      for (int k = d.integer(0, 8); k > 0; --k) points.push_back(d.vec(-0.4 * size, 0.4 * size));
      return {{"type", "convex_hull"}, {"points", points}};
    }
  }
}

/// Any shape a moving body may have: a convex one or a compound of 2-3.
json moving_shape(Draw& d, double size) {
  if (!d.chance(0.15)) return convex_shape(d, size);
  json children = json::array();
  for (int k = d.integer(2, 3); k > 0; --k)
    children.push_back({{"shape", convex_shape(d, size * 0.6)},
                        {"position", d.vec(-0.25 * size, 0.25 * size)},
                        {"orientation", d.quaternion()}});
  return {{"type", "compound"}, {"children", children}};
}

/// The ground: a plane, or a bumpy height field under the bodies.
json ground(Draw& d, double extent) {
  if (d.chance(0.6))
    return {{"name", "ground"},
            {"static", true},
            {"shape", {{"type", "plane"}, {"normal", {0, 1, 0}}, {"offset", 0}}}};
  const int columns = d.integer(2, 12), rows = d.integer(2, 12);
  json heights = json::array();
  for (int k = 0; k < columns * rows; ++k) heights.push_back(d.uniform(-0.3, 0.3));
  return {{"name", "ground"},
          {"static", true},
          {"shape",
           {{"type", "heightfield"},
            {"columns", columns},
            {"rows", rows},
            {"spacing", json::array({4 * extent / (columns - 1), 4 * extent / (rows - 1)})},
            {"heights", heights}}}};
}

json drive(Draw& d) {
  if (d.chance(0.5)) {
    json v = {{"mode", "velocity"}, {"target", d.uniform(-10, 10)}};
    if (d.chance(0.5)) v["max_force"] = d.log_uniform(1, 1e4);
    return v;
  }
  json p = {{"mode", "position"}, {"stiffness", d.log_uniform(1, 1e5)}};
  if (d.chance(0.5)) {
    p["target"] = d.uniform(-1, 1);
  } else {
    p["amplitude"] = d.uniform(0, 1);
    p["frequency"] = d.uniform(0, 3);
    p["phase"] = d.uniform(0, 2 * kPi);
  }
  if (d.chance(0.7)) p["damping"] = d.log_uniform(0.01, 1e3);
  if (d.chance(0.3)) p["max_force"] = d.log_uniform(1, 1e4);
  return p;
}

/// A joint between the bodies named a and b (or "world") at centres pa, pb.
json joint(Draw& d, const std::string& a, const std::string& b, const json& pa, const json& pb) {
  json mid = json::array();
  for (int k = 0; k < 3; ++k) mid.push_back(0.5 * (pa[k].get<double>() + pb[k].get<double>()));
  static const char* kinds[] = {"spherical", "hinge", "slider", "fixed", "distance", "spring"};
  const std::string type = kinds[d.integer(0, 5)];
  json j = {{"type", type}, {"body_a", a}, {"body_b", b}};
  double distance = 0;  // between the centres
  for (int k = 0; k < 3; ++k) distance += std::pow(pa[k].get<double>() - pb[k].get<double>(), 2);
  distance = std::sqrt(distance);
  const double soft = d.chance(0.3) ? d.log_uniform(10, 1e6) : 0;
  if (type == "spring") {
    j["anchor_a"] = pa;
    j["anchor_b"] = pb;
    // Within 10% of its length: a stretch of metres on a gram would be
    // released at metres per step, a real speed of kilometres per second.
    j["rest_length"] = distance * d.uniform(0.9, 1.1);
    j["stiffness"] = d.log_uniform(10, 1e5);
    return j;
  }
  if (type == "distance") {
    j["anchor_a"] = d.chance(0.5) ? pa : mid;
    j["anchor_b"] = d.chance(0.3) ? j["anchor_a"] : pb;  // zero length, off the centres
    if (d.chance(0.3) && j["anchor_b"] == pb)
      j["length"] = (j["anchor_a"] == pa ? distance : distance / 2) * d.uniform(0.9, 1.1);
    if (soft > 0) j["stiffness"] = soft;
    return j;
  }
  j["anchor"] = mid;
  if (soft > 0) j["stiffness"] = soft;
  if (type == "hinge" || type == "slider") {
    j["axis"] = d.direction();
    if (d.chance(0.4)) {
      const double lo = d.uniform(-2, 0.2), hi = lo + d.uniform(0, 2);
      j["limits"] = json::array({lo, hi});
    }
    if (d.chance(0.4)) j["drive"] = drive(d);
  }
  return j;
}

/// "b<i>" (appended, not "b" + ...: GCC 12 warns falsely on that, PR 105329).
std::string body_name(int i) {
  std::string name = "b";
  name += std::to_string(i);
  return name;
}

json settings(Draw& d) {
  static const double dts[] = {1.0 / 30, 1.0 / 60, 1.0 / 120, 1.0 / 240};
  json s = {{"dt", dts[d.integer(0, 3)]}, {"iterations", d.integer(5, 50)}};
  if (d.chance(0.2))
    s["gravity"] = json::array({d.uniform(-3, 3), -d.uniform(0, 20), d.uniform(-3, 3)});
  if (d.chance(0.2)) s["iteration_order"] = d.chance(0.5) ? "jacobi" : "colored";
  if (d.chance(0.2)) s["chebyshev_rho"] = d.uniform(0, 0.99);
  if (d.chance(0.2)) s["relaxation"] = d.uniform(0.3, 1.5);
  if (d.chance(0.2)) s["local_step"] = d.chance(0.5) ? "paper" : "rigid";
  if (d.chance(0.1)) s["augmented_lagrangian"] = false;
  if (d.chance(0.2)) s["hard_stiffness_mass_ratio"] = d.log_uniform(0.1, 1e4);
  if (d.chance(0.2)) s["max_rotation_per_step"] = d.uniform(0.1, kPi);
  return s;
}

}  // namespace

std::string random_scene_json(std::uint64_t seed, const RandomSceneLimits& limits) {
  Draw d(seed);
  const int n = d.integer(limits.min_bodies, limits.max_bodies);
  // Bodies on a jittered grid, a cell per body, spaced so that no two overlap.
  const int side = static_cast<int>(std::ceil(std::cbrt(static_cast<double>(n))));
  const double cell = d.uniform(0.6, 2.0), size_max = 0.45 * cell;
  const double heaviest = d.log_uniform(1, 1e3), lightest = heaviest / limits.max_mass_ratio;
  json bodies = json::array({ground(d, side * cell)});
  std::vector<json> centres;
  std::vector<bool> fixed;  // static bodies: no joint between two of them (an error)
  for (int i = 0; i < n; ++i) {
    const int gx = i % side, gy = (i / side) % side, gz = i / (side * side);
    const json p = json::array({(gx - 0.5 * side) * cell + d.uniform(-0.05, 0.05) * cell,
                                0.8 + gy * cell + d.uniform(0, 0.05) * cell,
                                (gz - 0.5 * side) * cell + d.uniform(-0.05, 0.05) * cell});
    const double size = d.uniform(0.1, 1) * size_max;
    json body = {{"name", body_name(i)},
                 {"shape", moving_shape(d, size)},
                 {"position", p},
                 {"orientation", d.quaternion()},
                 {"mass", d.log_uniform(lightest, heaviest)}};
    const double speed = d.chance(0.1) ? d.uniform(0, limits.max_speed) : d.uniform(0, 5);
    json v = d.direction();
    for (auto& c : v) c = c.get<double>() * speed;
    body["velocity"] = v;
    if (d.chance(0.5)) body["angular_velocity"] = d.vec(-10, 10);
    if (d.chance(0.3)) body["friction"] = d.uniform(0, 2);
    if (d.chance(0.2)) body["restitution"] = d.uniform(0, 1);
    fixed.push_back(d.chance(0.03));
    if (fixed.back()) body["static"] = true;
    centres.push_back(p);
    bodies.push_back(body);
  }
  // Joints between grid neighbours, and a few to the world.
  json joints = json::array();
  for (int i = 0; i < n; ++i) {
    const std::string name = body_name(i);
    const int gx = i % side, gy = (i / side) % side;
    for (const int step : {1, side}) {
      const int k = i + step;
      const bool neighbour = step == 1 ? gx + 1 < side : gy + 1 < side;
      if (k < n && neighbour && d.chance(0.25) && !(fixed[i] && fixed[k]))
        joints.push_back(joint(d, name, body_name(k), centres[i], centres[k]));
    }
    if (d.chance(0.03) && !fixed[i]) {
      json above = centres[i];
      above[1] = above[1].get<double>() + 0.5 * cell;
      joints.push_back(joint(d, "world", name, above, centres[i]));
    }
  }
  const json scene = {{"description", "random stress scene, seed " + std::to_string(seed)},
                      {"settings", settings(d)},
                      {"bodies", bodies},
                      {"joints", joints}};
  return scene.dump();
}

}  // namespace pabd::stress
