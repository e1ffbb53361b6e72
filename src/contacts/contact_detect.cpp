// The detect stage's storage and order of work; the kernels live in
// contact_detect_kernels.h.
#include "contacts/contact_detect.h"

#include <algorithm>
#include <chrono>
#include <climits>
#include <string>
#include <utility>

#include "contacts/contact_detect_kernels.h"
#include "contacts/contact_load.h"
#include "contacts/contact_stages.h"
#include "core/block_loops.h"
#include "core/parallel.h"

namespace pabd {

std::size_t HostContactBackend::checked_size(long long n) {
  if (n > INT_MAX) throw Error("contacts: more than 2^31 - 1 pairs or contacts");
  return static_cast<std::size_t>(n);
}

ContactDetector::ContactDetector(int threads, ParallelFor custom) : broadphase_(threads, custom) {
  backend_.threading.threads = resolve_thread_count(threads);
  backend_.threading.custom = std::move(custom);
}

void ContactDetector::set_threading(int threads, ParallelFor custom) {
  backend_.threading.threads = resolve_thread_count(threads);
  backend_.threading.custom = custom;
  broadphase_ = Broadphase(threads, std::move(custom));
}

void ContactDetector::clear() {
  mark_changed();
  supported_mass_.clear();
  stages_.cur.count = stages_.cur.pairs = stages_.cur.body_pairs = 0;
  stages_.prev.count = stages_.prev.pairs = stages_.prev.body_pairs = 0;
  stages_.pairs.count = 0;
  stages_.ends.built = false;
}

namespace {

using Clock = std::chrono::steady_clock;

/// Milliseconds from t0 to now; t0 moves to now.
double lap_ms(Clock::time_point& t0) {
  const Clock::time_point t1 = Clock::now();
  const double ms = std::chrono::duration<double, std::milli>(t1 - t0).count();
  t0 = t1;
  return ms;
}

}  // namespace

void ContactDetector::detect(const ContactDetectInput& in) {
  mark_changed();
  timings_ = {};
  Clock::time_point t0 = Clock::now();
  std::swap(stages_.cur, stages_.prev);
  topology_.update(in);

  // Broadphase: body pairs and body-plane pairs of the fattened boxes. A box
  // that is not finite (a state about to overflow: 1e308 m/s) leaves the step
  // without contacts; the step then reports the non-finite state through
  // StepResult, as it would without contacts, instead of failing here.
  try {
    broadphase_.build(in.poses, in.aabb);
  } catch (const Error&) {
    stages_.cur.count = stages_.cur.pairs = stages_.cur.body_pairs = 0;
    stages_.pairs.count = 0;
    stages_.ends.built = false;
    return;
  }
  const std::vector<BodyPair>& body_pairs = broadphase_.pairs();
  const std::vector<PlanePair>& plane_pairs = broadphase_.plane_pairs();
  ContactCandidates cand;
  cand.body_pairs = static_cast<int>(body_pairs.size());
  cand.count = cand.body_pairs + static_cast<int>(plane_pairs.size());
  cand.pairs = body_pairs.data();
  cand.plane_pairs = plane_pairs.data();
  cand.joined = topology_.joined().data();
  cand.joined_count = static_cast<int>(topology_.joined().size());
  cand.group = in.collision_group;
  cand.mask = in.collision_mask;
  timings_.broadphase = lap_ms(t0);

  run_contact_setup_stages(backend_, stages_, in.poses, {in.mass, in.friction, in.restitution},
                           cand, in.aabb, timings_);
  t0 = Clock::now();
  raise_penalties_by_load(in);
  timings_.load = lap_ms(t0);
}

void ContactDetector::raise_penalties_by_load(const ContactDetectInput& in) {
  const int nb = in.poses.count;
  if (!load_stage_runs(stages_.cur.count, in.aabb)) return;
  ContactLoadInput load;
  load.bodies = nb;
  load.mass = in.mass;
  load.is_static = in.poses.is_static;
  load.jointed = topology_.jointed().data();
  load.articulation = topology_.any_articulation() ? topology_.articulation().data() : nullptr;
  load.aabb = in.aabb;
  load.total_mass = total_dynamic_mass(in);
  // Warm start from the previous step's masses; a new or resized world
  // starts from each body's own mass and takes more rounds.
  int rounds = kLoadRoundsPerStep;
  if (static_cast<int>(supported_mass_.size()) != nb) {
    supported_mass_.assign(in.mass, in.mass + nb);
    rounds = kLoadRoundsFirstStep;
  }
  contact_load_stage(backend_, stages_.load, stages_.cur, stages_.pairs, stages_.ends, load,
                     supported_mass_.data(), rounds);
}

ContactArrays ContactDetector::arrays() { return contact_arrays_of(stages_); }

ContactEnds ContactDetector::ends() { return contact_ends_of(stages_); }

}  // namespace pabd
