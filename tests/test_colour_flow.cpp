// The colored sweeps' dataflow (solver/colour_flow.h): ball_into_stack
// (1001 bodies, past kFlowMinBodies; contacts and no bonds) through the
// ball's impact keeps the bits of one thread, where every colour runs inline,
// on any number of threads and in a team smaller than asked for. Exact
// equality: the flow claims the same operations in the same order, and a
// body read before its neighbour finished (a missing wait) changes bits
// within a few steps (checked by removing the waits: 2 threads then differ).
#include <gtest/gtest.h>
#include <omp.h>

#include <string>

#include "pabd/scene.h"
#include "pabd/world.h"
#include "solver/colour_flow.h"
#include "solver/step_loops.h"

namespace pabd {
namespace {

/// The ball meets the stack after 14 steps; 40 take it some 5 m in, through
/// the steps with the most live contacts and colours.
constexpr int kSteps = 40;

Scene ball_into_stack() {
  return load_scene(std::string(PABD_SOURCE_DIR) + "/scenes/ball_into_stack.json");
}

std::uint64_t run_hash(const Scene& s, int threads) {
  WorldDef d = s.settings;
  d.threads = threads;
  World w = build_world(s, d);
  // Past the flow's size (the ground is static, the ball and boxes not).
  EXPECT_GE(w.body_count() - 1, kFlowMinBodies);
  for (int n = 0; n < kSteps; ++n) {
    const StepResult r = w.step();
    if (!r.ok) ADD_FAILURE() << "step " << n + 1 << " failed";
  }
  return w.state_hash();
}

TEST(ColourFlow, AppliesOnlyWhereNothingRunsBetweenColours) {
  StepContext ctx;
  const int begin[] = {0, 300, kFlowMinBodies};
  ColouringView c;
  c.colours = 2;
  c.colour_begin = begin;
  EXPECT_TRUE(colour_flow_applies(ctx, c, 2));
  EXPECT_FALSE(colour_flow_applies(ctx, c, 1));  // one thread: colours inline
  ctx.bonds.count = 1;                           // bonds' weights: a loop of their own per colour
  EXPECT_FALSE(colour_flow_applies(ctx, c, 2));
  ctx.bonds.count = 0;
  ctx.parallel_for = [](int, const std::function<void(int, int)>&) {};  // a user's tasks
  EXPECT_FALSE(colour_flow_applies(ctx, c, 2));
  ctx.parallel_for = {};
  const int blocks[] = {0, kFlowMinBodies};
  c.block_begin = blocks;  // a block order
  EXPECT_FALSE(colour_flow_applies(ctx, c, 2));
  c.block_begin = nullptr;
  ctx.settings.iterations = kFlowMaxIterations;  // more than a FlowRun counts
  EXPECT_FALSE(colour_flow_applies(ctx, c, 2));
  ctx.settings.iterations = 20;
  EXPECT_TRUE(colour_flow_applies(ctx, c, 2));
  const int few[] = {0, 300, kFlowMinBodies - 1};
  c.colour_begin = few;
  EXPECT_FALSE(colour_flow_applies(ctx, c, 2));
}

TEST(ColourFlow, ARunGivesEachCallOnceAndOnlyToItsIteration) {
  FlowRun run;
  run.arm(3, 0, 10);
  int begin = -1, end = -1;
  EXPECT_FALSE(run.take(2, 4, false, begin, end));  // armed for iteration 3, not 2
  ASSERT_TRUE(run.take(3, 4, false, begin, end));   // the owner, from the front
  EXPECT_EQ(begin, 0);
  EXPECT_EQ(end, 4);
  ASSERT_TRUE(run.take(3, 4, true, begin, end));  // another thread, from the back
  EXPECT_EQ(begin, 6);
  EXPECT_EQ(end, 10);
  ASSERT_TRUE(run.take(3, 4, false, begin, end));  // what is left, fewer than 4
  EXPECT_EQ(begin, 4);
  EXPECT_EQ(end, 6);
  EXPECT_FALSE(run.take(3, 4, true, begin, end));
  // Re-armed for the next iteration: a late taker of iteration 3 gets nothing.
  run.arm(4, 0, 5);
  EXPECT_FALSE(run.take(3, 4, false, begin, end));
  ASSERT_TRUE(run.take(4, 8, true, begin, end));
  EXPECT_EQ(begin, 0);
  EXPECT_EQ(end, 5);
  // The largest counts the word holds.
  run.arm(kFlowMaxIterations - 2, kFlowMaxColourBodies - 3, kFlowMaxColourBodies - 1);
  ASSERT_TRUE(run.take(kFlowMaxIterations - 2, 4, false, begin, end));
  EXPECT_EQ(begin, kFlowMaxColourBodies - 3);
  EXPECT_EQ(end, kFlowMaxColourBodies - 1);
}

TEST(ColourFlow, SameBitsOnAnyThreadCount) {
  const Scene s = ball_into_stack();
  const std::uint64_t one = run_hash(s, 1);
  EXPECT_EQ(run_hash(s, 2), one);
  EXPECT_EQ(run_hash(s, 3), one);  // runs of three per colour
  // More threads than this machine's cores: waiting threads yield theirs.
  EXPECT_EQ(run_hash(s, 6), one);
}

TEST(ColourFlow, SameBitsInATeamSmallerThanAsked) {
  // Two worlds stepped side by side from a user's own parallel region: with
  // one active level, each world's team has one thread, not the 3 it asks
  // for, and that thread must solve every run itself.
  const Scene s = ball_into_stack();
  const std::uint64_t one = run_hash(s, 1);
  const int levels = omp_get_max_active_levels();
  omp_set_max_active_levels(1);
  std::uint64_t hash[2] = {0, 0};
#pragma omp parallel for num_threads(2)
  for (int w = 0; w < 2; ++w) hash[w] = run_hash(s, 3);
  omp_set_max_active_levels(levels);
  EXPECT_EQ(hash[0], one);
  EXPECT_EQ(hash[1], one);
}

}  // namespace
}  // namespace pabd
