// The fields beside the bodies (pabd/fields.h, docs/fields.md), as Python sees
// them: the sand and water surfaces as numpy grids, the cloths' particles and
// triangles, the sand's volume and the water's height. A scene file adds the
// fields; these read them while it runs.
#include <cstring>

#include "bind_common.h"

namespace pabd_python {

namespace {

py::dict surface_dict(const pabd::World& w, int index) {
  const pabd::SurfaceInfo s = w.surface(index);
  py::array_t<double> heights({s.rows, s.columns});
  std::memcpy(heights.mutable_data(), s.height.data(), s.height.size() * sizeof(double));
  py::dict out;
  out["name"] = s.name;
  out["kind"] = s.kind == pabd::SurfaceKind::Sand ? "sand" : "water";
  out["x0"] = s.x0;
  out["z0"] = s.z0;
  out["spacing"] = s.spacing;
  out["heights"] = heights;
  return out;
}

py::dict cloth_dict(const pabd::World& w, int index) {
  const pabd::ClothInfo c = w.cloth(index);
  py::array_t<std::int64_t> particles(static_cast<py::ssize_t>(c.particles.size()));
  for (std::size_t i = 0; i < c.particles.size(); ++i) particles.mutable_data()[i] = c.particles[i];
  const py::ssize_t n = static_cast<py::ssize_t>(c.triangles.size() / 3);
  py::array_t<std::int64_t> triangles({n, py::ssize_t(3)});
  for (std::size_t i = 0; i < c.triangles.size(); ++i) triangles.mutable_data()[i] = c.triangles[i];
  py::dict out;
  out["name"] = c.name;
  out["particles"] = particles;
  out["triangles"] = triangles;
  return out;
}

}  // namespace

void bind_fields(py::class_<pabd::World>& world) {
  world
      .def(
          "surfaces",
          [](const pabd::World& w) {
            py::list out;
            for (int i = 0; i < w.surface_count(); ++i) out.append(surface_dict(w, i));
            return out;
          },
          "The sand and water surfaces now, as a list of dicts: name, kind (\"sand\" or "
          "\"water\"), x0, z0 (world x and z of vertex (0, 0) [m]), spacing [m] and heights "
          "(rows x columns numpy array of world y [m], a copy)")
      .def(
          "cloths",
          [](const pabd::World& w) {
            py::list out;
            for (int i = 0; i < w.cloth_count(); ++i) out.append(cloth_dict(w, i));
            return out;
          },
          "The cloths as a list of dicts: name, particles (the body index of each vertex) and "
          "triangles (n x 3 vertex indices)")
      .def("sand_volume", &pabd::World::sand_volume,
           "Volume of sand above its floor [m^3] (0 without sand)")
      .def("water_height", &pabd::World::water_height, py::arg("x"), py::arg("z"),
           "Height of the water surface at world (x, z) now: waves plus wake [m]");
}

}  // namespace pabd_python
