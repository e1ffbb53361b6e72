// pabd_soak: one World stepped for a given wall time, to show that a long run
// neither grows its memory nor slows down. Every interval it prints a CSV row:
// wall seconds, steps so far, the median step time over the interval and the
// process's resident memory (/proc/self/statm).
//
//   pabd_soak SCENE [--seconds S=3600] [--interval I=60] [--threads T=1]
//
// scripts/soak.sh runs it on ball_into_stack for an hour.
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "pabd/scene.h"
#include "pabd/world.h"

namespace {

double resident_mib() {
  long pages = 0, resident = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2) resident = 0;
    std::fclose(f);
  }
  return double(resident) * double(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: pabd_soak SCENE [--seconds S] [--interval I] [--threads T]\n");
    return 2;
  }
  double seconds = 3600, interval = 60;
  int threads = 1;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const double value = std::atof(argv[i + 1]);
    if (flag == "--seconds")
      seconds = value;
    else if (flag == "--interval")
      interval = value;
    else if (flag == "--threads")
      threads = int(value);
    else {
      std::fprintf(stderr, "pabd_soak: unknown flag %s\n", flag.c_str());
      return 2;
    }
  }
  try {
    const pabd::Scene scene = pabd::load_scene(argv[1]);
    pabd::WorldDef settings = scene.settings;
    settings.threads = threads;
    pabd::World world = pabd::build_world(scene, settings);
    using Clock = std::chrono::steady_clock;
    const Clock::time_point start = Clock::now();
    double next = interval;
    std::vector<double> times;
    long long steps = 0;
    std::printf("wall_s,steps,median_step_ms,resident_mib\n");
    std::printf("0,0,0,%.1f\n", resident_mib());
    std::fflush(stdout);
    for (;;) {
      const Clock::time_point t0 = Clock::now();
      const pabd::StepResult r = world.step();
      const Clock::time_point t1 = Clock::now();
      if (!r.ok) {
        std::fprintf(stderr, "pabd_soak: step %lld failed\n", static_cast<long long>(r.step));
        return 1;
      }
      ++steps;
      times.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
      const double wall = std::chrono::duration<double>(t1 - start).count();
      if (wall >= next) {
        std::printf("%.0f,%lld,%.3f,%.1f\n", wall, steps, median(times), resident_mib());
        std::fflush(stdout);
        times.clear();
        next += interval;
        if (wall >= seconds) break;
      }
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  return 0;
}
