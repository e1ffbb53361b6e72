// The host's broadphase: the stages of broadphase_pipeline.h on the host's
// backend.
#include "collision/broadphase.h"

#include <utility>

namespace pabd {

Broadphase::Broadphase(int threads, ParallelFor custom) {
  state_.backend.threading.threads = resolve_thread_count(threads);
  state_.backend.threading.custom = std::move(custom);
}

void Broadphase::build(const ShapePoseView& bodies, const AabbSettings& settings) {
  broadphase_build(state_, broadphase_boxes(state_, bodies, settings));
}

void Broadphase::build(const AabbView& v) {
  state_.timings.boxes_ms = 0;  // no boxes made
  broadphase_build(state_, v);
}

}  // namespace pabd
