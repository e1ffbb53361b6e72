// pabd.Shape and its factories, which wrap the C++ shape builders of
// pabd/world.h: box, sphere, capsule, plane, convex_hull, compound,
// height_field, triangle_mesh. A Shape is opaque (a ShapeDef; copies share the
// built geometry). add_body also takes a shape as a dict, the factory's name
// under "type" and its keyword arguments, as scene files write shapes.
#include <pybind11/stl.h>

#include <cstdint>
#include <sstream>
#include <vector>

#include "bind_common.h"

namespace pabd_python {

namespace {

using pabd::ShapeDef;
using pabd::ShapeType;

/// A factory's keyword arguments, for shapes given as dicts.
struct FactoryArgs {
  const char* kind;
  std::vector<const char*> required;
  std::vector<const char*> optional;
};

const std::vector<FactoryArgs>& factories() {
  static const std::vector<FactoryArgs> table = {
      {"box", {"size"}, {}},
      {"sphere", {"radius"}, {}},
      {"capsule", {"radius", "half_height"}, {}},
      {"plane", {}, {"normal", "offset"}},
      {"convex_hull", {"points"}, {}},
      {"compound", {"children"}, {}},
      {"height_field", {"heights"}, {"spacing"}},
      {"triangle_mesh", {"vertices", "indices"}, {}},
  };
  return table;
}

/// "a, b or c" of the factories' names.
std::string factory_names() {
  std::string out;
  const auto& table = factories();
  for (std::size_t i = 0; i < table.size(); ++i)
    out += (i == 0 ? "" : i + 1 == table.size() ? " or " : ", ") + std::string(table[i].kind);
  return out;
}

bool contains(const std::vector<const char*>& names, const std::string& name) {
  for (const char* n : names)
    if (name == n) return true;
  return false;
}

std::vector<pabd::Vec3> vec3_list(const py::handle& value, const std::string& what) {
  const py::array_t<double> a = to_rows3(value, what);
  const auto r = a.unchecked<2>();
  std::vector<pabd::Vec3> out(static_cast<std::size_t>(r.shape(0)));
  for (py::ssize_t i = 0; i < r.shape(0); ++i) out[std::size_t(i)] = {r(i, 0), r(i, 1), r(i, 2)};
  return out;
}

ShapeDef box(const py::object& size) { return pabd::box_shape(to_vec3(size, "box: size")); }

ShapeDef sphere(const py::object& radius) {
  return pabd::sphere_shape(to_number(radius, "sphere: radius"));
}

ShapeDef capsule(const py::object& radius, const py::object& half_height) {
  return pabd::capsule_shape(to_number(radius, "capsule: radius"),
                             to_number(half_height, "capsule: half_height"));
}

ShapeDef plane(const py::object& normal, const py::object& offset) {
  return pabd::plane_shape(to_vec3(normal, "plane: normal"), to_number(offset, "plane: offset"));
}

ShapeDef convex_hull(const py::object& points) {
  return pabd::convex_hull_shape(vec3_list(points, "convex hull: points"));
}

ShapeDef compound(const py::object& children) {
  const char* expected =
      "compound: children: expected a non-empty list of (shape, position, orientation)";
  if (!py::isinstance<py::sequence>(children) || py::isinstance<py::str>(children))
    throw pabd::Error(expected);
  std::vector<pabd::CompoundChild> parts;
  const auto list = children.cast<py::sequence>();
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string what = "compound: children[" + std::to_string(i) + "]";
    const py::object item = list[i];
    pabd::CompoundChild part;
    if (py::isinstance<ShapeDef>(item) || py::isinstance<py::dict>(item)) {
      part.shape = shape_of(item, what);  // a bare shape: at the compound's origin
    } else {
      if (!py::isinstance<py::sequence>(item) || py::isinstance<py::str>(item))
        throw pabd::Error(what + ": expected (shape, position, orientation)");
      const auto t = item.cast<py::sequence>();
      if (t.size() < 1 || t.size() > 3)
        throw pabd::Error(what + ": expected (shape, position, orientation)");
      part.shape = shape_of(t[0], what + ": shape");
      if (t.size() > 1) part.position = to_vec3(t[1], what + ": position");
      if (t.size() > 2) part.orientation = to_quat(t[2], what + ": orientation");
    }
    parts.push_back(std::move(part));
  }
  if (parts.empty()) throw pabd::Error(expected);
  return pabd::compound_shape(parts);
}

ShapeDef height_field(const py::object& heights, const py::object& spacing) {
  using Grid = py::array_t<double, py::array::c_style | py::array::forcecast>;
  const Grid h = Grid::ensure(heights);
  if (!h || h.ndim() != 2)
    throw pabd::Error("height field: heights: expected a rows x columns array of numbers");
  double sx = 0, sz = 0;
  if (py::isinstance<py::sequence>(spacing)) {
    const auto s = spacing.cast<py::sequence>();
    if (s.size() != 2) throw pabd::Error("height field: spacing: expected a number or [x, z]");
    sx = to_number(s[0], "height field: spacing");
    sz = to_number(s[1], "height field: spacing");
  } else {
    sx = sz = to_number(spacing, "height field: spacing");
  }
  const std::vector<double> values(h.data(), h.data() + h.size());
  return pabd::height_field_shape(static_cast<int>(h.shape(1)), static_cast<int>(h.shape(0)), sx,
                                  sz, values);
}

ShapeDef triangle_mesh(const py::object& vertices, const py::object& indices) {
  const char* expected = "triangle mesh: indices: expected integers, three per triangle";
  const py::array any = py::array::ensure(indices);
  if (!any || (any.dtype().kind() != 'i' && any.dtype().kind() != 'u') || any.size() % 3 != 0)
    throw pabd::Error(expected);
  using Ints = py::array_t<std::int64_t, py::array::c_style | py::array::forcecast>;
  const Ints flat = Ints::ensure(any);
  std::vector<int> corners(static_cast<std::size_t>(flat.size()));
  for (py::ssize_t i = 0; i < flat.size(); ++i) {
    const std::int64_t k = flat.data()[i];
    if (k < 0 || k > INT32_MAX)
      throw pabd::Error("triangle mesh: indices: index " + std::to_string(k) + " out of range");
    corners[std::size_t(i)] = static_cast<int>(k);
  }
  return pabd::triangle_mesh_shape(vec3_list(vertices, "triangle mesh: vertices"), corners);
}

std::string repr(const ShapeDef& s) {
  std::ostringstream out;
  out << "pabd.Shape('" << pabd::shape_type_name(s.type) << "'";
  const auto v = [&out](pabd::Vec3 x) { out << "[" << x.x << ", " << x.y << ", " << x.z << "]"; };
  switch (s.type) {
    case ShapeType::Box:
      out << ", size=";
      v(s.size);
      break;
    case ShapeType::Sphere:
      out << ", radius=" << s.radius;
      break;
    case ShapeType::Capsule:
      out << ", radius=" << s.radius << ", half_height=" << s.half_height;
      break;
    case ShapeType::Plane:
      out << ", normal=";
      v(s.normal);
      out << ", offset=" << s.offset;
      break;
    default:
      break;
  }
  out << ")";
  return out.str();
}

}  // namespace

ShapeDef shape_of(const py::handle& value, const std::string& what) {
  if (py::isinstance<ShapeDef>(value)) return value.cast<ShapeDef>();
  if (!py::isinstance<py::dict>(value))
    throw pabd::Error(what + ": expected a pabd.Shape or a dict with \"type\"");
  py::dict args = value.cast<py::dict>();
  if (!args.contains("type")) throw pabd::Error(what + ": type: expected " + factory_names());
  const std::string kind = py::str(args["type"]);
  const std::string name = kind == "heightfield" ? "height_field" : kind;  // as scene files write
  for (const FactoryArgs& f : factories()) {
    if (name != f.kind) continue;
    py::dict kwargs;
    for (const auto& [key, item] : args) {
      const std::string k = py::str(key);
      if (k == "type") continue;
      if (!contains(f.required, k) && !contains(f.optional, k))
        throw pabd::Error(what + ": unknown key '" + k + "' for a " + f.kind + " shape");
      kwargs[key] = item;
    }
    for (const char* r : f.required)
      if (!kwargs.contains(r))
        throw pabd::Error(what + ": " + r + ": expected a value (a " + f.kind + " needs it)");
    return py::module_::import("pabd").attr(f.kind)(**kwargs).cast<ShapeDef>();
  }
  throw pabd::Error(what + ": type: expected " + factory_names() + ", got '" + kind + "'");
}

void bind_shapes(py::module_& m) {
  py::class_<ShapeDef>(m, "Shape",
                       "A body's geometry, made by the factories pabd.box, sphere, capsule, "
                       "plane, convex_hull, compound, height_field, triangle_mesh (opaque; "
                       "copies share the built geometry)")
      .def_property_readonly(
          "kind", [](const ShapeDef& s) { return pabd::shape_type_name(s.type); },
          "The factory's name: 'box', 'sphere', ...")
      .def_property_readonly(
          "origin_shift", [](const ShapeDef& s) { return vec3_array(pabd::shape_origin_shift(s)); },
          "Where the origin of a hull's points (a compound's children's frame) lies in the "
          "body frame, whose origin is the centre of mass [m]; zero for the other shapes")
      .def("__repr__", &repr);

  m.def("box", &box, py::arg("size"), "A box of full edge lengths size = (x, y, z) [m]");
  m.def("sphere", &sphere, py::arg("radius"), "A ball of radius [m]");
  m.def("capsule", &capsule, py::arg("radius"), py::arg("half_height"),
        "A capsule: a segment of half length half_height [m] along local Y grown by radius [m]");
  m.def("plane", &plane, py::arg("normal") = std::vector<double>{0, 1, 0}, py::arg("offset") = 0.0,
        "The half-space normal . x <= offset [m] (static bodies only; normal need not be unit)");
  m.def("convex_hull", &convex_hull, py::arg("points"),
        "The convex hull of points (n x 3 [m], at least 4 not on one plane), shifted so that "
        "its centre of mass is the body origin (Shape.origin_shift)");
  m.def("compound", &compound, py::arg("children"),
        "A rigid union of convex children, a list of (shape, position [m], orientation (w, x, y, "
        "z)) (position and orientation optional), shifted so that the centre of mass is the "
        "body origin (Shape.origin_shift)");
  m.def("height_field", &height_field, py::arg("heights"), py::arg("spacing") = 1.0,
        "A height field (static bodies only): heights[r, c] [m] over a rows x columns grid "
        "(each >= 2), column c along local +x, row r along +z, centred on the origin; spacing "
        "[m] is one number or (x, z)");
  m.def("triangle_mesh", &triangle_mesh, py::arg("vertices"), py::arg("indices"),
        "A static triangle mesh: vertices (n x 3 [m]) and indices (m x 3 or flat integers), "
        "counter-clockwise seen from the front (contacts push toward the front)");
}

}  // namespace pabd_python
