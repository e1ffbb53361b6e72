// The kinds of feature a shape has (vertex, edge, face), as contact feature
// ids name them (collision/contact_manifold.h) and hull feature lookups
// report them (shapes/convex_polytope.h).
#pragma once

#include <cstdint>

namespace pabd {

/// Kind of shape feature in a feature id.
enum class FeatureKind : std::uint32_t {
  None = 0,    ///< the shape has no features here (a sphere, a capsule's round part)
  Vertex = 1,  ///< a box vertex (0..7) or a capsule end (0 = -Y, 1 = +Y)
  Edge = 2,    ///< a box edge (0..11) or a capsule's core segment (0)
  Face = 3     ///< a box face (0..5) or a plane (0)
};

}  // namespace pabd
