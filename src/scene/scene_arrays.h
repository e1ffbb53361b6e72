// The scene format's array generator (docs/scene-format.md, "Arrays of bodies"):
// one "arrays" entry is a body template repeated on a regular nx x ny x nz grid.
// The parser reads and checks each entry into a BodyArray; expand_body_arrays()
// then appends the bodies after the listed ones, in linear time.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <unordered_map>
#include <vector>

#include "pabd/world.h"

namespace pabd {

/// The most bodies a scene may hold, listed and generated together.
inline constexpr long long kMaxSceneBodies = 10'000'000;

/// Body name -> index in Scene::bodies (listed bodies first, then generated ones).
using BodyNameIndex = std::unordered_map<std::string, std::size_t>;

/// One validated "arrays" entry.
struct BodyArray {
  std::string prefix;                ///< "name": body (i, j, k) is named PREFIX_i_j_k
  std::array<long long, 3> count{};  ///< bodies along x, y, z (each >= 1)
  Vec3 spacing{1, 1, 1};             ///< distance between neighbours along x, y, z [m]
  Vec3 origin{0, 0, 0};              ///< centre of mass of body (0, 0, 0) [m]
  BodyDef body;                      ///< the template (its name and position are set per body)
  std::string json_path;             ///< "/arrays/N", for error messages
};

/// Name of the body at grid index (i, j, k) of an array: "PREFIX_i_j_k".
std::string array_body_name(const std::string& prefix, long long i, long long j, long long k);

/// Appends every array's bodies to `bodies` (order: x fastest, then z, then y) and
/// their names to `names`. Checks, before anything is appended, that the total stays
/// within `max_bodies` (at most kMaxSceneBodies), that every position is finite and
/// that the World API accepts the template; then that every generated name is new.
/// Throws SceneError "FILE: /arrays/N/...: expected ..." (file = `file`).
void expand_body_arrays(const std::string& file, const std::vector<BodyArray>& arrays,
                        std::vector<BodyDef>& bodies, BodyNameIndex& names,
                        long long max_bodies = kMaxSceneBodies);

}  // namespace pabd
