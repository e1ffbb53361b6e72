#include "solver/colour_flow.h"

#include <atomic>
#include <thread>

#include "core/parallel.h"
#include "solver/step_loops.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace pabd {
namespace {

/// Spins before a waiting thread yields its core: a neighbour's body takes
/// a microsecond or so, while a thread that another process holds off its
/// core takes a time slice.
constexpr int kSpinsBeforeYield = 4096;

/// Bodies taken from a run at a time: a compare-and-swap per 4 bodies of a
/// microsecond or so each, as parallel_for_uneven takes them.
constexpr int kFlowTake = kUnevenTake;

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

/// Waits until body j has finished `need` iterations.
void wait_for_body(int* done, int j, int need) {
  std::atomic_ref<int> finished(done[j]);
  for (int spins = 0; finished.load(std::memory_order_acquire) < need; ++spins) {
    if (spins < kSpinsBeforeYield)
      cpu_relax();
    else
      std::this_thread::yield();
  }
}

/// Body i's iteration `it`: its neighbours waited for (see colour_flow.h),
/// then colour_body_kernel as sweep_bodies calls it.
void flow_body(const StepContext& ctx, const ContactEnds& ends, const int* colour, int* done,
               int it, int i) {
  const int key = colour[i];
  const int* pair_body = ctx.contact.pair_body;
  for (int e_at = ends.begin[i]; e_at < ends.begin[i + 1]; ++e_at) {
    const int other = ends.bound ? ends.bound[e_at].other : pair_body[ends.index[e_at] ^ 1];
    const int other_key = colour[other];
    if (other_key >= 0) wait_for_body(done, other, other_key < key ? it + 1 : it);
  }
  colour_body_kernel(ctx.bodies, ctx.bonds, ctx.contact, ends, colour, it > 0, false, i,
                     ctx.settings.constants);
  std::atomic_ref<int>(done[i]).store(it + 1, std::memory_order_release);
}

}  // namespace

bool colour_flow_applies(const StepContext& ctx, const ColouringView& colouring, int threads) {
  const int bodies = colouring.colour_begin[colouring.colours];
  return threads >= 2 && !ctx.parallel_for && !colouring.block_begin && ctx.bonds.count == 0 &&
         bodies >= kFlowMinBodies && bodies < kFlowMaxColourBodies &&
         ctx.settings.iterations < kFlowMaxIterations;
}

void colour_flow_sweeps(const StepContext& ctx, const ColouringView& colouring,
                        const ContactEnds& ends, int threads, ColourFlowBuffers& buffers) {
  const int colours = colouring.colours;
  const int runs = threads < kMaxUnevenRuns ? threads : kMaxUnevenRuns;
  const std::size_t run_count = std::size_t(colours) * std::size_t(runs);
  buffers.done.assign(std::size_t(ctx.bodies.count), 0);
  buffers.front.resize(std::size_t(colours) * std::size_t(runs + 1));
  if (buffers.run_capacity < run_count) {
    buffers.runs = std::make_unique<FlowRun[]>(run_count);
    buffers.run_capacity = run_count;
  }
  // Each colour's runs of about equal cost, as parallel_for_uneven splits it.
  const int* order = colouring.order;
  for (int c = 0; c < colours; ++c) {
    const int* list = order + colouring.colour_begin[c];
    const auto cost = [&](int j) { return body_sweep_cost(ends, list[j]); };
    split_by_cost(colouring.colour_begin[c + 1] - colouring.colour_begin[c], cost, runs,
                  buffers.front.data() + std::size_t(c) * std::size_t(runs + 1));
  }
  FlowRun* run = buffers.runs.get();
  // Unarmed: a step's first iteration must not find the last step's runs.
  for (std::size_t r = 0; r < run_count; ++r) run[r].arm(kFlowMaxIterations - 1, 0, 0);
  int* done = buffers.done.data();
  const int* front = buffers.front.data();
  const int iterations = ctx.settings.iterations;
  parallel_team(runs, [&](int me, int team) {
    // A smaller team than asked for: each thread owns every team-th run,
    // still in the sweeps' order.
    for (int it = 0; it < iterations; ++it)
      for (int c = 0; c < colours; ++c) {
        const int* list = order + colouring.colour_begin[c];
        const int* runs_of_c = front + std::size_t(c) * std::size_t(runs + 1);
        FlowRun* run_of_c = run + std::size_t(c) * std::size_t(runs);
        const auto solve = [&](int j) {
          flow_body(ctx, ends, colouring.colour, done, it, list[j]);
        };
        for (int r = me; r < runs; r += team) run_of_c[r].arm(it, runs_of_c[r], runs_of_c[r + 1]);
        // Its own runs toward their border with a neighbouring run that
        // sweeps toward it too (even runs forward, odd ones backward): the
        // bodies that wait on another thread's come last in a colour, and
        // what they wait for came last in the colour before, a whole run
        // ago. From the front alike, the next run's thread started each
        // colour with the bodies whose neighbours this thread had solved last.
        int begin = 0, end = 0;
        for (int r = me; r < runs; r += team) {
          const bool backward = r % 2 == 1;
          while (run_of_c[r].take(it, kFlowTake, backward, begin, end)) {
            if (backward) {
              for (int j = end - 1; j >= begin; --j) solve(j);
            } else {
              for (int j = begin; j < end; ++j) solve(j);
            }
          }
        }
        // Then from the other end of the other threads' runs of this
        // colour and iteration, as parallel_for_uneven's threads take over:
        // a thread that another process holds off its core loses the rest
        // of its run to the free one (on a quiet machine it changed
        // nothing measurable: ball_into_stack's solve 8.33 against 8.39 ms
        // a step over 300 steps at 2 threads).
        for (int v = 1; v < runs; ++v) {
          const int r = (me + v) % runs;
          if (r % team == me) continue;  // its own
          const bool from_back = r % 2 == 0;
          while (run_of_c[r].take(it, kFlowTake, from_back, begin, end))
            for (int j = begin; j < end; ++j) solve(j);
        }
      }
  });
}

}  // namespace pabd
