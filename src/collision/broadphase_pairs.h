// What the broadphase hands to the narrowphase: candidate body pairs whose
// fattened boxes overlap, and candidate (body, plane) pairs.
#pragma once

namespace pabd {

/// Two bodies whose fattened AABBs overlap; a < b (body indices).
struct BodyPair {
  int a = 0;  ///< smaller body index
  int b = 0;  ///< larger body index
};

/// A body whose fattened AABB reaches the solid side of a plane body.
struct PlanePair {
  int body = 0;   ///< the (dynamic) body's index
  int plane = 0;  ///< the plane body's index
};

inline bool operator==(const BodyPair& x, const BodyPair& y) { return x.a == y.a && x.b == y.b; }
inline bool operator==(const PlanePair& x, const PlanePair& y) {
  return x.body == y.body && x.plane == y.plane;
}

}  // namespace pabd
