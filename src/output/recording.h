// A recorded simulation: what every output (glTF, HTML player) needs, taken
// from a World through its public API while `pabd run` steps it.
//
// Poses only: velocities are not kept (the player derives what it shows from
// consecutive poses), and a joint is recorded once as its two material points,
// so its end points follow from the poses of its bodies.
//
// Sand and water surfaces are grids of heights that change every step: each
// is kept downsampled (at most kMaxSurfaceSide vertices a side) and only at
// some frames, so that one surface never holds more than kSurfaceSampleBudget
// heights. The number of frames is not known when recording starts (`pabd run`
// may fail early, a script may stop when it likes), so the thinning happens as
// the frames come: a surface keeps frames 0, k, 2k, ... of the recording plus
// the latest one, and when the budget is reached k doubles and every other
// kept frame is dropped. Memory stays bounded and the kept frames stay evenly
// spaced (at least half the budget is in use once thinning has started). A
// cloth needs nothing per frame: its particles are bodies, recorded as any other.
#pragma once

#include <string>
#include <vector>

#include "pabd/fields.h"
#include "pabd/world.h"

namespace pabd {

/// At most this many vertices along each side of a recorded surface.
inline constexpr int kMaxSurfaceSide = 128;
/// At most this many heights (frames x vertices) kept per recorded surface.
inline constexpr std::size_t kSurfaceSampleBudget = 4'000'000;

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

/// A sand or water surface (World::surface), every `stride`-th vertex of the
/// World's grid along each side, at some of the recording's frames.
struct RecordedSurface {
  std::string name;
  SurfaceKind kind = SurfaceKind::Sand;
  int body = -1;        ///< the recorded body carrying it (the sand's height field), or -1
  int stride = 1;       ///< World grid vertices between recorded vertices
  int columns = 0;      ///< recorded vertices along x
  int rows = 0;         ///< recorded vertices along z
  Real spacing = 0;     ///< between recorded vertices [m] (the World's spacing times stride)
  Real x0 = 0, z0 = 0;  ///< world x and z of vertex (0, 0) [m]
  /// Heights are kept at recording frames that are multiples of this, plus the latest.
  int every = 1;
  std::vector<int> frame;  ///< the recording frame of each kept height frame, increasing
  /// World y [m]: kept frame k's vertex (c, r) is [(k * rows + r) * columns + c].
  std::vector<float> height;

  int frame_count() const { return static_cast<int>(frame.size()); }
  std::size_t vertex_count() const { return std::size_t(columns) * std::size_t(rows); }
};

/// A cloth (World::cloth): a triangle mesh whose vertices are recorded bodies.
struct RecordedCloth {
  std::string name;
  std::vector<int> particles;  ///< the recorded body of each cloth vertex
  std::vector<int> triangles;  ///< three recorded body indices per triangle
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
  std::vector<RecordedJoint> joints;      ///< valid joints, in World order
  std::vector<RecordedSurface> surfaces;  ///< sand, then water (World::surface order)
  std::vector<RecordedCloth> cloths;      ///< in World::cloth order

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
  /// Bodies a surface or cloth draws (the sand's height field, cloth
  /// particles): the outputs show the surface or cloth instead. Per body.
  std::vector<bool> drawn_by_field() const;
};

/// Starts a recording of `world` (bodies, joints, and frame 0); with
/// `contacts`, every frame also keeps the last step's contact points.
Recording start_recording(const World& world, const std::string& scene, int every,
                          bool contacts = false);
/// Appends the world's current state as a frame (the surfaces' heights as
/// their thinning allows).
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
