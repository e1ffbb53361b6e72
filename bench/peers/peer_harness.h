// The peer harness: the parts every peer program (peer_bullet, peer_ode,
// peer_pabd) shares, so that each engine runs exactly the same scene and is
// measured the same way.
//
// A scene is read with pabd::load_scene and reduced to a PeerScene: per body
// its shape (box, sphere, capsule, plane), mass and principal inertia (from
// pabd's own mass properties, so every engine simulates the same rigid
// bodies), initial state and friction; per spherical joint its bodies and
// anchor. Anything a peer cannot express is refused with one line.
//
// run_peer() then steps the engine, timing each step alone with steady_clock,
// and after each step (outside the timing) reads every body's state and
// measures the outcome: the deepest penetration the engine's own contact
// detection reported, the deepest penetration of a body into a static plane
// (the same geometric code for every engine), the largest joint gap (distance
// between the two anchor points in world space), whether a resting scene
// stood, and the first non-finite state. It prints one JSON line.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "pabd/scene.h"

namespace pabd::peers {

/// One body of a scene, as every peer builds it.
struct PeerBody {
  std::string name;                ///< body name
  ShapeDef shape;                  ///< box, sphere, capsule or plane (pabd conventions)
  bool is_static = false;          ///< static: never moves
  Real mass = 0;                   ///< [kg] (0 for static bodies)
  Vec3 inertia{0, 0, 0};           ///< principal moments about the body axes [kg m^2]
  Vec3 position{0, 0, 0};          ///< centre of mass [m]
  Quat orientation;                ///< world-from-body rotation
  Vec3 velocity{0, 0, 0};          ///< [m/s]
  Vec3 angular_velocity{0, 0, 0};  ///< world frame [rad/s]
  Real friction = 0.5;             ///< Coulomb coefficient (pair: sqrt(f_a f_b), as pabd)
};

/// One spherical joint: the two bodies (-1 = the world) and the anchor in each frame.
struct PeerJoint {
  int body_a = -1;        ///< body index or -1 for the world
  int body_b = -1;        ///< body index or -1 for the world
  Vec3 anchor{0, 0, 0};   ///< world anchor at the initial configuration [m]
  Vec3 local_a{0, 0, 0};  ///< anchor in body_a's frame (world frame for the world) [m]
  Vec3 local_b{0, 0, 0};  ///< anchor in body_b's frame [m]
};

/// A scene reduced to what the peers build.
struct PeerScene {
  Scene scene;                    ///< the parsed scene (peer_pabd builds its World from it)
  std::vector<PeerBody> bodies;   ///< in scene order
  std::vector<PeerJoint> joints;  ///< spherical joints, in scene order
  int dynamic_bodies = 0;         ///< bodies that move
};

/// Command-line options common to every peer.
struct PeerOptions {
  std::string scene_path;  ///< scene file
  long steps = 0;          ///< steps to take; 0 = the scene's (else 300)
  int iterations = 0;      ///< solver iterations; 0 = the engine's documented default
  int threads = 1;         ///< threads (pabd only; the peers are single-threaded)
  std::string trace;       ///< body name whose position is recorded after every step
};

/// State of one body after a step, as read from an engine.
struct PeerPose {
  Vec3 position;          ///< centre of mass [m]
  Quat orientation;       ///< world-from-body rotation
  Vec3 velocity;          ///< [m/s]
  Vec3 angular_velocity;  ///< [rad/s]
};

/// What an engine must provide to the harness.
class PeerEngine {
 public:
  virtual ~PeerEngine() = default;
  /// Advances one time step (the only call that is timed).
  virtual void step() = 0;
  /// State of body `index` (scene order) now.
  virtual PeerPose pose(int index) const = 0;
  /// Deepest penetration [m] (>= 0) among the contacts the engine's own
  /// detection produced in the last step.
  virtual double contact_penetration() const = 0;
  /// Contact points the engine's own detection produced in the last step
  /// (its speculative ones included, as it counts them).
  virtual long contact_points() const = 0;
};

/// What the engine reports about its setup (written into the JSON line).
struct EngineInfo {
  std::string version;                          ///< engine version
  int iterations = 0;                           ///< solver iterations per step
  int threads = 1;                              ///< threads used
  std::map<std::string, std::string> settings;  ///< every non-default setting, by name
};

/// Builds an engine for a scene; fills `info`. Throws pabd::Error for a
/// feature it cannot express.
using EngineFactory = std::function<std::unique_ptr<PeerEngine>(
    const PeerScene& scene, const PeerOptions& options, EngineInfo& info)>;

/// A number as text for EngineInfo::settings (%g: 1e-05, 0.2, 20).
std::string number_text(double value);

/// Reads a scene and reduces it; throws pabd::Error (one line) for a shape,
/// joint or body setting the peers cannot express (`engine` names the refuser).
PeerScene load_peer_scene(const std::string& path, const std::string& engine);

/// Parses the command line, builds the engine, runs, prints one JSON line.
/// Returns the exit status (0 ok, 2 bad input or unsupported scene, 1 other).
int run_peer(int argc, char** argv, const std::string& engine, const EngineFactory& factory);

}  // namespace pabd::peers
