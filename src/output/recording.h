// A recorded simulation: what every output (glTF, HTML player) needs, taken
// from a World through its public API while `pabd run` steps it.
//
// Poses only: velocities are not kept (the player derives what it shows from
// consecutive poses), and a joint is recorded once as its two material points,
// so its end points follow from the poses of its bodies.
#pragma once

#include <string>
#include <vector>

#include "pabd/world.h"

namespace pabd {

/// A body as the outputs draw it.
struct RecordedBody {
  std::string name;        ///< unique body name
  ShapeDef shape;          ///< geometry in the body frame
  bool is_static = false;  ///< static bodies never move (one pose for all frames)
  Real mass = 0;           ///< [kg], 0 for static bodies
};

/// A joint as the outputs draw it (a line between its two ends).
struct RecordedJoint {
  JointKind kind = JointKind::Spherical;
  int body_a = -1;  ///< body index, -1 = world
  int body_b = -1;  ///< body index, -1 = world
  Vec3 local_a;     ///< end on body_a, body_a's frame (world frame for the world) [m]
  Vec3 local_b;     ///< end on body_b, body_b's frame (world frame for the world) [m]
};

/// One contact point of a frame (the last step's contacts, World::contact).
struct RecordedContact {
  Vec3 point;             ///< midpoint of the two surface points, world frame [m]
  Vec3 normal;            ///< unit normal from body_a toward body_b
  Real normal_force = 0;  ///< push along the normal [N]; 0 for a speculative contact
};

/// Frames sampled every `every` steps (frame 0 = the initial state), plus the
/// timings of every step.
struct Recording {
  std::string scene;                 ///< scene file name, for titles
  double dt = 0;                     ///< time step [s]
  int every = 1;                     ///< steps between frames
  int iterations = 0;                ///< solver iterations per step
  int threads = 1;                   ///< threads used
  bool has_contacts = false;         ///< contacts are recorded per frame
  std::vector<RecordedBody> bodies;  ///< the bodies not removed at the start, in World order
  /// World slot of each recorded body. A body removed during the recording
  /// keeps the pose it had when removed.
  std::vector<int> body_slot;
  std::vector<RecordedJoint> joints;  ///< valid joints, in World order

  std::vector<double> frame_time;  ///< per frame [s]
  std::vector<Vec3> position;      ///< frame-major: [frame * bodies + body]
  std::vector<Quat> orientation;   ///< frame-major
  /// With has_contacts: frame f's contacts are contacts[contact_start[f] ..
  /// contact_start[f + 1]) (frame_count() + 1 entries).
  std::vector<int> contact_start;
  std::vector<RecordedContact> contacts;

  std::vector<double> step_collision_ms;  ///< per step: detect stage [ms]
  std::vector<double> step_solve_ms;      ///< per step: all other stages [ms]

  int body_count() const { return static_cast<int>(bodies.size()); }
  int joint_count() const { return static_cast<int>(joints.size()); }
  int frame_count() const { return static_cast<int>(frame_time.size()); }
};

/// Starts a recording of `world` (bodies, joints, and frame 0); with
/// `contacts`, every frame also keeps the last step's contact points.
Recording start_recording(const World& world, const std::string& scene, int every,
                          bool contacts = false);
/// Appends the world's current state as a frame.
void record_frame(Recording& rec, const World& world);
/// Appends the timings of the step just taken.
void record_step_timings(Recording& rec, const StageTimings& t);

/// Writes an animated glTF 2.0 binary (.glb); throws Error on I/O failure.
void write_gltf(const Recording& rec, const std::string& path);
/// Writes a self-contained HTML player; throws Error on I/O failure.
void write_html(const Recording& rec, const std::string& path);
/// False when this build left the HTML player out (no Node.js at configure
/// time, cmake/PlayerAssets.cmake); write_html then throws kNoPlayer.
bool html_player_built();
/// Why write_html cannot write in a build without the player.
inline constexpr const char* kNoPlayer =
    "this build has no HTML player (Node.js and web/node_modules were missing when it was "
    "configured; scripts/install-deps.sh installs them)";

}  // namespace pabd
