// The clock the stages are timed with (StageTimings, broadphase and detector
// timings): wall-clock milliseconds since a time point.
#pragma once

#include <chrono>

namespace pabd {

using StageClock = std::chrono::steady_clock;

/// Milliseconds from t0 to now.
inline double ms_since(StageClock::time_point t0) {
  return std::chrono::duration<double, std::milli>(StageClock::now() - t0).count();
}

}  // namespace pabd
