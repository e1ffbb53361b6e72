// Joint kinds: the kind of a JointDef, the kind's one name, and
// World::add_joint, which hands a JointDef to its kind's add_* function.
//
// Both visits take one overload per alternative of JointDef and nothing
// generic, so a definition added to the variant without a case here fails to
// compile; joint_kind_name's switch names every JointKind without a default
// (-Wswitch, -Werror).
#include "pabd/world.h"

namespace pabd {

namespace {

template <typename... Fn>
struct Overloads : Fn... {
  using Fn::operator()...;
};
template <typename... Fn>
Overloads(Fn...) -> Overloads<Fn...>;

}  // namespace

JointKind joint_kind(const JointDef& def) {
  return std::visit(Overloads{
                        [](const SpringDef&) { return JointKind::Spring; },
                        [](const SphericalJointDef&) { return JointKind::Spherical; },
                        [](const HingeJointDef&) { return JointKind::Hinge; },
                        [](const FixedJointDef&) { return JointKind::Fixed; },
                        [](const SliderJointDef&) { return JointKind::Slider; },
                        [](const DistanceJointDef&) { return JointKind::Distance; },
                    },
                    def);
}

const char* joint_kind_name(JointKind kind) {
  switch (kind) {
    case JointKind::Spring:
      return "spring";
    case JointKind::Spherical:
      return "spherical";
    case JointKind::Hinge:
      return "hinge";
    case JointKind::Fixed:
      return "fixed";
    case JointKind::Slider:
      return "slider";
    case JointKind::Distance:
      return "distance";
  }
  throw Error("joint kind " + std::to_string(static_cast<int>(kind)) + " has no name");
}

JointId World::add_joint(const JointDef& def) {
  return std::visit(Overloads{
                        [this](const SpringDef& d) { return add_spring(d); },
                        [this](const SphericalJointDef& d) { return add_spherical_joint(d); },
                        [this](const HingeJointDef& d) { return add_hinge_joint(d); },
                        [this](const FixedJointDef& d) { return add_fixed_joint(d); },
                        [this](const SliderJointDef& d) { return add_slider_joint(d); },
                        [this](const DistanceJointDef& d) { return add_distance_joint(d); },
                    },
                    def);
}

}  // namespace pabd
