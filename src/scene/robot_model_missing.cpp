// The robot model readers of a build without their libraries: each says what
// to install (scripts/install-deps.sh installs both on Debian).
#include <string>

#include "scene/robot_model.h"

namespace pabd {

#ifndef PABD_WITH_URDF
RobotModel read_urdf_model(const std::string& path) {
  throw SceneError(path +
                   ": expected a build with URDF support (liburdfdom-dev was not found "
                   "when pabd was configured)");
}
#endif

#ifndef PABD_WITH_MJCF
bool mjcf_supported() { return false; }
RobotModel read_mjcf_model(const std::string& path) {
  throw SceneError(path +
                   ": expected a build with MJCF support (libmujoco-dev was not found "
                   "when pabd was configured)");
}
#endif

}  // namespace pabd
