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
  return threads >= 2 && !ctx.parallel_for && !colouring.block_begin && ctx.bonds.count == 0 &&
         colouring.colour_begin[colouring.colours] >= kFlowMinBodies;
}

void colour_flow_sweeps(const StepContext& ctx, const ColouringView& colouring,
                        const ContactEnds& ends, int threads, ColourFlowBuffers& buffers) {
  const int colours = colouring.colours;
  const int runs = threads < kMaxUnevenRuns ? threads : kMaxUnevenRuns;
  buffers.done.assign(std::size_t(ctx.bodies.count), 0);
  buffers.front.resize(std::size_t(colours) * std::size_t(runs + 1));
  // Each colour's runs of about equal cost, as parallel_for_uneven splits it.
  const int* order = colouring.order;
  for (int c = 0; c < colours; ++c) {
    const int* list = order + colouring.colour_begin[c];
    const auto cost = [&](int j) {
      const int i = list[j];
      return kBodyCostInPairEnds + ends.begin[i + 1] - ends.begin[i];
    };
    split_by_cost(colouring.colour_begin[c + 1] - colouring.colour_begin[c], cost, runs,
                  buffers.front.data() + std::size_t(c) * std::size_t(runs + 1));
  }
  int* done = buffers.done.data();
  const int* front = buffers.front.data();
  const int iterations = ctx.settings.iterations;
  parallel_team(runs, [&](int me, int team) {
    // A smaller team than asked for: each thread takes every team-th run,
    // still in the sweeps' order.
    for (int it = 0; it < iterations; ++it)
      for (int c = 0; c < colours; ++c) {
        const int* list = order + colouring.colour_begin[c];
        const int* runs_of_c = front + std::size_t(c) * std::size_t(runs + 1);
        for (int r = me; r < runs; r += team) {
          // Toward the run's border with its neighbour's that sweeps toward
          // it too (even runs forward, odd ones backward): the bodies that
          // wait on another thread's come last in a colour, and what they
          // wait for came last in the colour before, a whole run ago. From
          // the front alike, the next run's thread started each colour with
          // the bodies whose neighbours this thread had solved last.
          const int first = runs_of_c[r], last = runs_of_c[r + 1];
          if (r % 2 == 0) {
            for (int j = first; j < last; ++j) {
              if (j + 2 < last) prefetch_body_ends(ends, list[j + 2]);
              flow_body(ctx, ends, colouring.colour, done, it, list[j]);
            }
          } else {
            for (int j = last - 1; j >= first; --j) {
              if (j - 2 >= first) prefetch_body_ends(ends, list[j - 2]);
              flow_body(ctx, ends, colouring.colour, done, it, list[j]);
            }
          }
        }
      }
  });
}

}  // namespace pabd
