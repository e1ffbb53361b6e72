// peer_pabd: pabd itself through the peer harness, so that its timings and
// outcome metrics come from the same loop and the same code as the peers'.
// The World is built with pabd::build_world from the scene's own settings
// (iterations, iteration order, relaxation, ...), as `pabd run` would, with
// --threads T (default 1) and --iterations K overriding them.
#include <algorithm>
#include <memory>

#include "peer_harness.h"

namespace {

using pabd::peers::EngineInfo;
using pabd::peers::PeerEngine;
using pabd::peers::PeerOptions;
using pabd::peers::PeerPose;
using pabd::peers::PeerScene;

class PabdEngine final : public PeerEngine {
 public:
  PabdEngine(const PeerScene& ps, const PeerOptions& options, EngineInfo& info)
      : world_(build_world(ps, options)) {
    const pabd::WorldDef& s = world_.settings();
    ids_.reserve(static_cast<std::size_t>(world_.body_count()));
    for (int i = 0; i < world_.body_count(); ++i) ids_.push_back(world_.body_at(i));
    info.version = PABD_PROJECT_VERSION;
    info.iterations = s.iterations;
    info.threads = s.threads;
    info.settings = {{"solver", s.solver == pabd::SolverKind::Pabd ? "pabd" : "avbd"},
                     {"iteration_order",
                      s.iteration_order == pabd::IterationOrder::Jacobi ? "jacobi" : "colored"},
                     {"relaxation", pabd::peers::number_text(s.relaxation)},
                     {"chebyshev_rho", pabd::peers::number_text(s.chebyshev_rho)},
                     {"contact_margin", pabd::peers::number_text(s.contact_margin)},
                     {"from", "the scene's settings (as pabd run)"}};
  }

  void step() override {
    const pabd::StepResult r = world_.step();
    (void)r;  // a non-finite state is caught by the harness from the poses
  }

  PeerPose pose(int index) const override {
    const pabd::BodyState s = world_.body_state(ids_[static_cast<std::size_t>(index)]);
    return {s.position, s.orientation, s.velocity, s.angular_velocity};
  }

  // Separation at detection (start of the step), as the peers' manifolds.
  double contact_penetration() const override {
    double deepest = 0;
    const int n = world_.contact_count();
    for (int i = 0; i < n; ++i) deepest = std::max(deepest, -world_.contact(i).separation);
    return deepest;
  }

  long contact_points() const override { return world_.contact_count(); }

 private:
  static pabd::World build_world(const PeerScene& ps, const PeerOptions& options) {
    pabd::WorldDef settings = ps.scene.settings;
    settings.threads = options.threads;
    if (options.iterations > 0) settings.iterations = options.iterations;
    return pabd::build_world(ps.scene, settings);
  }

  pabd::World world_;
  std::vector<pabd::BodyId> ids_;
};

}  // namespace

int main(int argc, char** argv) {
  return pabd::peers::run_peer(argc, argv, "pabd",
                               [](const PeerScene& ps, const PeerOptions& o,
                                  EngineInfo& info) -> std::unique_ptr<PeerEngine> {
                                 return std::make_unique<PabdEngine>(ps, o, info);
                               });
}
