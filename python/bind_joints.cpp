// Joints from Python: names, the effort inputs (how MJCF motors are driven:
// gear x ctrl), drives, and per-joint arrays of the JointInfo readouts
// (coordinate, drive and limit forces). Joints are named by name or by index
// (0..joint_count-1, the order they were added in, as the arrays are).
#include <pybind11/stl.h>

#include <string>
#include <vector>

#include "bind_common.h"

namespace pabd_python {

namespace {

using pabd::World;

/// A float64 array of value(id) over the joint slots (0 for a removed joint).
template <typename Value>
py::array_t<double> per_joint(const World& w, Value value) {
  py::array_t<double> out(w.joint_count());
  auto a = out.mutable_unchecked<1>();
  for (int j = 0; j < w.joint_count(); ++j) {
    const pabd::JointId id = w.joint_at(j);
    a(j) = w.is_valid(id) ? value(id) : 0.0;
  }
  return out;
}

}  // namespace

/// A drive from a dict of JointDrive's fields by name ("mode" required).
pabd::JointDrive to_drive(const py::handle& value, const std::string& what) {
  if (!py::isinstance<py::dict>(value))
    throw pabd::Error(what + ": expected a dict with mode and the drive's fields");
  pabd::JointDrive d;
  const py::dict fields = value.cast<py::dict>();
  if (!fields.contains("mode"))
    throw pabd::Error(what + ": mode: expected \"position\", \"velocity\" or \"off\"");
  const std::pair<const char*, double pabd::JointDrive::*> numbers[] = {
      {"target", &pabd::JointDrive::target},       {"max_force", &pabd::JointDrive::max_force},
      {"stiffness", &pabd::JointDrive::stiffness}, {"damping", &pabd::JointDrive::damping},
      {"amplitude", &pabd::JointDrive::amplitude}, {"frequency", &pabd::JointDrive::frequency},
      {"phase", &pabd::JointDrive::phase}};
  for (const auto& [key, item] : fields) {
    const std::string k = py::str(key);
    if (k == "mode") {
      const std::string mode = py::isinstance<py::str>(item) ? item.cast<std::string>() : "";
      if (mode == "position")
        d.mode = pabd::DriveMode::Position;
      else if (mode == "velocity")
        d.mode = pabd::DriveMode::Velocity;
      else if (mode == "off")
        d.mode = pabd::DriveMode::Off;
      else
        throw pabd::Error(what + ": mode: expected \"position\", \"velocity\" or \"off\", got " +
                          std::string(py::repr(item)));
      continue;
    }
    bool known = false;
    for (const auto& [name, member] : numbers)
      if (k == name) {
        d.*member = to_number(item, what + ": " + k);
        known = true;
      }
    if (!known)
      throw pabd::Error(what + ": unknown key '" + k +
                        "' (expected mode, target, max_force, stiffness, damping, amplitude, "
                        "frequency, phase)");
  }
  return d;
}

void bind_joints(py::class_<World>& world) {
  world
      .def_property_readonly(
          "joint_names",
          [](const World& w) {
            std::vector<std::string> names;
            for (int j = 0; j < w.joint_count(); ++j) {
              const pabd::JointId id = w.joint_at(j);
              names.push_back(w.is_valid(id) ? w.joint_name(id) : std::string());
            }
            return names;
          },
          "Every joint's name, in index order ('' = unnamed)")
      .def_property_readonly(
          "joint_kinds",
          [](const World& w) {
            std::vector<std::string> kinds;
            for (int j = 0; j < w.joint_count(); ++j) {
              const pabd::JointId id = w.joint_at(j);
              kinds.push_back(w.is_valid(id) ? pabd::joint_kind_name(w.joint_info(id).kind) : "");
            }
            return kinds;
          },
          "Every joint's kind ('spring', 'spherical', 'hinge', 'fixed', 'slider', 'distance')")
      .def(
          "find_joint",
          [](const World& w, const std::string& name) {
            return static_cast<int>(w.find_joint(name).index);
          },
          py::arg("name"), "The index of the joint of this name; ValueError if there is none")
      .def(
          "set_joint_effort",
          [](World& w, const py::object& joint, const py::object& effort) {
            w.set_joint_effort(joint_of(w, joint), to_number(effort, "set_joint_effort: effort"));
          },
          py::arg("joint"), py::arg("effort"),
          "The effort input of a hinge [N m] or slider [N] (joint by name or index): from the "
          "next step on, until changed, a torque about (force along) +axis on body_b and the "
          "opposite on body_a. How an MJCF motor is driven: effort = gear x ctrl.")
      .def_property_readonly(
          "joint_efforts",
          [](const World& w) {
            return per_joint(w, [&w](pabd::JointId id) { return w.joint_effort(id); });
          },
          "Every joint's effort input [N m] or [N] (0 for joints without one); a copy")
      .def(
          "set_joint_drive",
          [](World& w, const py::object& joint, const py::object& mode, const py::kwargs& fields) {
            py::dict drive;
            for (const auto& [key, value] : fields) drive[key] = value;
            drive["mode"] = mode;
            w.set_joint_drive(joint_of(w, joint), to_drive(drive, "set_joint_drive"));
          },
          py::arg("joint"), py::arg("mode"),
          "Replaces a hinge's or slider's drive from the next step (joint by name or index). "
          "mode 'velocity': target speed [rad/s or m/s] within max_force [N m or N] (default "
          "unbounded); 'position': a spring (stiffness) and damper (damping) toward target + "
          "amplitude sin(2 pi frequency t + phase); 'off': none.")
      .def_property_readonly(
          "joint_coordinates",
          [](const World& w) {
            return per_joint(w, [&w](pabd::JointId id) { return w.joint_info(id).coordinate; });
          },
          "Every joint's coordinate: hinge angle of body_b about +axis relative to body_a [rad], "
          "slider travel [m], both 0 at creation; 0 for other joints. A copy.")
      .def_property_readonly(
          "joint_drive_forces",
          [](const World& w) {
            return per_joint(w, [&w](pabd::JointId id) { return w.joint_info(id).drive_force; });
          },
          "Every joint's drive torque [N m] (hinge) or force [N] (slider) on body_b in the last "
          "step; 0 without a drive. A copy.")
      .def_property_readonly(
          "joint_limit_forces",
          [](const World& w) {
            return per_joint(w, [&w](pabd::JointId id) { return w.joint_info(id).limit_force; });
          },
          "Every joint's limit torque [N m] or force [N] on body_b in the last step; 0 without "
          "limits. A copy.");
}

}  // namespace pabd_python
