// Limits and drives of hinges and sliders, on the World's side: each such
// joint's axis frame (JointAxis), its limit and drive bonds
// (src/bonds/axis_bond.h), the drive settings, and the read-back of the
// joint's coordinate and forces. docs/joints/limits.md, docs/joints/drives.md.
#pragma once

#include "pabd/world.h"
#include "world/world_impl.h"

namespace pabd {

/// Records the axis of joint `joint`, a hinge or slider just created at
/// `anchor` along the unit `axis` with reference lever `lever` [m] (hinges),
/// and adds its limit and drive bonds. Limits and drive must be valid.
void add_joint_axis(WorldImpl& w, int joint, bool hinge, Vec3 anchor, Vec3 axis, Real lever,
                    Real stiffness, const JointLimits& limits, const JointDrive& drive);
/// Replaces a hinge's or slider's drive (valid values), adding its drive bonds
/// on first use.
void set_joint_axis_drive(WorldImpl& w, int joint, const JointDrive& drive);
/// Fills info.coordinate, info.drive_force and info.limit_force of a hinge or slider.
void read_joint_axis(const WorldImpl& w, int joint, JointInfo& info);
/// Detaches a joint's limit and drive bonds (the joint is being removed).
void detach_joint_axis(WorldImpl& w, int joint);

}  // namespace pabd
