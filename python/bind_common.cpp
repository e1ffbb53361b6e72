// Conversions from Python values and body and joint look-up, shared by the
// module's files (bind_common.h). Every failure is a pabd::Error with one line
// "what: expected ...", which the module raises as ValueError.
#include "bind_common.h"

#include <pybind11/stl.h>

#include <vector>

namespace pabd_python {

namespace {

/// value as a T, or Error "what: expected `expected`".
template <typename T>
T cast_or_fail(const py::handle& value, const std::string& what, const char* expected) {
  try {
    return value.cast<T>();
  } catch (const py::cast_error&) {
    throw pabd::Error(what + ": expected " + expected);
  }
}

/// An index into [0, count), or Error "what index i out of range (count things)".
int index_in(const py::handle& key, int count, const char* what, const char* things) {
  const long long i = cast_or_fail<long long>(key, what, "a name or an index");
  if (i < 0 || i >= count)
    throw pabd::Error(std::string(what) + " index " + std::to_string(i) + " out of range (" +
                      std::to_string(count) + " " + things + ")");
  return static_cast<int>(i);
}

}  // namespace

pabd::Vec3 to_vec3(const py::handle& value, const std::string& what) {
  const auto v = cast_or_fail<std::vector<double>>(value, what, "3 numbers");
  if (v.size() != 3) throw pabd::Error(what + ": expected 3 numbers");
  return {v[0], v[1], v[2]};
}

pabd::Quat to_quat(const py::handle& value, const std::string& what) {
  const auto v = cast_or_fail<std::vector<double>>(value, what, "4 numbers (w, x, y, z)");
  if (v.size() != 4) throw pabd::Error(what + ": expected 4 numbers (w, x, y, z)");
  return {v[0], v[1], v[2], v[3]};
}

double to_number(const py::handle& value, const std::string& what) {
  return cast_or_fail<double>(value, what, "a number");
}

py::array_t<double> to_rows3(const py::handle& value, const std::string& what) {
  using Rows = py::array_t<double, py::array::c_style | py::array::forcecast>;
  Rows a = Rows::ensure(value);
  if (!a || a.ndim() != 2 || a.shape(1) != 3)
    throw pabd::Error(what + ": expected an n x 3 array of numbers");
  return a;
}

py::array_t<double> vec3_array(pabd::Vec3 v) {
  py::array_t<double> a(3);
  auto x = a.mutable_unchecked<1>();
  x(0) = v.x, x(1) = v.y, x(2) = v.z;
  return a;
}

pabd::BodyId body_of(const pabd::World& w, const py::handle& key) {
  if (py::isinstance<py::str>(key)) return w.find_body(key.cast<std::string>());
  return w.body_at(index_in(key, w.body_count(), "body", "bodies"));
}

pabd::JointId joint_of(const pabd::World& w, const py::handle& key) {
  if (py::isinstance<py::str>(key)) return w.find_joint(key.cast<std::string>());
  return w.joint_at(index_in(key, w.joint_count(), "joint", "joints"));
}

}  // namespace pabd_python
