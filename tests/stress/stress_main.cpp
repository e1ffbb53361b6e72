// pabd_stress: runs random valid scenes (random_scene.h) and checks the rule
// of the reliability issue: no signal, no non-finite state, and no step that
// succeeds with a body beyond the physical bound below. A step the divergence
// guard fails (StepFailure::EnergyGrowth, `pabd run` exits 1 with one line)
// obeys the rule; such scenes are counted as "guarded".
//
//   pabd_stress [--count N] [--seed S] [--steps K] [--threads T] [--keep DIR] [--dump DIR]
//               [--csv FILE] [--no-guard] [--scene FILE [--trace]]
//
// --keep writes the scenes that did not end ok to DIR, --dump writes every scene
// (to compare the guarded scenes with the rest). --scene runs one scene file
// instead of random ones; --trace prints each step's fastest body and the
// energy audit's numbers (with --no-guard, to watch a divergence unfold).
//
// Exits 0 when every scene obeys the rule, 1 otherwise; scripts/stress.sh
// runs it, CTest runs 200 scenes (tests/CMakeLists.txt).
//
// The bound, computed here from the scene text and the states: a body's speed
// comes from the initial motion (the fastest body, the fastest spin times the
// scene's extent R), the drives (a velocity drive's target, a position
// drive's moving target, or its snap to the target within a step of h, on a
// lever of R), position corrections (an overlap or a joint's error, at most
// the largest body's size D, closed within a step: D/h), gravity (|g| t), and
// its heavier neighbours: the fastest that a strictly heavier body j joined to
// it or touching it has moved at its place so far, |v_j| + |w_j| |x_i - x_j|
// (a light body on a heavy one's lever, or struck by it). Elastic hand-overs
// at most double a speed, so the bound is twice their sum. A body's rim (its
// spin times half its size, the edge of the box with its second moments) is
// held to the same bound, and a body stays within R + the bound's integral of
// its start. The divergence guard holds the engine to the same bound
// (docs/method.md): a body past it on a successful step means the guard missed
// a divergence.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "pabd/scene.h"
#include "pabd/world.h"
#include "stress/random_scene.h"

namespace {

using nlohmann::json;

double norm(const json& v) {
  return std::sqrt(v[0].get<double>() * v[0].get<double>() +
                   v[1].get<double>() * v[1].get<double>() +
                   v[2].get<double>() * v[2].get<double>());
}

/// Largest extent of a shape [m] (generous: the diagonal of its bounds).
double shape_size(const json& s) {
  const std::string type = s.at("type");
  if (type == "box") return norm(s.at("size"));
  if (type == "sphere") return 2 * s.at("radius").get<double>();
  if (type == "capsule")
    return 2 * (s.at("radius").get<double>() + s.at("half_height").get<double>());
  double size = 0;
  if (type == "convex_hull")
    for (const json& p : s.at("points")) size = std::fmax(size, 2 * norm(p));
  if (type == "compound")
    for (const json& c : s.at("children"))
      size = std::fmax(
          size, 2 * norm(c.value("position", json::array({0, 0, 0}))) + shape_size(c.at("shape")));
  return size;
}

struct Bound {
  double speed_scale = 0;  ///< [m/s], before gravity
  double gravity = 0;      ///< [m/s^2]
  double extent = 1;       ///< R [m]
  double speed(double t) const { return 2 * (speed_scale + gravity * t); }
};

Bound scene_bound(const json& scene) {
  const json& settings = scene.value("settings", json::object());
  const double h = settings.value("dt", 1.0 / 60);
  Bound b;
  b.gravity = norm(settings.value("gravity", json::array({0, -9.81, 0})));
  double lo = 1e300, hi = -1e300, speed = 0, spin = 0, size = 0;
  for (const json& body : scene.at("bodies")) {
    if (body.value("static", false)) continue;
    for (const json& c : body.value("position", json::array({0, 0, 0}))) {
      lo = std::fmin(lo, c.get<double>());
      hi = std::fmax(hi, c.get<double>());
    }
    speed = std::fmax(speed, norm(body.value("velocity", json::array({0, 0, 0}))));
    spin = std::fmax(spin, norm(body.value("angular_velocity", json::array({0, 0, 0}))));
    size = std::fmax(size, shape_size(body.at("shape")));
  }
  b.extent = std::fmax(1.0, hi - lo);
  double drive = 0;
  for (const json& j : scene.value("joints", json::array())) {
    if (!j.contains("drive")) continue;
    const json& d = j.at("drive");
    const double lever = j.at("type") == "hinge" ? b.extent : 1.0;
    const double target = std::fabs(d.value("target", 0.0)), amplitude = d.value("amplitude", 0.0);
    const double rate = d.at("mode") == "velocity"
                            ? target
                            : amplitude * 2 * 3.141592653589793 * d.value("frequency", 0.0) +
                                  (target + amplitude) / h;
    drive = std::fmax(drive, rate * lever);
  }
  b.speed_scale = speed + spin * b.extent + drive + size / h;
  return b;
}

struct Options {
  long long count = 200;
  std::uint64_t seed = 1;
  int steps = 120;
  int threads = 0;
  std::string keep_dir;
  std::string dump_dir;
  std::string csv_path;
  bool guard = true;  ///< --no-guard: run on past the divergence guard (to study a scene)
  std::string scene_path;
  bool trace = false;
};

struct Outcome {
  std::string verdict = "ok";  ///< ok, guarded, non-finite, beyond-bound, error
  std::string detail;
  long long step = 0;
  int bodies = 0;
  int joints = 0;
  double max_speed = 0;
  double max_distance = 0;
  double ms = 0;
};

Outcome run_scene(const std::string& text, const Options& o) {
  Outcome out;
  const auto start = std::chrono::steady_clock::now();
  try {
    const pabd::Scene scene = pabd::parse_scene(text, "random");
    const Bound bound = scene_bound(json::parse(text));
    pabd::WorldDef settings = scene.settings;
    settings.threads = o.threads;
    settings.divergence_guard = o.guard;
    pabd::World world = pabd::build_world(scene, settings);
    out.bodies = world.body_count();
    out.joints = world.joint_count();
    const int n = world.body_count();
    std::vector<pabd::BodyState> state(n), start_state(n);
    std::vector<double> mass(n), half_size(n), carried(n, 0.0), travel(n, 0.0);
    std::vector<bool> moving(n);
    for (int i = 0; i < n; ++i) {
      const pabd::BodyId id = world.body_at(i);
      start_state[i] = world.body_state(id);
      mass[i] = world.body_mass(id);
      moving[i] = !world.is_static(id);
      const pabd::Mat3 pi = world.body_affine_inertia(id);
      half_size[i] = 0.5 * std::sqrt(12 * (pi.m[0][0] + pi.m[1][1] + pi.m[2][2]) / (3 * mass[i]));
    }
    // The joined pairs, by body index (world.body_at(i).index == i in a built world).
    std::vector<std::pair<int, int>> joined;
    for (const json& j : json::parse(text).value("joints", json::array())) {
      const std::string a = j.at("body_a"), b = j.at("body_b");
      if (a != "world" && b != "world")
        joined.emplace_back(world.find_body(a).index, world.find_body(b).index);
    }
    for (int s = 1; s <= o.steps; ++s) {
      const pabd::StepResult r = world.step();
      out.step = s;
      if (!r.ok) {
        out.verdict = r.failure == pabd::StepFailure::NonFinite ? "non-finite" : "guarded";
        out.detail = "body " + std::to_string(r.bad_body);
        if (r.failure == pabd::StepFailure::EnergyGrowth)
          out.detail += ", created " + std::to_string(r.created_energy) + " J of " +
                        std::to_string(r.energy_bound) + " J";
        if (r.failure == pabd::StepFailure::SpeedGrowth ||
            r.failure == pabd::StepFailure::SpinGrowth)
          out.detail += ", " + std::to_string(r.created_energy) + " m/s of " +
                        std::to_string(r.energy_bound) + " m/s";
        break;
      }
      double step_speed = 0, step_spin = 0;
      int fastest = 0, spinning = 0;
      for (int i = 0; i < n; ++i) {
        state[i] = world.body_state(world.body_at(i));
        const pabd::BodyState& b = state[i];
        if (pabd::length(b.velocity) > step_speed) fastest = i;
        step_speed = std::fmax(step_speed, pabd::length(b.velocity));
        if (pabd::length(b.angular_velocity) > step_spin) spinning = i;
        step_spin = std::fmax(step_spin, pabd::length(b.angular_velocity));
        out.max_distance = std::fmax(out.max_distance, pabd::length(b.position));
      }
      out.max_speed = std::fmax(out.max_speed, step_speed);
      if (o.trace)
        std::printf(
            "step %d: fastest body %d at %.4g m/s, fastest spin body %d at %.4g rad/s, %d "
            "contacts\n",
            s, fastest, step_speed, spinning, step_spin, world.contact_count());
      if (o.trace && n <= 6)  // a reduced scene: every body's state
        for (int i = 0; i < n; ++i)
          if (moving[i])
            std::printf("  body %d: x %.4f %.4f %.4f  v %.4g %.4g %.4g  w %.4g %.4g %.4g\n", i,
                        state[i].position.x, state[i].position.y, state[i].position.z,
                        state[i].velocity.x, state[i].velocity.y, state[i].velocity.z,
                        state[i].angular_velocity.x, state[i].angular_velocity.y,
                        state[i].angular_velocity.z);
      const double t = s * scene.settings.dt;
      // Heavier to lighter, across joints and this step's contacts.
      const auto carry = [&](int from, int to) {
        if (moving[from] && moving[to] && mass[from] > mass[to])
          carried[to] =
              std::fmax(carried[to],
                        pabd::length(state[from].velocity) +
                            pabd::length(state[from].angular_velocity) *
                                std::fmin(pabd::length(state[to].position - state[from].position),
                                          bound.extent));
      };
      std::vector<std::pair<int, int>> links = joined;
      for (int k = 0; k < world.contact_count(); ++k) {
        const pabd::ContactInfo c = world.contact(k);
        links.emplace_back(c.body_a.index, c.body_b.index);
      }
      for (const auto& [a, b] : links) {
        carry(a, b);
        carry(b, a);
      }
      bool beyond = false;
      for (int i = 0; i < n && !beyond; ++i) {
        if (!moving[i]) continue;
        const double speed_bound = bound.speed(t) + 2 * carried[i];
        travel[i] += speed_bound * scene.settings.dt;
        beyond =
            pabd::length(state[i].velocity) > speed_bound ||
            pabd::length(state[i].angular_velocity) * half_size[i] > speed_bound ||
            pabd::length(state[i].position - start_state[i].position) > bound.extent + travel[i];
      }
      if (beyond) {
        out.verdict = "beyond-bound";
        break;
      }
    }
  } catch (const std::exception& e) {
    out.verdict = "error";
    out.detail = e.what();
  }
  out.ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return out;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open");
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool parse_args(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--no-guard") {
      o.guard = false;
      continue;
    }
    if (a == "--trace") {
      o.trace = true;
      continue;
    }
    if (i + 1 >= argc) return false;
    const char* v = argv[++i];
    char* end = nullptr;
    if (a == "--count") {
      o.count = std::strtoll(v, &end, 10);
    } else if (a == "--seed") {
      o.seed = std::strtoull(v, &end, 10);
    } else if (a == "--steps") {
      o.steps = static_cast<int>(std::strtol(v, &end, 10));
    } else if (a == "--threads") {
      o.threads = static_cast<int>(std::strtol(v, &end, 10));
    } else if (a == "--keep") {
      o.keep_dir = v;
      continue;
    } else if (a == "--scene") {
      o.scene_path = v;
      continue;
    } else if (a == "--dump") {
      o.dump_dir = v;
      continue;
    } else if (a == "--csv") {
      o.csv_path = v;
      continue;
    } else {
      return false;
    }
    if (end == v || *end != '\0') return false;
  }
  return o.count >= 1 && o.steps >= 1 && o.threads >= 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  if (!parse_args(argc, argv, o)) {
    std::fprintf(stderr,
                 "usage: pabd_stress [--count N>=1] [--seed S] [--steps K>=1] [--threads T>=0] "
                 "[--keep DIR] [--dump DIR] [--csv FILE] [--no-guard]\n");
    return 2;
  }
  if (!o.scene_path.empty()) o.count = 1;
  std::ofstream csv;
  if (!o.csv_path.empty()) {
    csv.open(o.csv_path);
    csv << "seed,bodies,joints,verdict,step,max_speed,max_distance,ms\n";
  }
  long long ok = 0, guarded = 0, broken = 0;
  for (long long k = 0; k < o.count; ++k) {
    const std::uint64_t seed = o.seed + static_cast<std::uint64_t>(k);
    const std::string text =
        o.scene_path.empty() ? pabd::stress::random_scene_json(seed) : read_file(o.scene_path);
    const Outcome r = run_scene(text, o);
    if (!o.dump_dir.empty())
      std::ofstream(o.dump_dir + "/stress_" + std::to_string(seed) + ".json") << text << '\n';
    if (csv.is_open())
      csv << seed << ',' << r.bodies << ',' << r.joints << ',' << r.verdict << ',' << r.step << ','
          << r.max_speed << ',' << r.max_distance << ',' << r.ms << '\n';
    if (r.verdict == "ok") {
      ++ok;
      continue;
    }
    if (r.verdict == "guarded")
      ++guarded;
    else
      ++broken;
    std::printf("seed %llu: %s at step %lld (%s; max speed %.3g m/s, distance %.3g m)\n",
                static_cast<unsigned long long>(seed), r.verdict.c_str(), r.step, r.detail.c_str(),
                r.max_speed, r.max_distance);
    if (!o.keep_dir.empty())
      std::ofstream(o.keep_dir + "/stress_" + std::to_string(seed) + ".json") << text << '\n';
  }
  std::printf(
      "%lld scenes of %d steps: %lld ok, %lld stopped by the divergence guard, %lld broke "
      "the rule\n",
      o.count, o.steps, ok, guarded, broken);
  return broken == 0 ? 0 : 1;
}
