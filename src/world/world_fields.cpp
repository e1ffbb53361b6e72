// The World's sand and water (pabd/fields.h, docs/fields.md) and their weak
// two-way coupling with the bodies:
// - before a step, the water's pressure and drag on each body's wetted
//   surface become applied forces (the step integrates them like any other);
// - after it, the sand under each body is pressed by the load the contacts
//   carried, slopes slide, and the wake is raised where bodies displaced
//   water, then moves on.
// Bodies are visited in slot order and every grid pass is serial or writes
// its own vertex only, so the result does not depend on the thread count.
#include <algorithm>
#include <cmath>
#include <string>

#include "collision/ray_shape.h"
#include "contacts/contact_kernels.h"
#include "fields/hydro_force.h"
#include "shapes/body_aabb.h"
#include "shapes/heightfield.h"
#include "world/world_impl.h"

namespace pabd {

namespace {

void check(bool ok, const std::string& message) {
  if (!ok) throw Error(message);
}

bool finite_positive(Real x) { return std::isfinite(x) && x > 0; }

/// The first surface of a body along a vertical ray (world frame) from
/// height y going up (+1) or down (-1) at (x, z), within `reach` [m].
bool vertical_hit(const WorldImpl& w, int body, Real x, Real y, Real z, Real up, Real reach,
                  Real& hit_y) {
  const Mat3& r = w.bodies.affine[static_cast<std::size_t>(body)];
  const Vec3 c = w.bodies.position[static_cast<std::size_t>(body)];
  const Mat3 rt = transpose(r);
  const Vec3 o = rt * (Vec3{x, y, z} - c);
  const Vec3 d = rt * Vec3{0, up, 0};
  LocalRayHit hit;
  if (!ray_shape(w.shapes[static_cast<std::size_t>(body)], o, d, reach, hit)) return false;
  hit_y = y + up * hit.t;
  return true;
}

Aabb body_box(const WorldImpl& w, int i) {
  return shape_aabb(w.shapes[static_cast<std::size_t>(i)], w.bodies.position[std::size_t(i)],
                    w.bodies.affine[std::size_t(i)]);
}

/// The world's clock [s] (World::time).
Real now(const WorldImpl& w) { return Real(w.steps_taken) * w.settings.dt; }

bool is_moving_body(const WorldImpl& w, int i) {
  return w.body_alive[std::size_t(i)] && !w.bodies.is_static[std::size_t(i)];
}

}  // namespace

// --- sand -------------------------------------------------------------------

BodyId World::add_sand(const SandDef& def) {
  WorldImpl& w = *impl_;
  FieldState& f = w.fields;
  check(!f.has_sand, "sand: this world has a sand bed already (one at most)");
  check(def.columns >= 2 && def.rows >= 2, "sand: columns and rows: expected at least 2 each");
  check(finite_positive(def.spacing), "sand: spacing: expected a finite number > 0");
  check(std::isfinite(def.position.x) && std::isfinite(def.position.y) &&
            std::isfinite(def.position.z),
        "sand: position: expected finite numbers");
  check(std::isfinite(def.depth) && def.depth >= 0, "sand: depth: expected a finite number >= 0");
  const std::size_t n = std::size_t(def.columns) * std::size_t(def.rows);
  check(def.heights.empty() || def.heights.size() == n,
        "sand: heights: expected " + std::to_string(n) + " numbers (rows x columns), got " +
            std::to_string(def.heights.size()));
  for (const Real h : def.heights)
    check(std::isfinite(h) && h >= 0, "sand: heights: expected finite numbers >= 0");
  check(std::isfinite(def.friction) && def.friction >= 0,
        "sand: friction: expected a finite number >= 0");
  check(def.repose_angle > 0 && def.repose_angle < Real(1.5707963267948966),
        "sand: repose_angle: expected an angle in (0, pi/2) [rad]");
  check(finite_positive(def.sinkage_exponent), "sand: sinkage_exponent: expected a number > 0");
  check(std::isfinite(def.cohesive_modulus) && def.cohesive_modulus >= 0,
        "sand: cohesive_modulus: expected a finite number >= 0");
  check(finite_positive(def.frictional_modulus),
        "sand: frictional_modulus: expected a finite number > 0");

  auto data = std::make_shared<ShapeData>();
  const std::vector<Real> heights =
      def.heights.empty() ? std::vector<Real>(n, def.depth) : def.heights;
  build_height_field(def.columns, def.rows, def.spacing, def.spacing, heights, data->height_field);
  BodyDef body = default_body_def();
  body.name = def.name;
  body.is_static = true;
  body.shape.type = ShapeType::HeightField;
  body.shape.geometry = data.get();
  body.shape.data = data;
  body.position = def.position;
  body.friction = def.friction;
  const BodyId id = add_body(body);
  f.has_sand = true;
  f.sand_def = def;
  f.sand_body = static_cast<int>(id.index);
  f.sand_shape = data;
  sand_bed_init(f.sand, def.columns, def.rows, def.spacing, data->height_field.height.data(),
                std::tan(def.repose_angle));
  return id;
}

namespace {

/// Each body on the sand: the weight it presses the sand with, and whether
/// it has a contact with it (a speculative one too: it lies on the sand, or
/// nearly, and the sand under it must not slide). The weight is quasi-static:
/// the mass resting on the body, its own included (contact_load.h's M_i,
/// which shares a robot's or a vehicle's torso among its feet or wheels),
/// times g, times the share of the body's supports that are on the sand (by
/// verticality, as contact_load.h hands mass down). The contacts'
/// multipliers are not used: for a light foot on a stiff drive they swing
/// from 0 to ten times the robot's weight between steps.
void sum_sand_loads(WorldImpl& w) {
  FieldState& f = w.fields;
  f.sand_load.assign(std::size_t(w.body_count()), 0);
  f.on_sand.assign(std::size_t(w.body_count()), 0);
  const Real g = length(w.settings.gravity);
  if (!(g > 0)) return;
  const Vec3 up = (Real(-1) / g) * w.settings.gravity;
  ContactDetector& contacts = w.host_contacts();
  const ContactArrays c = contacts.arrays();
  std::vector<Real>& on_sand_support = f.sand_support;
  on_sand_support.assign(std::size_t(w.body_count()), 0);
  for (int k = 0; k < c.count; ++k) {
    const int a = c.end_body[2 * k], b = c.end_body[2 * k + 1];
    const Real nu = dot(c.normal[k], up);
    if (a == f.sand_body && b >= 0) {
      f.on_sand[std::size_t(b)] = 1;
      if (nu > 0) on_sand_support[std::size_t(b)] += nu;
    }
    if (b == f.sand_body && a >= 0) {
      f.on_sand[std::size_t(a)] = 1;
      if (nu < 0) on_sand_support[std::size_t(a)] -= nu;
    }
  }
  for (int i = 0; i < w.body_count(); ++i) {
    const Real all = contacts.support_weight(i);
    Real& load = f.sand_load[std::size_t(i)];
    const Real on_sand = on_sand_support[std::size_t(i)];
    load = all > 0 ? g * contacts.supported_mass(i) * std::min(Real(1), on_sand / all) : Real(0);
  }
}

/// Where body i lies on the sand (FieldState's Footprint): the vertices its
/// underside reaches within `touch` [m] of the surface, straight above them
/// (the area that carries the load) or within 3/4 of a cell around them,
/// diagonals included (pressed too: the triangulated surface between a
/// pressed vertex and a free one is a slope, and a body's edge half a cell
/// out would rest on it).
Footprint find_footprint(const WorldImpl& w, int i, Real touch, std::vector<int>& out) {
  const FieldState& f = w.fields;
  const SandBed& bed = f.sand;
  const HeightFieldView& v = f.sand_shape->height_field.view;
  const Vec3 origin = w.bodies.position[std::size_t(f.sand_body)];
  const Aabb box = body_box(w, i);
  out.clear();
  Footprint fp;
  fp.c0 = bed.columns;
  fp.r0 = bed.rows;
  // Three quarters of a cell: a body's edge half a cell from a vertex (a box
  // as wide as its cells) presses it for sure, even as the body shifts a little.
  const Real s = bed.spacing, half = Real(0.75) * s;
  const int c0 = std::max(0, int(std::ceil((box.lo.x - half - origin.x - v.x0) / s)));
  const int c1 =
      std::min(bed.columns - 1, int(std::floor((box.hi.x + half - origin.x - v.x0) / s)));
  const int r0 = std::max(0, int(std::ceil((box.lo.z - half - origin.z - v.z0) / s)));
  const int r1 = std::min(bed.rows - 1, int(std::floor((box.hi.z + half - origin.z - v.z0) / s)));
  for (int r = r0; r <= r1; ++r)
    for (int c = c0; c <= c1; ++c) {
      const int k = r * bed.columns + c;
      const Real surface = origin.y + bed.height[k];
      if (box.lo.y > surface + touch) continue;
      const Real x = origin.x + v.x0 + Real(c) * s, z = origin.z + v.z0 + Real(r) * s;
      const Real start = std::min(box.lo.y, surface) - Real(0.01);
      const Real reach = surface + touch - start;
      Real bottom = 0;
      if (vertical_hit(w, i, x, start, z, 1, reach, bottom)) {
        out.push_back(k);
        ++fp.carrying;
        fp.c0 = std::min(fp.c0, c);
        fp.c1 = std::max(fp.c1, c);
        fp.r0 = std::min(fp.r0, r);
        fp.r1 = std::max(fp.r1, r);
        continue;
      }
      const Real dx[8] = {-half, half, 0, 0, -half, -half, half, half};
      const Real dz[8] = {0, 0, -half, half, -half, half, -half, half};
      for (int n = 0; n < 8; ++n)
        if (vertical_hit(w, i, x + dx[n], start, z + dz[n], 1, reach, bottom)) {
          out.push_back(k);
          break;
        }
    }
  return fp;
}

/// The height field's bounds and active edges after the bed changed.
void refresh_height_field(FieldState& f) {
  SandBed& bed = f.sand;
  if (bed.changed_c0 > bed.changed_c1) return;
  HeightFieldView& v = f.sand_shape->height_field.view;
  const auto [lo, hi] = std::minmax_element(bed.height, bed.height + bed.vertex_count());
  v.min_height = *lo;
  v.max_height = *hi;
  // A triangle's bits depend on its neighbours' third vertices: the cells
  // around the changed vertices, one more all round.
  const int c0 = std::max(0, bed.changed_c0 - 2),
            c1 = std::min(bed.columns - 2, bed.changed_c1 + 1);
  const int r0 = std::max(0, bed.changed_r0 - 2), r1 = std::min(bed.rows - 2, bed.changed_r1 + 1);
  std::uint8_t* active = f.sand_shape->height_field.triangle_active.data();
  for (int r = r0; r <= r1; ++r)
    for (int c = c0; c <= c1; ++c)
      for (int t = 2 * (r * (bed.columns - 1) + c), e = t + 2; t < e; ++t)
        active[t] = static_cast<std::uint8_t>(height_field_active_edges(v, t));
  sand_bed_clear_changed(bed);
}

/// Height of the triangulated surface at body-frame (x, z) (heightfield_view.h's
/// two triangles per cell); the nearest border vertex's outside the grid.
Real surface_height(const HeightFieldView& v, Real x, Real z) {
  const Real fx_all = (x - v.x0) / v.spacing_x, fz_all = (z - v.z0) / v.spacing_z;
  const int c = std::clamp(int(std::floor(fx_all)), 0, v.columns - 2);
  const int r = std::clamp(int(std::floor(fz_all)), 0, v.rows - 2);
  const Real fx = std::clamp(fx_all - Real(c), Real(0), Real(1));
  const Real fz = std::clamp(fz_all - Real(r), Real(0), Real(1));
  const Real* h = v.height;
  const int n = v.columns;
  const Real h00 = h[r * n + c], h10 = h[r * n + c + 1], h01 = h[(r + 1) * n + c];
  const Real h11 = h[(r + 1) * n + c + 1];
  return fz >= fx ? h00 + fz * (h01 - h00) + fx * (h11 - h01)
                  : h00 + fx * (h10 - h00) + fz * (h11 - h10);
}

/// A sticking contact keeps its anchors into the next step
/// (contact_detect_kernels.h); one whose anchor on the sand is no longer on
/// the surface (the sand under it was pressed, or slid) starts from fresh
/// anchors instead, or it would hold its body at the height the sand had.
/// Contacts where the sand did not change keep their grip.
void unstick_changed_contacts(WorldImpl& w) {
  FieldState& f = w.fields;
  const SandBed& bed = f.sand;
  if (bed.changed_c0 > bed.changed_c1) return;
  const HeightFieldView& v = f.sand_shape->height_field.view;
  const Vec3 origin = w.bodies.position[std::size_t(f.sand_body)];
  ContactDetector& contacts = w.host_contacts();
  const ContactArrays c = contacts.arrays();
  const BodyArrays bodies = w.bodies.view();
  bool changed = false;
  for (int k = 0; k < c.count; ++k) {
    if (!c.sticking[k]) continue;
    const int a = c.end_body[2 * k], b = c.end_body[2 * k + 1];
    if (a != f.sand_body && b != f.sand_body) continue;
    const ContactPoints p = contact_points(bodies, c, k);
    const Vec3 at = (a == f.sand_body ? p.a_core : p.b_core) - origin;
    // A tenth of a millimetre: far above rounding, far below any press.
    if (std::abs(at.y - surface_height(v, at.x, at.z)) > Real(1e-4)) {
      c.sticking[k] = 0;
      changed = true;
    }
  }
  if (changed) contacts.mark_changed();  // a device takes them back before its next detection
}

/// After a step: press the sand under each loaded body, then let it slide.
void couple_sand(WorldImpl& w) {
  FieldState& f = w.fields;
  SandBed& bed = f.sand;
  const SandDef& d = f.sand_def;
  sum_sand_loads(w);
  const Real dt = w.settings.dt;
  // The sand gives at most as far per step as a body starting at rest falls
  // in half a step, so the body follows it without landing hard.
  const Real give = Real(0.5) * length(w.settings.gravity) * dt * dt;
  // Within this of the surface a body's underside lies on it [m]: a fraction
  // of a cell, and no more than the contacts' own margin.
  const Real touch = std::min(Real(0.25) * bed.spacing, w.settings.contact_margin);
  // Footprints first (every covered vertex is known before any sand moves).
  std::vector<int>& starts = f.footprint_start;
  std::vector<Footprint>& prints = f.footprints;
  prints.assign(std::size_t(w.body_count()), Footprint{});
  starts.assign(1, 0);
  f.covered_now.clear();
  for (int i = 0; i < w.body_count(); ++i) {
    if (is_moving_body(w, i) && f.on_sand[std::size_t(i)]) {
      prints[std::size_t(i)] = find_footprint(w, i, touch, f.footprint);
      f.covered_now.insert(f.covered_now.end(), f.footprint.begin(), f.footprint.end());
    }
    starts.push_back(static_cast<int>(f.covered_now.size()));
  }
  for (const int v : f.covered_before) sand_bed_set_covered(bed, v, false);
  for (const int v : f.covered_now) sand_bed_set_covered(bed, v, true);
  const Real cell = bed.spacing * bed.spacing;
  for (int i = 0; i < w.body_count(); ++i) {
    const int begin = starts[std::size_t(i)], count = starts[std::size_t(i) + 1] - begin;
    const Footprint& fp = prints[std::size_t(i)];
    const Real load = f.sand_load[std::size_t(i)];
    if (count == 0 || fp.carrying == 0 || !(load > 0)) continue;
    const Real width = Real(std::min(fp.c1 - fp.c0, fp.r1 - fp.r0) + 1) * bed.spacing;
    const Real pressure = load / (Real(fp.carrying) * cell);
    const Real sinkage = bekker_sinkage(pressure, width, d.sinkage_exponent, d.cohesive_modulus,
                                        d.frictional_modulus);
    sand_bed_press(bed, f.covered_now.data() + begin, count, sinkage, give);
  }
  std::swap(f.covered_before, f.covered_now);
  // A quarter of the excess per round keeps a vertex between its neighbours
  // (four edges); four rounds per step.
  sand_bed_slide(bed, 4, Real(0.25));
  unstick_changed_contacts(w);
  refresh_height_field(f);
}

}  // namespace

void refresh_sand_surface(FieldState& f) {
  f.sand.changed_c0 = f.sand.changed_r0 = 0;
  f.sand.changed_c1 = f.sand.columns - 1;
  f.sand.changed_r1 = f.sand.rows - 1;
  refresh_height_field(f);
}

double World::sand_volume() const {
  const FieldState& f = impl_->fields;
  return f.has_sand ? sand_bed_volume(f.sand) : 0;
}

// --- water ------------------------------------------------------------------

void World::add_water(const WaterDef& def) {
  WorldImpl& w = *impl_;
  FieldState& f = w.fields;
  check(!f.has_water, "water: this world has water already (one body of water at most)");
  check(std::isfinite(def.level), "water: level: expected a finite number");
  check(finite_positive(def.density), "water: density: expected a finite number > 0");
  check(def.columns >= 2 && def.rows >= 2, "water: columns and rows: expected at least 2 each");
  check(finite_positive(def.spacing), "water: spacing: expected a finite number > 0");
  check(std::isfinite(def.centre.x) && std::isfinite(def.centre.z),
        "water: centre: expected finite numbers");
  check(finite_positive(def.wake_depth), "water: wake_depth: expected a finite number > 0");
  check(std::isfinite(def.pressure_drag) && def.pressure_drag >= 0,
        "water: pressure_drag: expected a finite number >= 0");
  check(std::isfinite(def.skin_friction) && def.skin_friction >= 0,
        "water: skin_friction: expected a finite number >= 0");
  const Real g = length(w.settings.gravity);
  check(g > 0, "water: needs gravity (buoyancy is the weight of the water displaced)");
  std::vector<WaveTerm> terms;
  Real fold = 0, reach = 0;
  for (std::size_t i = 0; i < def.waves.size(); ++i) {
    const GerstnerWave& wave = def.waves[i];
    const std::string at = "water: waves[" + std::to_string(i) + "]: ";
    check(std::isfinite(wave.amplitude) && wave.amplitude >= 0,
          at + "amplitude: expected a finite number >= 0");
    check(finite_positive(wave.wavelength), at + "wavelength: expected a finite number > 0");
    check(std::isfinite(wave.direction.x) && std::isfinite(wave.direction.z) &&
              (wave.direction.x != 0 || wave.direction.z != 0),
          at + "direction: expected a finite, non-zero direction in x-z");
    check(wave.steepness >= 0 && wave.steepness <= 1,
          at + "steepness: expected a number in [0, 1]");
    check(std::isfinite(wave.phase), at + "phase: expected a finite number");
    terms.push_back(wave_term(wave, g));
    fold += terms.back().sway * terms.back().k;
    reach += wave.amplitude;
  }
  check(fold < 1, "water: waves: the sum of steepness x amplitude x wavenumber is " +
                      std::to_string(fold) + ": expected < 1 (the surface would fold over)");
  f.has_water = true;
  f.water_def = def;
  f.wave_terms = std::move(terms);
  f.wave_reach = reach;
  const Real x0 = def.centre.x - Real(0.5) * Real(def.columns - 1) * def.spacing;
  const Real z0 = def.centre.z - Real(0.5) * Real(def.rows - 1) * def.spacing;
  const int border = std::max(3, std::min(def.columns, def.rows) / 12);
  f.wake.reset(def.columns, def.rows, def.spacing, x0, z0, def.wake_depth, border);
  f.wake_thickness.assign(std::size_t(def.columns) * std::size_t(def.rows), 0);
  f.wake_thickness_now = f.wake_thickness;
}

namespace {

/// The water's surface height and velocity at world (x, z).
Real water_surface(const WorldImpl& w, Real x, Real z) {
  const FieldState& f = w.fields;
  return wave_height(f.waves(), x, z, now(w)) + f.wake.height(x, z);
}

/// How high the surface can be anywhere now [m].
Real water_ceiling(const FieldState& f) {
  Real wake = 0;
  for (const Real eta : f.wake.eta()) wake = std::max(wake, std::abs(eta));
  return f.water_def.level + f.wave_reach + wake;
}

/// Before a step: the pressure and drag of the water on every body in it.
void apply_water_forces(WorldImpl& w) {
  FieldState& f = w.fields;
  f.ceiling = water_ceiling(f);
  const Real ceiling = f.ceiling;
  const Real time = now(w);
  const HydroParams params{f.water_def.density, length(w.settings.gravity),
                           f.water_def.pressure_drag, f.water_def.skin_friction};
  f.body_surface.resize(std::size_t(w.body_count()));
  f.body_surface_built.resize(std::size_t(w.body_count()), 0);
  for (int i = 0; i < w.body_count(); ++i) {
    if (!is_moving_body(w, i) || body_box(w, i).lo.y > ceiling) continue;
    const std::size_t bi = std::size_t(i);
    if (!f.body_surface_built[bi]) {
      f.body_surface[bi] = shape_mesh(w.shapes[bi], 16);
      f.body_surface_built[bi] = 1;
    }
    const TriangleMesh& mesh = f.body_surface[bi];
    const Vec3 c = w.bodies.position[bi], v = w.bodies.velocity[bi];
    const Vec3 omega = w.bodies.angular_velocity[bi];
    const Mat3& r = w.bodies.affine[bi];
    HydroSum sum;
    for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
      Vec3 p[3], vr[3];
      Real depth[3];
      bool wet = false;
      for (int k = 0; k < 3; ++k) {
        p[k] = c + r * mesh.positions[mesh.indices[t + std::size_t(k)]];
        wet = wet || p[k].y < ceiling;
      }
      if (!wet) continue;
      for (int k = 0; k < 3; ++k) {
        depth[k] = water_surface(w, p[k].x, p[k].z) - p[k].y;
        const Vec3 water =
            wave_velocity(f.waves(), p[k].x, p[k].z, time) + f.wake.velocity(p[k].x, p[k].z);
        vr[k] = v + cross(omega, p[k] - c) - water;
      }
      add_triangle_hydro_force(p[0], p[1], p[2], depth[0], depth[1], depth[2], vr[0], vr[1], vr[2],
                               c, params, sum);
    }
    if (sum.wetted_area == 0) continue;
    w.bodies.applied_force[bi] += sum.force;
    w.bodies.applied_torque[bi] += sum.torque;
    w.any_applied = true;
  }
}

/// After a step: the wake rises where bodies now take more room below the
/// surface than before (and falls where they take less), then moves on.
void couple_wake(WorldImpl& w) {
  FieldState& f = w.fields;
  WakeGrid& wake = f.wake;
  const Real ceiling = f.ceiling;  // apply_water_forces's, on the same wake
  std::fill(f.wake_thickness_now.begin(), f.wake_thickness_now.end(), Real(0));
  const Real s = wake.spacing();
  for (int i = 0; i < w.body_count(); ++i) {
    if (!is_moving_body(w, i)) continue;
    const Aabb box = body_box(w, i);
    if (box.lo.y > ceiling) continue;
    const int c0 = std::max(0, int(std::ceil((box.lo.x - wake.x0()) / s)));
    const int c1 = std::min(wake.columns() - 1, int(std::floor((box.hi.x - wake.x0()) / s)));
    const int r0 = std::max(0, int(std::ceil((box.lo.z - wake.z0()) / s)));
    const int r1 = std::min(wake.rows() - 1, int(std::floor((box.hi.z - wake.z0()) / s)));
    const Real span = box.hi.y - box.lo.y + Real(0.02);
    for (int r = r0; r <= r1; ++r)
      for (int c = c0; c <= c1; ++c) {
        const Real x = wake.x0() + Real(c) * s, z = wake.z0() + Real(r) * s;
        Real bottom = 0, top = 0;
        if (!vertical_hit(w, i, x, box.lo.y - Real(0.01), z, 1, span, bottom)) continue;
        if (!vertical_hit(w, i, x, box.hi.y + Real(0.01), z, -1, span, top)) continue;
        const Real surface = wave_height(f.waves(), x, z, now(w));
        const Real wet = std::min(top, surface) - bottom;
        if (wet > 0) f.wake_thickness_now[std::size_t(r * wake.columns() + c)] += wet;
      }
  }
  // The first time, the bodies are where the scene put them: that is the
  // water's rest, not a splash.
  if (!f.wake_primed) {
    f.wake_thickness = f.wake_thickness_now;
    f.wake_primed = true;
  }
  for (int r = 0; r < wake.rows(); ++r)
    for (int c = 0; c < wake.columns(); ++c) {
      const std::size_t k = std::size_t(r * wake.columns() + c);
      const Real change = f.wake_thickness_now[k] - f.wake_thickness[k];
      if (change != 0) wake.add_height(c, r, change);
    }
  std::swap(f.wake_thickness, f.wake_thickness_now);
  wake.step(w.settings.dt, length(w.settings.gravity));
}

}  // namespace

Real World::water_height(Real x, Real z) const {
  check(impl_->fields.has_water, "water_height: this world has no water");
  return water_surface(*impl_, x, z);
}

// --- the step's hooks ---------------------------------------------------------

void WorldImpl::fields_before_step() {
  if (fields.has_water) apply_water_forces(*this);
  if (fields.has_wind) apply_wind_forces();  // world_cloth.cpp
}

void WorldImpl::fields_after_step() {
  if (fields.has_sand) couple_sand(*this);
  if (fields.has_water) couple_wake(*this);
}

// --- what the outputs draw ----------------------------------------------------

int World::surface_count() const {
  return int(impl_->fields.has_sand) + int(impl_->fields.has_water);
}

SurfaceInfo World::surface(int index) const {
  const WorldImpl& w = *impl_;
  const FieldState& f = w.fields;
  check(index >= 0 && index < surface_count(), "surface: index " + std::to_string(index) +
                                                   " out of range (" +
                                                   std::to_string(surface_count()) + " surfaces)");
  SurfaceInfo s;
  if (f.has_sand && index == 0) {
    const HeightFieldView& v = f.sand_shape->height_field.view;
    const Vec3 o = w.bodies.position[std::size_t(f.sand_body)];
    s.name = f.sand_def.name;
    s.kind = SurfaceKind::Sand;
    s.columns = v.columns;
    s.rows = v.rows;
    s.spacing = v.spacing_x;
    s.x0 = o.x + v.x0;
    s.z0 = o.z + v.z0;
    s.height.resize(std::size_t(v.columns) * std::size_t(v.rows));
    for (std::size_t k = 0; k < s.height.size(); ++k) s.height[k] = o.y + v.height[k];
    return s;
  }
  const WakeGrid& wake = f.wake;
  s.name = f.water_def.name;
  s.kind = SurfaceKind::Water;
  s.columns = wake.columns();
  s.rows = wake.rows();
  s.spacing = wake.spacing();
  s.x0 = wake.x0();
  s.z0 = wake.z0();
  s.height.resize(std::size_t(s.columns) * std::size_t(s.rows));
  for (int r = 0; r < s.rows; ++r)
    for (int c = 0; c < s.columns; ++c)
      s.height[std::size_t(r * s.columns + c)] =
          water_surface(w, s.x0 + Real(c) * s.spacing, s.z0 + Real(r) * s.spacing);
  return s;
}

}  // namespace pabd
