// A sand bed on a height field: the grid operations of the sand model
// (docs/fields.md, "Sand"). The heights are the sand's thickness above its
// floor, stored in the height field the contacts read, so a change here is
// what the next step's contacts see.
//
// The model is the height-field granular model of Sumner, O'Brien and Hodgins
// ("Animating Sand, Mud, and Snow", 1999) with the pressure-sinkage law of
// Bekker for how far a load presses the sand:
// - press: a body's footprint (the vertices under it) is pressed down to the
//   sinkage z that Bekker's law gives for the pressure on it,
//   p = (k_c / b + k_phi) z^n; a vertex already pressed that deep stays, so
//   ruts remain. The sand pressed out is moved to the ring of free vertices
//   around the footprint (it is pushed aside, not compacted).
// - slide: where the slope between neighbours passes the angle of repose,
//   sand flows downhill (never into or out of a covered vertex: a body lies
//   on it), a fraction of the excess per round.
// Every change moves sand between vertices, so the volume stays what it was
// up to rounding, and no vertex goes below the floor.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include "pabd/config.h"
#include "pabd/math.h"

namespace pabd {

/// The bed's grid and the per-vertex state the model keeps.
struct SandBed {
  int columns = 0, rows = 0;
  Real spacing = 0;                   ///< [m]
  Real* height = nullptr;             ///< thickness above the floor, rows x columns [m] (not owned)
  std::vector<Real> pressed;          ///< how far each vertex has been pressed down [m]
  std::vector<std::uint8_t> covered;  ///< a body lies on the vertex this step
  Real tan_repose = Real(0.577);      ///< steepest stable slope [-]
  /// Rectangle of vertices changed since sand_bed_clear_changed (inclusive;
  /// empty when lo > hi): where the height field's bounds and edges need a refresh.
  int changed_c0 = 1, changed_c1 = 0, changed_r0 = 1, changed_r1 = 0;
  /// Rectangle of vertices whose slopes may pass the angle of repose: changed,
  /// or freed or covered, since the last slide. Outside it every edge is stable.
  int active_c0 = 1, active_c1 = 0, active_r0 = 1, active_r1 = 0;

  // Scratch.
  std::vector<Real> flow;            ///< per vertex: the round's net change [m]
  std::vector<Real> outflow;         ///< per vertex: the round's total outflow [m]
  std::vector<int> ring;             ///< the free vertices around a footprint
  std::vector<std::uint32_t> stamp;  ///< per vertex: last footprint that listed it
  std::uint32_t stamp_now = 0;

  int vertex_count() const { return columns * rows; }
};

/// Sizes the bed's state for a grid whose heights live in `height`.
void sand_bed_init(SandBed& bed, int columns, int rows, Real spacing, Real* height,
                   Real tan_repose);
/// Volume of sand above the floor: the trapezoid rule over the grid's cells,
/// which is what the triangulated surface encloses [m^3].
double sand_bed_volume(const SandBed& bed);
/// Presses the footprint `vertices` (count of them) toward sinkage `sinkage`
/// [m], each vertex by at most `give` [m] this time, and moves the sand pressed
/// out to the free vertices around it. Covered flags must already be set for
/// every body's footprint of the step.
void sand_bed_press(SandBed& bed, const int* vertices, int count, Real sinkage, Real give);
/// Lets slopes steeper than the angle of repose slide: `rounds` rounds, each
/// moving `fraction` of every edge's excess height downhill.
void sand_bed_slide(SandBed& bed, int rounds, Real fraction);
/// Marks the rectangle of changed vertices as seen.
void sand_bed_clear_changed(SandBed& bed);
/// Sets whether a body lies on vertex v (an edge it frees or blocks may slide).
void sand_bed_set_covered(SandBed& bed, int v, bool covered);

/// Sinkage [m] under pressure p [Pa] on a footprint of smaller width b [m] by
/// Bekker's law p = (k_c / b + k_phi) z^n.
PABD_HD Real bekker_sinkage(Real p, Real b, Real n, Real k_c, Real k_phi) {
  if (!(p > 0)) return 0;
  return std::pow(p / (k_c / b + k_phi), Real(1) / n);
}

}  // namespace pabd
