// What lives beside the bodies and couples to them each step (the paper's
// Sec. 6, "weak two-way coupling"): a sand bed, a body of water, wind, and
// cloth made of light particle bodies. docs/fields.md has the models and
// their limits. Everything here is set on a World (World::add_sand,
// add_water, set_wind, add_cloth) before or between steps.
#pragma once

#include <string>
#include <vector>

#include "pabd/math.h"

namespace pabd {

/// A sand bed: a height field over a flat floor, deformed by the bodies on it.
/// Bodies press it down (Bekker's pressure-sinkage law), the sand they push
/// aside heaps up around them, and slopes steeper than the angle of repose
/// slide. The volume of sand is conserved. Contacts with it are ordinary
/// contacts against a static height-field body named `name`.
struct SandDef {
  std::string name = "sand";  ///< the static body that carries the surface
  int columns = 128;          ///< grid vertices along x (>= 2)
  int rows = 128;             ///< grid vertices along z (>= 2)
  Real spacing = 0.05;        ///< vertex spacing along x and z [m]
  /// Centre of the grid in x and z, and the floor's height in y [m]: no body
  /// presses the sand below the floor.
  Vec3 position{0, 0, 0};
  Real depth = 0.3;  ///< sand thickness above the floor where `heights` is empty [m]
  /// Optional initial thickness per vertex above the floor, rows x columns,
  /// row-major (column index fastest) [m]; empty = `depth` everywhere.
  std::vector<Real> heights;
  Real friction = 0.6;         ///< Coulomb coefficient of contacts with the sand
  Real repose_angle = 0.5236;  ///< steepest stable slope [rad] (30 degrees)
  /// Bekker's pressure-sinkage law p = (k_c / b + k_phi) z^n (b: the smaller
  /// width of the pressed area). Defaults: dry sand (Wong, Theory of Ground
  /// Vehicles, Table 2.3): n = 1.1, k_c = 0.99 kN/m^(n+1), k_phi = 1528.43 kN/m^(n+2).
  Real sinkage_exponent = 1.1;        ///< n [-]
  Real cohesive_modulus = 990;        ///< k_c [N/m^(n+1)]
  Real frictional_modulus = 1528430;  ///< k_phi [N/m^(n+2)]
};

/// One Gerstner (trochoidal) wave.
struct GerstnerWave {
  Real amplitude = 0.2;     ///< [m]
  Real wavelength = 8;      ///< [m]
  Vec3 direction{1, 0, 0};  ///< travel direction in the x-z plane (y ignored; normalised)
  Real steepness = 0.5;     ///< Q in [0, 1]: 0 = a sine wave, 1 = the sharpest crest
  Real phase = 0;           ///< [rad]
};

/// A body of water: a mean level, Gerstner waves, and a shallow-water grid for
/// the wake the bodies make. Bodies in it feel the pressure on their wetted
/// surface (buoyancy) and drag.
struct WaterDef {
  std::string name = "water";
  Real level = 0;                   ///< mean surface height [m]
  Real density = 1000;              ///< [kg/m^3]
  std::vector<GerstnerWave> waves;  ///< empty = calm water
  /// The wake grid: columns x rows vertices, `spacing` apart, centred on
  /// `centre` (x, z). Outside it the surface is the waves alone.
  int columns = 128;
  int rows = 128;
  Real spacing = 0.5;        ///< [m]
  Vec3 centre{0, 0, 0};      ///< x and z of the grid's centre [m] (y ignored)
  Real wake_depth = 4;       ///< the still depth the wake's waves travel over (speed sqrt(g d)) [m]
  Real pressure_drag = 0.5;  ///< drag coefficient of faces moving into the water [-]
  Real skin_friction = 0.01;  ///< drag coefficient of water sliding along faces [-]
};

/// Wind, acting on cloth triangles (add_cloth).
struct WindDef {
  Vec3 velocity{0, 0, 0};    ///< [m/s]
  Real air_density = 1.225;  ///< [kg/m^3]
  Real drag = 1.2;           ///< pressure coefficient of a cloth face across the wind [-]
};

/// A cloth: particles (light sphere bodies named `name` + "_" + index) joined
/// along every triangle edge by springs, and across every inner edge by a
/// weaker bending spring. Wind pushes each triangle along its normal.
struct ClothDef {
  std::string name = "cloth";
  std::vector<Vec3> vertices;   ///< particle positions, world frame [m]
  std::vector<int> triangles;   ///< three vertex indices per triangle
  Real areal_density = 0.3;     ///< [kg/m^2]: each particle gets a third of its triangles' mass
  Real stretch_stiffness = 0;   ///< edge springs [N/m]; 0 = hard (inextensible) edges
  Real bend_stiffness = 50;     ///< springs across inner edges [N/m]
  Real particle_radius = 0.01;  ///< the particles' spheres [m]
  bool collide = false;         ///< particles touch other bodies (not each other)
  Real damping = 0.1;           ///< the particles' linear damping [1/s]
};

/// The kind of a surface (World::surface).
enum class SurfaceKind { Sand, Water };

/// A surface's grid as it stands now: heights of columns x rows vertices,
/// vertex (c, r) at world (x0 + c spacing, height[r columns + c], z0 + r spacing).
struct SurfaceInfo {
  std::string name;
  SurfaceKind kind = SurfaceKind::Sand;
  int columns = 0;
  int rows = 0;
  Real spacing = 0;          ///< [m]
  Real x0 = 0, z0 = 0;       ///< world x and z of vertex (0, 0) [m]
  std::vector<Real> height;  ///< world y [m], row-major
};

/// A cloth as built (World::cloth): its particles' body slots and triangles.
struct ClothInfo {
  std::string name;
  std::vector<int> particles;  ///< body slot per cloth vertex
  std::vector<int> triangles;  ///< three cloth vertex indices per triangle
};

}  // namespace pabd
