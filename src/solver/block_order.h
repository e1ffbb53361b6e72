// Block order: the Gauss-Seidel sweep of a large contact scene, by blocks of
// neighbouring bodies instead of by body colours.
//
// Why. A sweep by colours evaluates each contact pair twice per iteration,
// once in each of its bodies' colours, and each colour spans the whole scene:
// in a scene whose contacts outgrow the cache (pile_30's 27k boxes hold 700k
// contacts, about 170 MB) both evaluations read the pair from memory. A
// block is a cell of neighbouring bodies; a thread solves its bodies one
// after the other, so a pair inside a block is found in the cache the second
// time. Measured at 1 thread, solve stage per step: pile_30 at rest 783-826 ->
// 484-493 ms; pile_20 while the ball ploughs through it (steps 9-12) 640-670
// -> 436-450 ms. pile_20 at rest, whose touching contacts fit in the cache,
// is no faster.
//
// How. A grid over the dynamic bodies' centres (from the 1st to the 99th
// percentile along each axis) with about n / block_bodies(n) cells; each
// non-empty cell is a block, its bodies in index order. Where the bodies'
// indices run along an axis (index_axis: a pile built row by row), the cells
// are longer along it, so that a block holds long runs of consecutive
// bodies: each body's state and its pairs' records (stored by the pair's
// lower body) then stream from memory in runs the hardware prefetches,
// where a cubic cell of pile_50 (2,000 bodies) broke them every 12 bodies.
// pile_50 at 1 thread, solve stage per step: 1648-1711 -> 1435-1491 ms; at 2
// threads 901 -> 796 ms; pile_20, which fits the cache, unchanged.
// Blocks that share a contact pair get different block colours (greedy, in
// grid order, as colouring.h colours bodies: a full grid of cubic cells
// takes the 8 colours of a 2 x 2 x 2 pattern, of cells a whole row long the
// 4 of a 2 x 2 one), so the blocks of a colour can be solved in parallel, a thread
// per block, each reading only bodies of other blocks, which do not move
// meanwhile. The order depends on the bodies and contacts alone, never on
// the threads, so results stay bit-identical across thread counts.
//
// Where. Colored sweeps (the default) of scenes with at least
// WorldDef::block_order_min_bodies bodies, contacts and no bonds; every other
// scene is swept by body colours. Bonds are left out because a sweep
// evaluates them per colour before its bodies (solver/step_stages.cpp), not
// per body.
#pragma once

#include <vector>

#include "model/body_arrays.h"
#include "model/contact_arrays.h"
#include "solver/colouring.h"

namespace pabd {

/// Bodies per block for n dynamic bodies: n / 64, at least 64, so about 64
/// blocks, 8 to 16 to a colour. Bigger blocks keep more pairs inside (pile_30 at
/// 1 thread, cubic cells of 64 bodies: 619 ms, of 512: 544 ms, of 1728:
/// 515 ms per step's solve); more blocks give a colour's threads more to share.
int block_bodies(int dynamic_bodies);

/// The grid's scale across the index axis (index_axis); along it 1 /
/// kIndexAxisScale^2, so a cell keeps its volume and is kIndexAxisScale^3 =
/// 64 times longer along the axis than across (powers of two: the scaled
/// centres are exact). pile_50 at 1 thread, solve stage per step: cubic
/// cells 1648-1711 ms; 8 times longer 1471-1501; 64 times 1435-1491 (both
/// hold whole rows of the pile).
inline constexpr Real kIndexAxisScale = 4;

/// How much the index axis's median step must exceed the others' to count.
inline constexpr Real kIndexAxisDominance = 4;

/// The axis that the dynamic bodies (`dynamic`, in index order) step along
/// from one to the next: the one whose median step between consecutive
/// centres is largest and at least kIndexAxisDominance times the other two's
/// (a grid built row by row: its x; scratch: work space); -1 when none is
/// (bodies added in no spatial order).
int index_axis(const BodyArrays& bodies, const std::vector<int>& dynamic,
               std::vector<Real>& scratch);

/// True when a colored sweep over these bodies, bonds and contacts goes by
/// blocks (see the top of this file): from min_bodies bodies
/// (WorldDef::block_order_min_bodies, 4096 by default: below it a scene's
/// contacts fit in the cache, and the body colouring has far more parallel
/// work per sweep; pyramid: 820 boxes, ball_into_stack: 1001).
bool use_block_order(int body_count, int bond_count, int contact_count, int min_bodies);

/// Fills `out` (its order, colour_begin, colour, block_begin and
/// colour_block_begin; no bonds) with the block order of the dynamic bodies
/// over the contact pairs' adjacency (contacts.pair_body through ends).
void order_in_blocks(const BodyArrays& bodies, const ContactArrays& contacts,
                     const ContactEnds& ends, Colouring& out);

}  // namespace pabd
