// Expansion of the scene format's "arrays" (docs/scene-format.md, "Arrays of
// bodies"). Linear in the number of generated bodies: one pass that copies the
// template, sets the name and the position, and inserts the name into a hash map
// (which also finds clashes). Everything that can be checked once per array (the
// total count, finite positions, the template itself) is checked before any body
// is appended, so a bad array costs no memory.

#include "scene/scene_arrays.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "pabd/scene.h"

namespace pabd {
namespace {

[[noreturn]] void fail(const std::string& file, const std::string& path, const std::string& what) {
  std::string line = file + ": " + path + ": " + what;
  if (line.size() > 400) line = line.substr(0, 400) + "...";  // a huge prefix stays readable
  throw SceneError(line);
}

const char* const kAxis[3] = {"x", "y", "z"};

Real component(Vec3 v, int axis) { return axis == 0 ? v.x : axis == 1 ? v.y : v.z; }

/// Bodies in the array: nx ny nz, or -1 if that exceeds `limit` (no overflow: each
/// count is at most kMaxSceneBodies, so a product of two fits in 64 bits).
long long array_size(const BodyArray& a, long long limit) {
  const long long xy = a.count[0] * a.count[1];
  if (xy > limit) return -1;
  const long long xyz = xy * a.count[2];
  return xyz > limit ? -1 : xyz;
}

/// Checks everything about one array that does not depend on the other bodies.
void check_array(const std::string& file, const BodyArray& a) {
  // The last body is the farthest along each axis (spacing > 0): its position bounds all.
  for (int axis = 0; axis < 3; ++axis) {
    const Real last = component(a.origin, axis) +
                      static_cast<Real>(a.count[axis] - 1) * component(a.spacing, axis);
    if (!std::isfinite(last))
      fail(file, a.json_path + "/spacing",
           std::string("expected positions that stay finite, got origin + (count - 1) spacing "
                       "non-finite along ") +
               kAxis[axis]);
  }
  // The World API's checks of the template (e.g. a mass that overflows), once.
  try {
    World probe(default_world_def());
    BodyDef body = a.body;
    body.name = array_body_name(a.prefix, 0, 0, 0);
    body.position = a.origin;
    probe.add_body(body);
  } catch (const SceneError&) {
    throw;
  } catch (const Error& e) {
    fail(file, a.json_path, e.what());
  }
}

/// Where the body at `index` came from: "/bodies/I", or "/arrays/A" (element PREFIX_i_j_k).
std::string source_of(std::size_t index, std::size_t listed, const std::vector<BodyArray>& arrays,
                      const std::vector<std::size_t>& first) {
  if (index < listed) return "/bodies/" + std::to_string(index);
  std::size_t a = 0;
  while (a + 1 < first.size() && first[a + 1] <= index) ++a;
  return arrays[a].json_path;
}

}  // namespace

std::string array_body_name(const std::string& prefix, long long i, long long j, long long k) {
  std::string name = prefix;
  name.reserve(prefix.size() + 24);
  name += '_';
  name += std::to_string(i);
  name += '_';
  name += std::to_string(j);
  name += '_';
  name += std::to_string(k);
  return name;
}

void expand_body_arrays(const std::string& file, const std::vector<BodyArray>& arrays,
                        std::vector<BodyDef>& bodies, BodyNameIndex& names, long long max_bodies) {
  max_bodies = std::min(max_bodies, kMaxSceneBodies);  // array_size's products stay in range
  // Count first: the limit is on the scene's whole body list.
  const std::size_t listed = bodies.size();
  long long total = static_cast<long long>(listed);
  std::vector<std::size_t> first;  // index of each array's first body
  for (const BodyArray& a : arrays) {
    const long long n = array_size(a, max_bodies);
    if (n < 0 || total + n > max_bodies)
      fail(file, a.json_path + "/count",
           "expected at most " + std::to_string(max_bodies) + " bodies in the scene, got " +
               std::to_string(a.count[0]) + " x " + std::to_string(a.count[1]) + " x " +
               std::to_string(a.count[2]) + " more after " + std::to_string(total));
    check_array(file, a);
    first.push_back(static_cast<std::size_t>(total));
    total += n;
  }
  bodies.reserve(static_cast<std::size_t>(total));
  names.reserve(static_cast<std::size_t>(total));

  // One pass per array; x fastest, then z, then y (whole layers, bottom up).
  for (const BodyArray& a : arrays) {
    const auto [nx, ny, nz] = a.count;
    for (long long j = 0; j < ny; ++j) {
      const Real y = a.origin.y + static_cast<Real>(j) * a.spacing.y;
      for (long long k = 0; k < nz; ++k) {
        const Real z = a.origin.z + static_cast<Real>(k) * a.spacing.z;
        for (long long i = 0; i < nx; ++i) {
          BodyDef body = a.body;
          body.name = array_body_name(a.prefix, i, j, k);
          body.position = {a.origin.x + static_cast<Real>(i) * a.spacing.x, y, z};
          const auto [it, inserted] = names.emplace(body.name, bodies.size());
          if (!inserted)
            fail(file, a.json_path + "/name",
                 "expected a unique body name, got '" + body.name + "' (element [" +
                     std::to_string(i) + "," + std::to_string(j) + "," + std::to_string(k) +
                     "] of this array), already used by " +
                     source_of(it->second, listed, arrays, first));
          bodies.push_back(std::move(body));
        }
      }
    }
  }
}

}  // namespace pabd
