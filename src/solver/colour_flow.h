// Colored sweeps with contacts as one dataflow over all the iterations, on
// the CPU's threads: no barrier between colours or iterations.
//
// Colour by colour, each colour a parallel loop, a step of ball_into_stack
// starts and joins a team some 200 times (20 iterations of 9 or 10 colours,
// the last ones a few bodies each), and a thread idles at every join until
// the colour's slowest body is done. Measured against that at 2 threads
// (solve stage, alternating runs): 2% less with OpenMP's default waiting
// (its threads spin between loops), 10 to 14% less with
// OMP_WAIT_POLICY=passive (each loop then wakes a sleeping thread), on
// ball_into_stack and the pyramid.
//
// Here each thread owns one run of every colour (split by cost, as
// parallel_for_uneven splits it) and solves its runs in the sweeps' order,
// iteration by iteration, colour by colour; done with its runs of a colour,
// it takes from the other end of the others' runs of the same colour and
// iteration (FlowRun). Before solving body i in
// iteration t it waits only for what the sweep order puts before it among
// what body i reads: each contact neighbour j of a smaller colour must have
// finished iteration t, each of a larger colour iteration t - 1. A body
// counts its finished iterations in `done` (release after its pose is
// written, acquire before a neighbour reads it). So every body reads its
// neighbours' poses and its pairs' multipliers exactly as the colour by
// colour sweeps leave them, and neither neighbour writes them meanwhile (j
// of a larger colour waits for i to finish iteration t before its own t):
// the same bits for any thread count.
//
// It cannot deadlock: every wait is on a body of an earlier colour or
// iteration (a level), and a thread leaves a level only once each of its
// runs there has been taken, by itself or by others; so the lowest level
// with a body not done has every body it waits for done, and each of its
// bodies is either being solved or still in a run whose owner is at that
// level and will take it.
//
// It applies where nothing runs between the sweeps of one iteration and the
// next: contacts, no bonds (their weights are a loop of their own per
// colour), no acceleration, no iteration observer, the contacts' dual update
// fused into the sweeps, and a body colouring (a block order's blocks are
// long calls already).
#pragma once

#include <memory>
#include <vector>

#include "core/parallel.h"
#include "model/contact_arrays.h"

namespace pabd {

struct StepContext;
struct ColouringView;

/// Colourings of fewer dynamic bodies sweep colour by colour: their colours'
/// loops run inline (core/parallel.h), and a dataflow over a few bodies
/// mostly passes them between the threads.
inline constexpr int kFlowMinBodies = 512;

/// One thread's run of one colour in the flow, armed by its owner when it
/// reaches the colour in an iteration (the run's round); a thread done with
/// its own runs of the colour takes from the other end of the others' runs
/// of the same iteration. Iteration 16 bits, bounds 24 each.
using FlowRun = TakeableRun<16>;

/// Largest colour and most iterations a FlowRun word can count.
inline constexpr int kFlowMaxColourBodies = int(FlowRun::kBoundLimit);
inline constexpr int kFlowMaxIterations = int(FlowRun::kRoundLimit);

/// The flow's memory, kept between steps: grown, never shrunk.
struct ColourFlowBuffers {
  std::vector<int> done;            ///< per body: iterations finished
  std::vector<int> front;           ///< per colour, threads + 1: the threads' runs
  std::unique_ptr<FlowRun[]> runs;  ///< per colour, per thread
  std::size_t run_capacity = 0;
};

/// True when the step's iterations can run as one flow on `threads`
/// threads (see the top of this file).
bool colour_flow_applies(const StepContext& ctx, const ColouringView& colouring, int threads);

/// Every iteration's colored sweeps of the step's bodies, as the colour by
/// colour loops would run them (solver/step_loops.h), on `threads` threads.
void colour_flow_sweeps(const StepContext& ctx, const ColouringView& colouring,
                        const ContactEnds& ends, int threads, ColourFlowBuffers& buffers);

}  // namespace pabd
