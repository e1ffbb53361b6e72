// The water's force on a body's wetted surface, one triangle at a time.
//
// A body's surface is a closed triangle mesh, counter-clockwise seen from
// outside (outward normal n = normalize(cross(p1 - p0, p2 - p0))). For each
// triangle the caller gives its vertices' depths below the water surface
// (> 0 = under water) and their velocities relative to the water; both are
// taken as linear over the triangle.
//
// Clipping. The depth is linear, so the wet part (depth > 0) is cut off by a
// straight waterline: nothing, the whole triangle, a triangle (one vertex
// wet) or a quadrilateral (two wet), split into two triangles. The vertices
// are turned cyclically so the odd one out comes first, which keeps the
// orientation and needs no indexing of arrays.
//
// Pressure, exactly. Hydrostatic pressure p = rho g d pushes along -n. On a
// sub-triangle with vector area S = A n and vertex pressures p_i (linear):
//   F = -integral(p n dA) = -S (p_a + p_b + p_c) / 3,
//   tau = integral(r x (-p n) dA) = -(integral(p r dA)) x n = -A M x n = S x M,
// with r = x - centre and integral(p r dA) = A M,
//   M = (sum_i p_i r_i + (sum_i p_i)(sum_i r_i)) / 12
// (two linear functions f, g integrate over a triangle to exactly
// A/12 (sum f_i g_i + sum f_i sum g_i)). Summed over a closed surface under a
// flat level this is Archimedes: rho g V up, through the centre of buoyancy.
// Under waves it is the Froude-Krylov force of the undisturbed pressure.
//
// Drag, at each wet sub-triangle's centroid with its relative velocity vr
// (vn = vr . n, vt = vr - vn n):
//   pressure drag, only where the face moves into the water (vn > 0):
//     F = -rho Cd A vn^2 n / 2;
//   skin friction: F = -rho Cf A |vt| vt / 2.
// Faces moving away from the water (vn <= 0) feel no pressure drag: the wake
// behind a body is at about the ambient pressure.
#pragma once

#include "pabd/config.h"
#include "pabd/math.h"

namespace pabd {

/// The water's constants, for the kernels.
struct HydroParams {
  Real density = 1000;        ///< rho [kg/m^3]
  Real gravity = Real(9.81);  ///< |g| [m/s^2]
  Real pressure_drag = 0.5;   ///< Cd of faces moving into the water [-]
  Real skin_friction = 0.01;  ///< Cf of water sliding along faces [-]
};

/// What the triangles of one body add up to.
struct HydroSum {
  Vec3 force{0, 0, 0};   ///< pressure + drag [N]
  Vec3 torque{0, 0, 0};  ///< about the caller's centre [N m]
  Real wetted_area = 0;  ///< area under water [m^2]
  /// integral(d (-n_y) dA) [m^3]: the volume under water of a closed body
  /// below a flat level (+y up); its buoyancy over rho g under waves.
  Real displaced_volume = 0;
};

/// A triangle corner: position [m], depth below the surface [m], velocity
/// relative to the water [m/s].
struct HydroVertex {
  Vec3 p;
  Real d = 0;
  Vec3 v;
};

/// Where the depth is 0 on the edge from a to b (exactly one of them wet).
PABD_HD HydroVertex hydro_waterline(const HydroVertex& a, const HydroVertex& b) {
  const Real t = a.d / (a.d - b.d);  // a.d - b.d != 0: one is > 0, the other <= 0
  return {a.p + t * (b.p - a.p), 0, a.v + t * (b.v - a.v)};
}

/// Adds the pressure and drag on the wet triangle (a, b, c) (counter-clockwise
/// about the unit outward normal n, all depths >= 0).
PABD_HD void add_wet_triangle_hydro(const HydroVertex& a, const HydroVertex& b,
                                    const HydroVertex& c, Vec3 n, Vec3 centre,
                                    const HydroParams& hp, HydroSum& sum) {
  const Vec3 s = Real(0.5) * cross(b.p - a.p, c.p - a.p);  // vector area A n
  const Real area = dot(s, n);
  // Hydrostatic pressure, integrated exactly (header).
  const Real rg = hp.density * hp.gravity;
  const Real pa = rg * a.d, pb = rg * b.d, pc = rg * c.d, psum = pa + pb + pc;
  const Vec3 ra = a.p - centre, rb = b.p - centre, rc = c.p - centre;
  const Vec3 m = (Real(1) / 12) * (pa * ra + pb * rb + pc * rc + psum * (ra + rb + rc));
  sum.force += (-psum / 3) * s;
  sum.torque += cross(s, m);
  sum.displaced_volume += -s.y * (a.d + b.d + c.d) / 3;
  sum.wetted_area += area;
  // Drag at the centroid.
  const Vec3 vr = (Real(1) / 3) * (a.v + b.v + c.v);
  const Vec3 arm = (Real(1) / 3) * (ra + rb + rc);
  const Real vn = dot(vr, n);
  const Vec3 vt = vr - vn * n;
  Vec3 f = (Real(-0.5) * hp.density * hp.skin_friction * area * length(vt)) * vt;
  if (vn > 0) f += (Real(-0.5) * hp.density * hp.pressure_drag * area * vn * vn) * n;
  sum.force += f;
  sum.torque += cross(arm, f);
}

/// Adds the force and torque (about `centre`) of the water on triangle
/// (p0, p1, p2) (world, counter-clockwise seen from outside the body), whose
/// vertices lie d0, d1, d2 below the water surface (> 0 = under water; linear
/// over the triangle), moving relative to the water with vr0, vr1, vr2 (world,
/// body velocity minus water velocity, linear over the triangle).
PABD_HD void add_triangle_hydro_force(Vec3 p0, Vec3 p1, Vec3 p2, Real d0, Real d1, Real d2,
                                      Vec3 vr0, Vec3 vr1, Vec3 vr2, Vec3 centre,
                                      const HydroParams& hp, HydroSum& sum) {
  const Vec3 e = cross(p1 - p0, p2 - p0);
  const Real len = length(e);
  if (!(len > 0)) return;  // degenerate (or non-finite): no area, no force
  const Vec3 n = (Real(1) / len) * e;
  const bool w0 = d0 > 0, w1 = d1 > 0, w2 = d2 > 0;
  const int wet = int(w0) + int(w1) + int(w2);
  if (wet == 0) return;
  HydroVertex a{p0, d0, vr0}, b{p1, d1, vr1}, c{p2, d2, vr2};
  if (wet == 3) {
    add_wet_triangle_hydro(a, b, c, n, centre, hp, sum);
    return;
  }
  // Turn (a, b, c) cyclically so that a is the odd one out (the one wet
  // vertex, or the one dry vertex).
  if (w1 != w0 && w1 != w2) {
    const HydroVertex t = a;
    a = b;
    b = c;
    c = t;
  } else if (w2 != w0 && w2 != w1) {
    const HydroVertex t = c;
    c = b;
    b = a;
    a = t;
  }
  const HydroVertex ab = hydro_waterline(a, b), ca = hydro_waterline(c, a);
  if (wet == 1) {
    add_wet_triangle_hydro(a, ab, ca, n, centre, hp, sum);
  } else {  // a dry: the quadrilateral (ab, b, c, ca)
    add_wet_triangle_hydro(ab, b, c, n, centre, hp, sum);
    add_wet_triangle_hydro(ab, c, ca, n, centre, hp, sum);
  }
}

}  // namespace pabd
