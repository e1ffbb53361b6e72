// What the World keeps for its fields (pabd/fields.h): the sand bed, the
// water, the wind and the cloths, and the scratch of their coupling with the
// bodies (world_fields.cpp, world_cloth.cpp).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "fields/gerstner.h"
#include "fields/sand_bed.h"
#include "fields/wake_grid.h"
#include "pabd/fields.h"
#include "shapes/shape_data.h"
#include "shapes/shape_mesh.h"

namespace pabd {

/// Where a body lies on the sand this step (world_fields.cpp, find_footprint).
struct Footprint {
  int carrying = 0;                      ///< vertices straight under the body
  int c0 = 0, c1 = -1, r0 = 0, r1 = -1;  ///< their bounding rectangle
};

struct FieldState {
  // Sand.
  bool has_sand = false;
  SandDef sand_def;
  int sand_body = -1;                     ///< the static height-field body
  std::shared_ptr<ShapeData> sand_shape;  ///< its heights, which the bed changes
  SandBed sand;
  std::vector<int> covered_now;       ///< vertices covered this step
  std::vector<int> covered_before;    ///< vertices covered the step before
  std::vector<int> footprint;         ///< one body's footprint (scratch)
  std::vector<Real> sand_load;        ///< per body: the weight it presses the sand with [N]
  std::vector<std::uint8_t> on_sand;  ///< per body: has a contact with the sand this step
  std::vector<int> footprint_start;   ///< per body: where its footprint starts in covered_now
  std::vector<Real> sand_support;  ///< per body: verticality of its contacts on the sand (scratch)
  std::vector<Footprint> footprints;  ///< per body: this step's footprint (scratch)

  // Water.
  bool has_water = false;
  WaterDef water_def;
  std::vector<WaveTerm> wave_terms;
  WakeGrid wake;
  Real wave_reach = 0;  ///< the highest the waves reach above the level [m]
  /// The highest the surface reaches this step, waves and wake [m]: found
  /// before the step, used after it (the wake moves on only at its end).
  Real ceiling = 0;
  /// Per body slot: its shape's surface, body frame (built the first time the
  /// body is near the water; empty until then).
  std::vector<TriangleMesh> body_surface;
  std::vector<std::uint8_t> body_surface_built;
  /// Per wake vertex: the thickness of bodies below the surface there at the
  /// last step (the wake is raised by its change).
  std::vector<Real> wake_thickness;
  std::vector<Real> wake_thickness_now;
  /// The wake has seen the bodies once (their first thickness is the rest).
  bool wake_primed = false;

  // Wind and cloth.
  WindDef wind;
  bool has_wind = false;
  std::vector<ClothInfo> cloths;  ///< as built (pabd/fields.h), in the order added
  std::vector<Mat3> wind_k;       ///< per body: the wind's drag matrix this step (scratch)

  WaveView waves() const {
    return WaveView{wave_terms.data(), static_cast<int>(wave_terms.size()), water_def.level};
  }
};

/// The sand's height field after its heights were replaced (a snapshot):
/// bounds and active edges from scratch (world_fields.cpp).
void refresh_sand_surface(FieldState& f);

}  // namespace pabd
