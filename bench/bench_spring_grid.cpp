// Cost of the solver's hot loops on a 100 x 100 spring grid (10,000 bodies,
// 19,800 springs, two hard corner joints): ns per body-iteration (global +
// local step) and per bond-iteration (weights and pulls), for 1 and 2 threads.
//
//   build/bench/bench_spring_grid --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include "pabd/world.h"
#include "support/generators.h"

namespace {

void BM_SpringGridStep(benchmark::State& state) {
  pabd::WorldDef wd = pabd::default_world_def();
  wd.threads = static_cast<int>(state.range(0));
  wd.iterations = 20;
  pabd::World world(wd);
  pabd::SpringGridDef grid;
  grid.side = 100;
  const int springs = pabd::add_spring_grid(world, grid);
  const int bonds = springs + 2;
  world.step();  // warm-up: builds the adjacency and touches all memory

  double solve_ms = 0, bonds_ms = 0;
  for (auto _ : state) {
    const pabd::StepResult r = world.step();
    if (!r.ok) state.SkipWithError("non-finite state");
    solve_ms += world.last_timings().solve_ms;
    bonds_ms += world.last_timings().bonds_ms;
  }
  const double iters = static_cast<double>(state.iterations()) * wd.iterations;
  state.counters["ns_per_body_iter"] = solve_ms * 1e6 / (iters * world.body_count());
  state.counters["ns_per_bond_iter"] = bonds_ms * 1e6 / (iters * bonds);
  state.counters["bodies"] = world.body_count();
  state.counters["bonds"] = bonds;
}

BENCHMARK(BM_SpringGridStep)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
