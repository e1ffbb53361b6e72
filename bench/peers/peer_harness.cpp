// The peer harness: scene reduction, the timed stepping loop, the outcome
// metrics and the JSON line (see peer_harness.h for what each one means).
#include "peer_harness.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <new>
#include <nlohmann/json.hpp>
#include <tuple>
#include <unordered_map>
#include <variant>

namespace pabd::peers {
namespace {

bool finite(Vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
bool finite(Quat q) {
  return std::isfinite(q.w) && std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z);
}

// Mass and principal inertia of a dynamic body from pabd's own mass properties:
// I = tr(Pi) 1 - Pi with Pi the affine inertia (diagonal for box, sphere, capsule).
std::pair<Real, Vec3> mass_properties(const BodyDef& def) {
  World scratch(default_world_def());
  BodyDef at_origin = def;
  at_origin.position = {0, 0, 0};
  at_origin.velocity = {0, 0, 0};
  at_origin.angular_velocity = {0, 0, 0};
  const BodyId id = scratch.add_body(at_origin);
  const Mat3 pi = scratch.body_affine_inertia(id);
  const Real tr = trace(pi);
  return {scratch.body_mass(id), Vec3{tr - pi.m[0][0], tr - pi.m[1][1], tr - pi.m[2][2]}};
}

// Lowest point of a body's shape along -n, as n . x of that point.
Real lowest_along(const PeerBody& body, const PeerPose& pose, Vec3 n) {
  const Mat3 r = to_matrix(pose.orientation);
  const Vec3 ex{r.m[0][0], r.m[1][0], r.m[2][0]};
  const Vec3 ey{r.m[0][1], r.m[1][1], r.m[2][1]};
  const Vec3 ez{r.m[0][2], r.m[1][2], r.m[2][2]};
  const Real centre = dot(n, pose.position);
  const ShapeDef& s = body.shape;
  switch (s.type) {
    case ShapeType::Box:
      return centre - 0.5 * (std::abs(dot(n, ex)) * s.size.x + std::abs(dot(n, ey)) * s.size.y +
                             std::abs(dot(n, ez)) * s.size.z);
    case ShapeType::Sphere:
      return centre - s.radius;
    case ShapeType::Capsule:
      return centre - std::abs(dot(n, ey)) * s.half_height - s.radius;
    default:
      return centre;
  }
}

Vec3 to_world(const PeerPose& pose, Vec3 local) {
  return pose.position + rotate(pose.orientation, local);
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void print_usage(const std::string& engine) {
  std::printf(
      "usage: peer_%s SCENE.json [--steps N] [--iterations K] [--threads T] [--trace BODY]\n"
      "Runs the scene in %s and prints one JSON line (bench/peers/README.md).\n",
      engine.c_str(), engine.c_str());
}

// Parses the command line; returns false (after one line on stderr) on bad input.
bool parse_options(int argc, char** argv, const std::string& engine, PeerOptions& o, bool& help) {
  const std::string prog = "peer_" + engine;
  auto integer = [&](const char* flag, const char* text, long lo, long& out) {
    char* end = nullptr;
    const long v = std::strtol(text, &end, 10);
    if (end == text || *end != '\0' || v < lo) {
      std::fprintf(stderr, "%s: %s: expected an integer >= %ld, got '%s'\n", prog.c_str(), flag, lo,
                   text);
      return false;
    }
    out = v;
    return true;
  };
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      help = true;
      return true;
    }
    const bool has_value = i + 1 < argc;
    long v = 0;
    if (a == "--steps" || a == "--iterations" || a == "--threads" || a == "--trace") {
      if (!has_value) {
        std::fprintf(stderr, "%s: %s: expected a value\n", prog.c_str(), a.c_str());
        return false;
      }
      const char* value = argv[++i];
      if (a == "--trace") {
        o.trace = value;
        continue;
      }
      if (!integer(a.c_str(), value, 1, v)) return false;
      if (a == "--steps") o.steps = v;
      if (a == "--iterations") o.iterations = static_cast<int>(v);
      if (a == "--threads") o.threads = static_cast<int>(v);
    } else if (!a.empty() && a[0] == '-') {
      std::fprintf(stderr, "%s: unknown flag '%s' (see --help)\n", prog.c_str(), a.c_str());
      return false;
    } else if (o.scene_path.empty()) {
      o.scene_path = a;
    } else {
      std::fprintf(stderr, "%s: expected one scene file, got '%s' too\n", prog.c_str(), a.c_str());
      return false;
    }
  }
  if (o.scene_path.empty()) {
    std::fprintf(stderr, "%s: expected a scene file (see --help)\n", prog.c_str());
    return false;
  }
  return true;
}

}  // namespace

std::string number_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

PeerScene load_peer_scene(const std::string& path, const std::string& engine) {
  PeerScene out;
  out.scene = load_scene(path);
  const Scene& sc = out.scene;
  const std::string who = path + ": peer_" + engine + ": ";
  std::unordered_map<std::string, int> index;
  // Mass properties per distinct (shape, mass, density), computed once.
  std::map<std::tuple<int, Real, Real, Real, Real, Real, Real, Real>, std::pair<Real, Vec3>> cache;
  out.bodies.reserve(sc.bodies.size());
  for (std::size_t i = 0; i < sc.bodies.size(); ++i) {
    const BodyDef& d = sc.bodies[i];
    const ShapeType t = d.shape.type;
    if (t != ShapeType::Box && t != ShapeType::Sphere && t != ShapeType::Capsule &&
        t != ShapeType::Plane) {
      throw Error(who + "body '" + d.name + "': shape " + shape_type_name(t) +
                  " is not supported by the peer harness (box, sphere, capsule, plane only)");
    }
    if (d.restitution != 0) {
      throw Error(who + "body '" + d.name +
                  "': restitution is not mapped by the peer harness (only 0)");
    }
    PeerBody b;
    b.name = d.name;
    b.shape = d.shape;
    b.is_static = d.is_static;
    b.position = d.position;
    b.orientation = normalized(d.orientation);
    b.velocity = d.velocity;
    b.angular_velocity = d.angular_velocity;
    b.friction = d.friction;
    if (t == ShapeType::Plane) {  // n . x = offset with a unit n
      const Real n = length(b.shape.normal);
      b.shape.normal = (1 / n) * b.shape.normal;
      b.shape.offset = b.shape.offset / n;
    }
    if (!d.is_static) {
      const auto key =
          std::make_tuple(static_cast<int>(t), d.shape.size.x, d.shape.size.y, d.shape.size.z,
                          d.shape.radius, d.shape.half_height, d.mass, d.density);
      auto it = cache.find(key);
      if (it == cache.end()) it = cache.emplace(key, mass_properties(d)).first;
      b.mass = it->second.first;
      b.inertia = it->second.second;
      ++out.dynamic_bodies;
    }
    index.emplace(b.name, static_cast<int>(i));
    out.bodies.push_back(std::move(b));
  }
  for (const SceneJoint& j : sc.joints) {
    const auto* spherical = std::get_if<SphericalJointDef>(&j.def);
    if (!spherical || spherical->stiffness != 0) {
      throw Error(who + "joint " + j.json_path + ": " +
                  (spherical ? std::string("a soft spherical joint")
                             : std::string(joint_kind_name(j.kind())) + " joint") +
                  " is not supported by the peer harness (hard spherical joints only)");
    }
    const Vec3 anchor = spherical->anchor;
    PeerJoint pj;
    pj.anchor = anchor;
    auto end = [&](const std::string& name, int& body, Vec3& local) {
      if (name == "world") {
        body = -1;
        local = anchor;
        return;
      }
      body = index.at(name);
      const PeerBody& b = out.bodies[static_cast<std::size_t>(body)];
      local = rotate(conjugate(b.orientation), anchor - b.position);
    };
    end(j.body_a, pj.body_a, pj.local_a);
    end(j.body_b, pj.body_b, pj.local_b);
    out.joints.push_back(pj);
  }
  return out;
}

int run_peer(int argc, char** argv, const std::string& engine, const EngineFactory& factory) {
  const std::string prog = "peer_" + engine;
  PeerOptions options;
  bool help = false;
  if (!parse_options(argc, argv, engine, options, help)) return 2;
  if (help) {
    print_usage(engine);
    return 0;
  }
  try {
    using clock = std::chrono::steady_clock;
    const auto setup_start = clock::now();
    const PeerScene ps = load_peer_scene(options.scene_path, engine);
    const long steps = options.steps > 0 ? options.steps : ps.scene.steps.value_or(300);
    int trace_body = -1;
    if (!options.trace.empty()) {
      for (std::size_t i = 0; i < ps.bodies.size(); ++i) {
        if (ps.bodies[i].name == options.trace) trace_body = static_cast<int>(i);
      }
      if (trace_body < 0) throw Error(prog + ": --trace: no body named '" + options.trace + "'");
    }
    EngineInfo info;
    std::unique_ptr<PeerEngine> eng = factory(ps, options, info);
    const double setup_s = std::chrono::duration<double>(clock::now() - setup_start).count();

    // Planes for the geometric ground penetration.
    std::vector<const PeerBody*> planes;
    for (const PeerBody& b : ps.bodies) {
      if (b.is_static && b.shape.type == ShapeType::Plane) planes.push_back(&b);
    }
    std::vector<PeerPose> poses(ps.bodies.size());
    for (std::size_t i = 0; i < ps.bodies.size(); ++i) {  // static bodies keep these
      const PeerBody& b = ps.bodies[i];
      poses[i] = {b.position, b.orientation, b.velocity, b.angular_velocity};
    }
    std::vector<double> ms, points;
    ms.reserve(static_cast<std::size_t>(steps));
    points.reserve(static_cast<std::size_t>(steps));
    double contact_pen = 0, ground_pen = 0, joint_gap = 0;
    long nonfinite_step = 0;
    std::string nonfinite_body;
    nlohmann::json trace = nlohmann::json::array();
    for (long s = 1; s <= steps; ++s) {
      const auto t0 = clock::now();
      eng->step();
      ms.push_back(std::chrono::duration<double, std::milli>(clock::now() - t0).count());
      // Outcome metrics (not timed).
      contact_pen = std::max(contact_pen, eng->contact_penetration());
      points.push_back(static_cast<double>(eng->contact_points()));
      for (std::size_t i = 0; i < ps.bodies.size(); ++i) {
        if (ps.bodies[i].is_static) continue;
        const PeerPose p = eng->pose(static_cast<int>(i));
        if (!nonfinite_step && !(finite(p.position) && finite(p.orientation) &&
                                 finite(p.velocity) && finite(p.angular_velocity))) {
          nonfinite_step = s;
          nonfinite_body = ps.bodies[i].name;
        }
        poses[i] = p;
        for (const PeerBody* pl : planes) {
          const Real depth = pl->shape.offset - lowest_along(ps.bodies[i], p, pl->shape.normal);
          ground_pen = std::max(ground_pen, static_cast<double>(depth));
        }
      }
      if (nonfinite_step) break;
      for (const PeerJoint& j : ps.joints) {
        const Vec3 a = j.body_a < 0 ? j.local_a : to_world(poses[j.body_a], j.local_a);
        const Vec3 b = j.body_b < 0 ? j.local_b : to_world(poses[j.body_b], j.local_b);
        joint_gap = std::max(joint_gap, static_cast<double>(length(a - b)));
      }
      if (trace_body >= 0) {
        const Vec3 p = poses[static_cast<std::size_t>(trace_body)].position;
        trace.push_back({p.x, p.y, p.z});
      }
    }
    // A resting scene (no joints, everything starts at rest) stood if every
    // moving body ends within 5 cm of where it started.
    nlohmann::json stood = nullptr;
    bool resting = ps.joints.empty();
    for (const PeerBody& b : ps.bodies) {
      if (!b.is_static && (length(b.velocity) != 0 || length(b.angular_velocity) != 0)) {
        resting = false;
      }
    }
    double displacement = 0;  // largest distance of a moving body from its start, at the end
    for (std::size_t i = 0; i < ps.bodies.size() && !nonfinite_step; ++i) {
      if (ps.bodies[i].is_static) continue;
      displacement = std::max(
          displacement, static_cast<double>(length(poses[i].position - ps.bodies[i].position)));
    }
    if (resting && !nonfinite_step) stood = displacement <= 0.05;
    if (nonfinite_step) {
      std::fprintf(stderr, "%s: %s: step %ld: body '%s' state became non-finite\n", prog.c_str(),
                   options.scene_path.c_str(), nonfinite_step, nonfinite_body.c_str());
    }
    nlohmann::ordered_json out;
    out["engine"] = engine;
    out["version"] = info.version;
    out["scene"] = options.scene_path;
    out["bodies"] = ps.dynamic_bodies;
    out["joints"] = ps.joints.size();
    out["steps"] = ms.size();
    out["dt"] = ps.scene.settings.dt;
    out["iterations"] = info.iterations;
    out["threads"] = info.threads;
    out["ms_per_step"] = {{"median", median(ms)},
                          {"min", ms.empty() ? 0 : *std::min_element(ms.begin(), ms.end())},
                          {"max", ms.empty() ? 0 : *std::max_element(ms.begin(), ms.end())}};
    out["setup_s"] = setup_s;
    out["max_contact_penetration"] = contact_pen;
    out["contact_points"] = {
        {"median", median(points)},
        {"max", points.empty() ? 0 : *std::max_element(points.begin(), points.end())}};
    out["max_ground_penetration"] = ground_pen;
    out["max_joint_gap"] = ps.joints.empty() ? nlohmann::json(nullptr) : nlohmann::json(joint_gap);
    out["max_displacement"] =
        nonfinite_step ? nlohmann::json(nullptr) : nlohmann::json(displacement);
    out["stood"] = stood;
    out["nonfinite_step"] = nonfinite_step ? nlohmann::json(nonfinite_step) : nullptr;
    out["settings"] = info.settings;
    if (trace_body >= 0) out["trace"] = trace;
    std::cout << out.dump() << std::endl;
    return 0;
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: %s: out of memory\n", prog.c_str(), options.scene_path.c_str());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s: %s\n", prog.c_str(), options.scene_path.c_str(), e.what());
    return 1;
  }
}

}  // namespace pabd::peers
