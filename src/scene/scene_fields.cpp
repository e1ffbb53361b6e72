#include "scene/scene_fields.h"

#include <string>
#include <vector>

namespace pabd {

using namespace scene_reader;

namespace {

/// The largest grid side a scene may ask for (a 4096 x 4096 grid is 16.8M vertices).
constexpr long long kMaxGridSide = 4096;  // per side; SceneLimits bounds the vertices
/// The most particles one cloth may have.
constexpr long long kMaxClothVertices = 1'000'000;

void add_name(const Reader& r, const std::string& path, const std::string& name, std::size_t index,
              BodyNameIndex& names) {
  if (name == "world")
    r.fail_at(path, "expected a body name other than \"world\" (it names the fixed frame)");
  if (!names.emplace(name, index).second)
    r.fail_at(path, "expected a unique body name, got '" + name + "', already used");
}

int grid_side(const Reader& r, const json& v, const std::string& path, const char* key,
              int fallback) {
  if (!v.contains(key)) return fallback;
  return static_cast<int>(r.integer(v.at(key), child(path, key), 2, kMaxGridSide));
}

SandDef read_sand(const Reader& r, const json& v, const std::string& path) {
  r.check_object(v, path, "a sand object",
                 {"name", "columns", "rows", "spacing", "position", "depth", "heights", "friction",
                  "repose_angle", "sinkage_exponent", "cohesive_modulus", "frictional_modulus"});
  SandDef d;
  if (v.contains("name")) d.name = r.text(v.at("name"), child(path, "name"));
  d.columns = grid_side(r, v, path, "columns", d.columns);
  d.rows = grid_side(r, v, path, "rows", d.rows);
  r.opt_number(v, path, "spacing", Range::Positive, d.spacing);
  r.opt_vec3(v, path, "position", d.position);
  r.opt_number(v, path, "depth", Range::NonNegative, d.depth);
  if (v.contains("heights")) {
    const json& h = v.at("heights");
    const std::string hp = child(path, "heights");
    const std::size_t n = std::size_t(d.columns) * std::size_t(d.rows);
    if (!h.is_array() || h.size() != n)
      r.fail_at(hp, "expected an array of " + std::to_string(n) +
                        " numbers (rows x columns), got " + describe(h));
    for (std::size_t i = 0; i < n; ++i)
      d.heights.push_back(r.number(h[i], child(hp, i), Range::NonNegative));
  }
  r.opt_number(v, path, "friction", Range::NonNegative, d.friction);
  r.opt_number(v, path, "repose_angle", Range::Positive, d.repose_angle);
  if (!(d.repose_angle < Real(1.5707963267948966)))
    r.fail_at(child(path, "repose_angle"),
              "expected an angle in (0, pi/2) [rad], got " + describe(v.at("repose_angle")));
  r.opt_number(v, path, "sinkage_exponent", Range::Positive, d.sinkage_exponent);
  r.opt_number(v, path, "cohesive_modulus", Range::NonNegative, d.cohesive_modulus);
  r.opt_number(v, path, "frictional_modulus", Range::Positive, d.frictional_modulus);
  return d;
}

GerstnerWave read_wave(const Reader& r, const json& v, const std::string& path) {
  r.check_object(v, path, "a wave object",
                 {"amplitude", "wavelength", "direction", "steepness", "phase"});
  GerstnerWave w;
  r.opt_number(v, path, "amplitude", Range::NonNegative, w.amplitude);
  r.opt_number(v, path, "wavelength", Range::Positive, w.wavelength);
  if (v.contains("direction")) {
    w.direction = r.vec3(v.at("direction"), child(path, "direction"));
    if (w.direction.x == 0 && w.direction.z == 0)
      r.fail_at(child(path, "direction"), "expected a direction with a non-zero x or z");
  }
  r.opt_number(v, path, "steepness", Range::UnitInterval, w.steepness);
  r.opt_number(v, path, "phase", Range::Any, w.phase);
  return w;
}

WaterDef read_water(const Reader& r, const json& v, const std::string& path) {
  r.check_object(v, path, "a water object",
                 {"name", "level", "density", "waves", "columns", "rows", "spacing", "centre",
                  "wake_depth", "pressure_drag", "skin_friction"});
  WaterDef d;
  if (v.contains("name")) d.name = r.text(v.at("name"), child(path, "name"));
  r.opt_number(v, path, "level", Range::Any, d.level);
  r.opt_number(v, path, "density", Range::Positive, d.density);
  if (v.contains("waves")) {
    const json& waves = v.at("waves");
    const std::string wp = child(path, "waves");
    if (!waves.is_array()) r.fail_at(wp, "expected an array of waves, got " + describe(waves));
    for (std::size_t i = 0; i < waves.size(); ++i)
      d.waves.push_back(read_wave(r, waves[i], child(wp, i)));
  }
  d.columns = grid_side(r, v, path, "columns", d.columns);
  d.rows = grid_side(r, v, path, "rows", d.rows);
  r.opt_number(v, path, "spacing", Range::Positive, d.spacing);
  r.opt_vec3(v, path, "centre", d.centre);
  r.opt_number(v, path, "wake_depth", Range::Positive, d.wake_depth);
  r.opt_number(v, path, "pressure_drag", Range::NonNegative, d.pressure_drag);
  r.opt_number(v, path, "skin_friction", Range::NonNegative, d.skin_friction);
  return d;
}

WindDef read_wind(const Reader& r, const json& v, const std::string& path) {
  r.check_object(v, path, "a wind object", {"velocity", "air_density", "drag"});
  WindDef d;
  r.opt_vec3(v, path, "velocity", d.velocity);
  r.opt_number(v, path, "air_density", Range::NonNegative, d.air_density);
  r.opt_number(v, path, "drag", Range::NonNegative, d.drag);
  return d;
}

ClothDef read_cloth(const Reader& r, const json& v, const std::string& path) {
  r.check_object(v, path, "a cloth object",
                 {"name", "vertices", "triangles", "areal_density", "stretch_stiffness",
                  "bend_stiffness", "particle_radius", "collide", "damping"});
  ClothDef d;
  d.name = r.text(r.required(v, path, "name", "the cloth's name"), child(path, "name"));
  const json& vertices = r.required(v, path, "vertices", "an array of [x, y, z] points");
  const std::string vp = child(path, "vertices");
  if (!vertices.is_array() || vertices.size() < 3 ||
      vertices.size() > std::size_t(kMaxClothVertices))
    r.fail_at(vp, "expected an array of 3 to " + std::to_string(kMaxClothVertices) +
                      " [x, y, z] points, got " + describe(vertices));
  for (std::size_t i = 0; i < vertices.size(); ++i)
    d.vertices.push_back(r.vec3(vertices[i], child(vp, i)));
  const json& triangles = r.required(v, path, "triangles", "an array of [a, b, c] vertex indices");
  const std::string tp = child(path, "triangles");
  if (!triangles.is_array() || triangles.empty())
    r.fail_at(tp,
              "expected a non-empty array of [a, b, c] vertex indices, got " + describe(triangles));
  const long long last = static_cast<long long>(d.vertices.size()) - 1;
  for (std::size_t i = 0; i < triangles.size(); ++i) {
    const json& t = triangles[i];
    const std::string at = child(tp, i);
    if (!t.is_array() || t.size() != 3)
      r.fail_at(at, "expected 3 vertex indices, got " + describe(t));
    for (std::size_t k = 0; k < 3; ++k)
      d.triangles.push_back(static_cast<int>(r.integer(t[k], child(at, k), 0, last)));
  }
  r.opt_number(v, path, "areal_density", Range::Positive, d.areal_density);
  r.opt_number(v, path, "stretch_stiffness", Range::NonNegative, d.stretch_stiffness);
  r.opt_number(v, path, "bend_stiffness", Range::NonNegative, d.bend_stiffness);
  r.opt_number(v, path, "particle_radius", Range::Positive, d.particle_radius);
  if (v.contains("collide")) d.collide = r.boolean(v.at("collide"), child(path, "collide"));
  r.opt_number(v, path, "damping", Range::NonNegative, d.damping);
  return d;
}

/// A grid of columns x rows vertices within the limits, or an error at `path`.
void check_grid(const Reader& r, const std::string& path, int columns, int rows,
                const SceneLimits& limits) {
  const long long n = static_cast<long long>(columns) * rows;
  if (n > limits.max_grid_vertices)
    r.fail_at(path, "expected at most " + std::to_string(limits.max_grid_vertices) +
                        " grid vertices, got " + std::to_string(columns) + " x " +
                        std::to_string(rows));
}

}  // namespace

void read_fields(const Reader& r, const json& root, Scene& scene, BodyNameIndex& names,
                 const SceneLimits& limits) {
  if (root.contains("sand")) {
    scene.sand = read_sand(r, root.at("sand"), "/sand");
    check_grid(r, "/sand", scene.sand->columns, scene.sand->rows, limits);
    add_name(r, root.at("sand").contains("name") ? "/sand/name" : "/sand", scene.sand->name,
             kSandBodyIndex, names);
  }
  if (root.contains("water")) {
    scene.water = read_water(r, root.at("water"), "/water");
    check_grid(r, "/water", scene.water->columns, scene.water->rows, limits);
  }
  if (root.contains("wind")) scene.wind = read_wind(r, root.at("wind"), "/wind");
  if (root.contains("cloths")) {
    const json& cloths = root.at("cloths");
    if (!cloths.is_array())
      r.fail_at("/cloths", "expected an array of cloths, got " + describe(cloths));
    long long particles = 0;
    for (std::size_t i = 0; i < cloths.size(); ++i) {
      const std::string path = child("/cloths", i);
      scene.cloths.push_back(read_cloth(r, cloths[i], path));
      const ClothDef& c = scene.cloths.back();
      particles += static_cast<long long>(c.vertices.size());
      if (static_cast<long long>(scene.bodies.size()) + particles > limits.max_bodies)
        r.fail_at(child(path, "vertices"),
                  "expected at most " + std::to_string(limits.max_bodies) +
                      " bodies in the scene, cloth particles included, got " +
                      std::to_string(static_cast<long long>(scene.bodies.size()) + particles));
      for (std::size_t k = 0; k < c.vertices.size(); ++k)
        add_name(r, child(path, "name"), c.name + "_" + std::to_string(k), kClothParticleIndex,
                 names);
    }
  }
}

}  // namespace pabd
