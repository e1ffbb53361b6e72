// What the Python module's files (python/*.cpp) share: conversions from Python
// values that fail with a one-line pabd::Error (raised as ValueError), body and
// joint look-up by name or index, and one function per file that adds its
// topic's bindings.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>

#include "pabd/world.h"

namespace pabd_python {

namespace py = pybind11;

/// A 3-vector from any sequence of 3 numbers; Error "what: expected 3 numbers".
pabd::Vec3 to_vec3(const py::handle& value, const std::string& what);
/// A quaternion (w, x, y, z) from 4 numbers; Error "what: expected 4 numbers (w, x, y, z)".
pabd::Quat to_quat(const py::handle& value, const std::string& what);
/// A number; Error "what: expected a number".
double to_number(const py::handle& value, const std::string& what);
/// An (n, 3) float64 array from any array-like; Error "what: expected an n x 3 array".
py::array_t<double> to_rows3(const py::handle& value, const std::string& what);

/// A numpy 3-vector (a copy).
py::array_t<double> vec3_array(pabd::Vec3 v);

/// A body by name or by index (the module's arrays are in index order).
pabd::BodyId body_of(const pabd::World& w, const py::handle& key);
/// A joint by name or by index (0..joint_count-1, the order joints were added in).
pabd::JointId joint_of(const pabd::World& w, const py::handle& key);

/// A hinge or slider drive from a dict of JointDrive's fields by name: mode
/// ("position", "velocity", "off"; required), target, max_force, stiffness,
/// damping, amplitude, frequency, phase (bind_joints.cpp).
pabd::JointDrive to_drive(const py::handle& value, const std::string& what);

/// A shape: a pabd.Shape, or a dict {"type": "box", "size": [...]} with the
/// keyword arguments of the factory of that name (bind_shapes.cpp).
pabd::ShapeDef shape_of(const py::handle& value, const std::string& what);

/// pabd.Shape and its factories (bind_shapes.cpp).
void bind_shapes(py::module_& m);
/// World(settings), World.settings, add_body, add_joint (bind_build.cpp).
void bind_building(py::class_<pabd::World>& world);
/// Joint names, efforts, drives and per-joint arrays (bind_joints.cpp).
void bind_joints(py::class_<pabd::World>& world);
/// Sand and water surfaces, cloths, the sand's volume, the water's height (bind_fields.cpp).
void bind_fields(py::class_<pabd::World>& world);

}  // namespace pabd_python
