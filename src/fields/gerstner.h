// Gerstner (trochoidal) waves, the ocean of the paper's sailboat (Tessendorf,
// "Simulating Ocean Water", 2001). A surface particle at rest point x0 (x, z)
// moves on an orbit: for each wave, with wavenumber k = 2 pi / wavelength,
// deep-water frequency w = sqrt(g k) and phase theta = k D . x0 - w t + phi,
//   x = x0 - D Q A sin(theta),   y = level + A cos(theta).
// Q = 0 is a sine wave; Q A k = 1 makes the crest a cusp, so the waves are
// refused when the sum of Q A k passes 1 (validate_waves): the surface would
// fold over itself. The height above a world point needs the rest point whose
// particle is there; the fixed point x0 <- x + sum D Q A sin(theta(x0))
// contracts with rate sum Q A k < 1, and a few rounds are plenty.
#pragma once

#include <cmath>

#include "pabd/config.h"
#include "pabd/fields.h"
#include "pabd/math.h"

namespace pabd {

/// One wave, ready for the kernels: unit direction, wavenumber, frequency.
struct WaveTerm {
  Real dir_x = 1, dir_z = 0;  ///< unit travel direction in x-z
  Real k = 1;                 ///< wavenumber [1/m]
  Real omega = 1;             ///< angular frequency [rad/s]
  Real amplitude = 0;         ///< [m]
  Real sway = 0;              ///< horizontal amplitude Q A [m]
  Real phase = 0;             ///< [rad]
};

/// The kernels' view of the waves.
struct WaveView {
  const WaveTerm* term = nullptr;
  int count = 0;
  Real level = 0;  ///< mean surface height [m]
};

/// A wave's term under gravity |g| (deep water).
inline WaveTerm wave_term(const GerstnerWave& w, Real gravity) {
  WaveTerm t;
  const Real len = std::sqrt(w.direction.x * w.direction.x + w.direction.z * w.direction.z);
  t.dir_x = w.direction.x / len;
  t.dir_z = w.direction.z / len;
  t.k = Real(2) * Real(3.141592653589793) / w.wavelength;
  t.omega = std::sqrt(gravity * t.k);
  t.amplitude = w.amplitude;
  t.sway = w.steepness * w.amplitude;
  t.phase = w.phase;
  return t;
}

/// Phase of term w at rest point (x0, z0), time t.
PABD_HD Real wave_phase(const WaveTerm& w, Real x0, Real z0, Real t) {
  return w.k * (w.dir_x * x0 + w.dir_z * z0) - w.omega * t + w.phase;
}

/// Where the surface particle of rest point (x0, z0) is at time t.
PABD_HD Vec3 wave_particle(const WaveView& v, Real x0, Real z0, Real t) {
  Vec3 p{x0, v.level, z0};
  for (int i = 0; i < v.count; ++i) {
    const WaveTerm& w = v.term[i];
    const Real th = wave_phase(w, x0, z0, t);
    const Real s = std::sin(th);
    p.x -= w.dir_x * w.sway * s;
    p.z -= w.dir_z * w.sway * s;
    p.y += w.amplitude * std::cos(th);
  }
  return p;
}

/// The rest point whose surface particle is above world (x, z) at time t.
PABD_HD void wave_rest_point(const WaveView& v, Real x, Real z, Real t, Real& x0, Real& z0) {
  x0 = x;
  z0 = z;
  for (int round = 0; round < 4; ++round) {
    Real nx = x, nz = z;
    for (int i = 0; i < v.count; ++i) {
      const WaveTerm& w = v.term[i];
      const Real s = std::sin(wave_phase(w, x0, z0, t));
      nx += w.dir_x * w.sway * s;
      nz += w.dir_z * w.sway * s;
    }
    x0 = nx;
    z0 = nz;
  }
}

/// Height of the wave surface above world (x, z) at time t [m].
PABD_HD Real wave_height(const WaveView& v, Real x, Real z, Real t) {
  if (v.count == 0) return v.level;
  Real x0, z0;
  wave_rest_point(v, x, z, t, x0, z0);
  Real y = v.level;
  for (int i = 0; i < v.count; ++i)
    y += v.term[i].amplitude * std::cos(wave_phase(v.term[i], x0, z0, t));
  return y;
}

/// Velocity of the water at the surface above world (x, z) at time t: the
/// orbital velocity of its particle [m/s] (the waves carry no mean flow).
PABD_HD Vec3 wave_velocity(const WaveView& v, Real x, Real z, Real t) {
  Vec3 u{0, 0, 0};
  if (v.count == 0) return u;
  Real x0, z0;
  wave_rest_point(v, x, z, t, x0, z0);
  for (int i = 0; i < v.count; ++i) {
    const WaveTerm& w = v.term[i];
    const Real th = wave_phase(w, x0, z0, t);
    const Real c = std::cos(th);
    u.x += w.dir_x * w.sway * w.omega * c;
    u.z += w.dir_z * w.sway * w.omega * c;
    u.y += w.amplitude * w.omega * std::sin(th);
  }
  return u;
}

}  // namespace pabd
