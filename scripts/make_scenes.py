#!/usr/bin/env python3
"""Writes the generated paper scenes in scenes/ (run from anywhere; stdlib only).

  spring_net.json  the paper's Fig. 6: an 11 x 11 grid of boxes, each joined to
                   its four neighbours by springs (220 springs), pre-stretched
                   to 3.5 times their rest length; the two top corners hang
                   from hard joints, so the net contracts and sags toward its
                   bottom centre.
  box_chain.json   the paper's Fig. 7: a chain of 12 boxes joined end to end by
                   hard spherical joints, hanging from the world, released from
                   the horizontal.
  heavy_chain.json, heavy_chain_no_al.json
                   the paper's Fig. 8: 19 boxes (0.5 m) on ball joints from a
                   fixed anchor, the last one 1000 times heavier, 10 iterations,
                   with and without the augmented Lagrangian, swinging from 45
                   degrees, at the defaults.
  linkage.json     a planar crank-slider in the spirit of the paper's Fig. 2
                   (top): a static base, a crank and a connecting rod on three
                   hinges, and a block on a slider along the base.
  windmill.json    the paper's Fig. 4 without its box piles: a static post, a
                   hub on a hinge turned by a velocity drive, and four blades
                   welded to the hub.
  box_stack_10.json
                   ten 1 m, 1 kg boxes stacked on the ground (contacts).
  mass_ratio_stack.json
                   the paper's Table 2 stack: six 1 m boxes, each 10 times the
                   mass of the one below (1 kg to 100 t), 30 iterations.
  ball_into_stack.json
                   the paper's Table 2 scene: a 10 x 10 x 10 stack of 1 m, 1 kg
                   boxes on the ground, hit by a 100 kg sphere of 1.5 m
                   diameter launched at 20 m/s (1001 bodies); the boxes come
                   from the scene format's array generator.
  pile_20.json, pile_30.json, pile_50.json
                   the paper's Fig. 16 pile at N^3 boxes (1 m, 1 kg, 1 mm
                   apart) hit by a ball (15% of the pile's side, 10% of its
                   mass, 20 m/s); pile_50 has 125,001 moving bodies. Timing
                   scenes: 120, 120 and 60 steps.
  windmill_piles.json
                   the paper's Fig. 4: the windmill (lowered, longer blades)
                   sweeping two piles of 255 boxes; 515 moving bodies.
  pyramid.json     a 2D pyramid of 820 boxes (1 m, 1 kg) with 40 at its base,
                   2 cm apart in each row, on the ground (the peer comparison).
  gears.json       two pin gears (compounds with capsule teeth) on hinges,
                   12 teeth driven at 1 rad/s, 18 teeth free (Fig. 2 bottom).
  robot_dog.json   the paper's Fig. 1 dog on rigid ground: a torso and two
                   capsule segments per leg on 8 hinges with periodic
                   position drives (a trot); it walks toward +x.
  gear_linkage.json
                   the paper's Fig. 2 (bottom): two 16-tooth gears joined by a
                   sliding linkage (a rhombic drive: two rods to a yoke on a
                   slider); 5 moving bodies and 3 static frame parts, 7 joints.
  pile_50_heavy.json
                   the pile's second variant (Fig. 16b): a heavier (40% of the
                   pile's mass), faster (30 m/s) ball that hits in step 1.

  jeep_bridge.json the paper's Fig. 12: a jeep (chassis, two knuckles, four
                   wheels; front wheels on steering and driving hinges) crosses
                   50 boards joined by spherical joints and lying on two
                   stringers, then climbs a 15 degree ramp; 59 bodies (57
                   moving), 57 joints: 6 hinges of the jeep, 49 spherical
                   joints between boards and 2 to the banks. Table 2 lists 55
                   joints, 49 + 6: the paper's count leaves out the two bank
                   joints (its text says only that the boards are "lined
                   together with point connections").

Usage: make_scenes.py [NAME.json ...]  (default: every scene)
"""
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCENES = os.path.join(HERE, "..", "scenes")
DT = 1.0 / 60.0


def write(name, scene):
    path = os.path.join(SCENES, name)
    with open(path, "w") as f:
        json.dump(scene, f, indent=1)
        f.write("\n")
    print("wrote", os.path.normpath(path))


def spring_net(n=11, spacing=1.0, box=0.3, stiffness=200.0):
    bodies, joints = [], []
    top = spacing * (n - 1) + 1.0
    name = lambda r, c: f"box_{r}_{c}"
    for r in range(n):  # row 0 at the top
        for c in range(n):
            x = (c - (n - 1) / 2) * spacing
            bodies.append({"name": name(r, c), "shape": {"type": "box", "size": [box] * 3},
                           "position": [x, top - r * spacing, 0], "mass": 1})
    half = box / 2
    rest = spacing / 2 - box  # face to face: 0.2 m against an initial 0.7 m gap
    for r in range(n):
        for c in range(n):
            x, y = (c - (n - 1) / 2) * spacing, top - r * spacing
            if c + 1 < n:  # to the right: +X face to -X face
                joints.append({"type": "spring", "body_a": name(r, c), "body_b": name(r, c + 1),
                               "anchor_a": [x + half, y, 0], "anchor_b": [x + spacing - half, y, 0],
                               "rest_length": rest, "stiffness": stiffness})
            if r + 1 < n:  # below: -Y face to +Y face
                joints.append({"type": "spring", "body_a": name(r, c), "body_b": name(r + 1, c),
                               "anchor_a": [x, y - half, 0], "anchor_b": [x, y - spacing + half, 0],
                               "rest_length": rest, "stiffness": stiffness})
    for c in (0, n - 1):
        x = (c - (n - 1) / 2) * spacing
        joints.append({"type": "spherical", "body_a": "world", "body_b": name(0, c),
                       "anchor": [x, top + half, 0]})
    assert sum(j["type"] == "spring" for j in joints) == 2 * n * (n - 1)
    description = ("The paper's Fig. 6: an 11 x 11 grid of 0.3 m boxes joined to their four "
                   "neighbours by 220 springs stretched to 3.5 times their rest length, hung from "
                   "the two top corners; the net contracts and sags toward its bottom centre.")
    return {"description": description, "settings":
            {"dt": DT, "iterations": 20, "gravity": [0, -9.81, 0], "steps": 480},
            "bodies": bodies, "joints": joints}


def box_chain(n=12, link=0.5, height=7.0):
    bodies, joints = [], []
    for i in range(n):
        bodies.append({"name": f"link{i}", "shape": {"type": "box", "size": [link, 0.12, 0.12]},
                       "position": [link * i + link / 2, height, 0], "mass": 1})
        joints.append({"type": "spherical", "body_a": "world" if i == 0 else f"link{i - 1}",
                       "body_b": f"link{i}", "anchor": [link * i, height, 0]})
    return {"description": "The paper's Fig. 7: a chain of 12 boxes (0.5 m, 1 kg) on hard "
                           "spherical joints, hanging from the world, released horizontally.",
            "settings": {"dt": DT, "iterations": 20, "gravity": [0, -9.81, 0], "steps": 600},
            "bodies": bodies, "joints": joints}


def heavy_chain(augmented, n=19, link=0.5, height=10.0, angle_deg=45.0):
    # Straight chain at 45 degrees from the vertical, released at rest: it
    # swings as a pendulum of length n * link with the heavy link as its bob.
    a = math.radians(angle_deg)
    d = [math.sin(a), -math.cos(a), 0.0]  # along the chain, away from the anchor
    half = -(math.pi / 2 - a) / 2  # box x axis (its long side) turned onto d
    q = [math.cos(half), 0.0, 0.0, math.sin(half)]
    at = lambda s: [round(s * d[0], 12), round(height + s * d[1], 12), 0.0]
    bodies, joints = [], []
    for i in range(n):
        bodies.append({"name": f"link{i}", "shape": {"type": "box", "size": [link, 0.1, 0.1]},
                       "position": at(link * i + link / 2), "orientation": [round(c, 15) for c in q],
                       "mass": 1000 if i == n - 1 else 1})
        joints.append({"type": "spherical", "body_a": "world" if i == 0 else f"link{i - 1}",
                       "body_b": f"link{i}", "anchor": at(link * i)})
    outcome = ("At the defaults its joints stay within 1% of a link (docs/method.md)."
               if augmented else
               "Its hard joints are plain penalties of 1e4 N/m (Fig. 8c): near the heavy link "
               "they open by about a link's length (docs/method.md).")
    which = "with" if augmented else "without"
    return {"description": f"The paper's Fig. 8 chain {which} the augmented Lagrangian: 19 boxes "
                           "(0.5 m, 1 kg) on ball joints from a fixed anchor, the last one 1000 kg, "
                           "10 iterations, released at rest 45 degrees from the vertical. " + outcome,
            "settings": {"dt": DT, "iterations": 10, "gravity": [0, -9.81, 0], "steps": 600,
                         "augmented_lagrangian": augmented},
            "bodies": bodies, "joints": joints}


def linkage():
    # Crank (0.6 m) on a hinge at the base's pivot, rod (1.4 m) from the crank
    # tip to a block that slides along the base (X axis). All hinges about Z.
    crank, rod = 0.6, 1.4
    tip = [crank, 0.0]  # crank horizontal at the start
    block_x = crank + rod
    bodies = [
        {"name": "base", "static": True, "shape": {"type": "box", "size": [3.0, 0.1, 0.3]},
         "position": [1.0, -0.4, 0]},
        {"name": "crank", "shape": {"type": "box", "size": [crank, 0.08, 0.08]},
         "position": [crank / 2, 0, 0], "angular_velocity": [0, 0, 6], "mass": 1},
        {"name": "rod", "shape": {"type": "box", "size": [rod, 0.06, 0.06]},
         "position": [tip[0] + rod / 2, 0, 0], "mass": 1},
        {"name": "block", "shape": {"type": "box", "size": [0.3, 0.2, 0.2]},
         "position": [block_x, 0, 0], "mass": 2},
    ]
    z = [0, 0, 1]
    joints = [
        {"type": "hinge", "body_a": "base", "body_b": "crank", "anchor": [0, 0, 0], "axis": z},
        {"type": "hinge", "body_a": "crank", "body_b": "rod", "anchor": [crank, 0, 0], "axis": z},
        {"type": "hinge", "body_a": "rod", "body_b": "block", "anchor": [block_x, 0, 0], "axis": z},
        {"type": "slider", "body_a": "base", "body_b": "block", "anchor": [block_x, 0, 0],
         "axis": [1, 0, 0]},
    ]
    return {"description": "A crank-slider: a static base, a crank spun at 6 rad/s and a rod on "
                           "three hinges, and a block on a slider along the base; no gravity.",
            "settings": {"dt": DT, "iterations": 20, "gravity": [0, 0, 0], "steps": 600},
            "bodies": bodies, "joints": joints}


def windmill(height=6.0, hub=0.6, blade=2.5, speed=1.0, max_torque=5000):
    # The hub turns about Z in front of the post's top; blade i points at
    # 90 i degrees and is welded to the hub at the hub's rim.
    front = 0.45  # hub centre in front of the post (post 0.4 m, hub 0.4 m deep, 5 cm gap)
    centre = [0.0, height, front]
    bodies = [
        {"name": "ground", "static": True, "shape": {"type": "plane", "normal": [0, 1, 0]}},
        {"name": "post", "static": True, "shape": {"type": "box", "size": [0.4, height, 0.4]},
         "position": [0, height / 2, 0]},
        {"name": "hub", "shape": {"type": "box", "size": [hub, hub, 0.4]}, "position": centre,
         "mass": 20},
    ]
    joints = [
        {"type": "hinge", "body_a": "post", "body_b": "hub", "anchor": centre, "axis": [0, 0, 1],
         "drive": {"mode": "velocity", "target": speed, "max_force": max_torque}},
    ]
    for i in range(4):
        angle = i * math.pi / 2
        c, s = round(math.cos(angle), 12) + 0.0, round(math.sin(angle), 12) + 0.0
        rim = hub / 2
        mid = rim + blade / 2
        bodies.append({"name": f"blade{i}", "shape": {"type": "box", "size": [blade, 0.5, 0.08]},
                       "position": [c * mid, height + s * mid, front],
                       "orientation": [math.cos(angle / 2), 0, 0, math.sin(angle / 2)],
                       "mass": 10})
        joints.append({"type": "fixed", "body_a": "hub", "body_b": f"blade{i}",
                       "anchor": [c * rim, height + s * rim, front]})
    return {"description": "The paper's Fig. 4 windmill without its box piles: a static post, a "
                           "20 kg hub on a hinge driven at 1 rad/s (at most 5000 N m), and four "
                           "2.5 m, 10 kg blades welded to the hub; 40 iterations as in Table 2.",
            "settings": {"dt": DT, "iterations": 40, "gravity": [0, -9.81, 0], "steps": 600},
            "bodies": bodies, "joints": joints}


def ground():
    return {"name": "ground", "static": True,
            "shape": {"type": "plane", "normal": [0, 1, 0], "offset": 0}}


def box_column(masses, size=1.0):
    # Boxes resting on each other from the ground up, exactly touching.
    return [{"name": f"box{i}", "shape": {"type": "box", "size": [size] * 3},
             "position": [0, size / 2 + size * i, 0], "mass": m} for i, m in enumerate(masses)]


def box_stack_10():
    return {"description": "Ten 1 m, 1 kg boxes stacked on the ground plane, at rest; contacts "
                           "with friction hold the column for 10 s at 20 Jacobi iterations.",
            "settings": {"dt": DT, "iterations": 20, "gravity": [0, -9.81, 0], "steps": 600},
            "bodies": [ground()] + box_column([1.0] * 10)}


def mass_ratio_stack():
    masses = [10.0 ** i for i in range(6)]
    return {"description": "The paper's Table 2 stack: six 1 m boxes on the ground, each 10 "
                           "times the mass of the one below (1 kg at the bottom, 100 t on top), "
                           "30 iterations; it stands at the defaults (docs/method.md).",
            "settings": {"dt": DT, "iterations": 30, "gravity": [0, -9.81, 0], "steps": 600},
            "bodies": [ground()] + box_column(masses)}


def box_array(name, count, spacing, origin, size, mass):
    # One "arrays" entry (docs/scene-format.md, "Arrays of bodies"): boxes
    # named NAME_i_j_k, body (i, j, k) at origin + (i, j, k) * spacing.
    return {"name": name, "count": list(count), "spacing": [round(d, 12) for d in spacing],
            "origin": [round(c, 12) + 0.0 for c in origin],
            "shape": {"type": "box", "size": [size] * 3}, "mass": mass}


def ball_into_stack(n=10, size=1.0, gap=0.02, radius=0.75, speed=20.0):
    # An n x n x n block of boxes: layers rest on each other, neighbours in a
    # layer stand `gap` apart (no side contacts at rest). The ball flies along
    # +X at the block's mid height. Boxes are named box_x_y_z.
    pitch = size + gap
    bodies = [ground(),
              {"name": "ball", "shape": {"type": "sphere", "radius": radius},
               "position": [-6.0, n * size / 2, 0], "velocity": [speed, 0, 0], "mass": 100}]
    arrays = [box_array("box", (n, n, n), (pitch, size, pitch),
                        (0.0, size / 2, -pitch * (n - 1) / 2), size, 1)]
    return {"description": "The paper's Table 2 scene: a 10 x 10 x 10 stack of 1 m, 1 kg boxes on "
                           "the ground (2 cm apart in each layer), hit by a 100 kg ball of 1.5 m "
                           "diameter at 20 m/s; 1001 bodies, 20 iterations. The boxes come from "
                           "the array generator, after the ground and the ball.",
            "settings": {"dt": DT, "iterations": 20, "gravity": [0, -9.81, 0], "steps": 300},
            "bodies": bodies, "arrays": arrays}


def pile(n, steps, size=1.0, gap=0.001, speed=20.0, mass_fraction=0.1, approach=2.0):
    # The paper's Fig. 16 pile scaled to n^3 boxes (1 m, 1 kg) standing `gap`
    # apart in all three directions, the bottom layer gap/2 above the ground,
    # so nothing starts in contact. The ball keeps ball_into_stack's
    # proportions: diameter 15% of the pile's side, mass 10% of the pile's,
    # aimed at mid height along +X, starting 2 m before the pile's face.
    # The paper's second variant (Fig. 16b, "larger mass and higher velocity")
    # passes a larger mass_fraction and speed, and a short approach so that
    # the ball hits in the first steps, the ones `pabd bench` times.
    pitch = size + gap
    radius = 0.075 * n * size
    mass = mass_fraction * n ** 3
    bodies = [ground(),
              {"name": "ball", "shape": {"type": "sphere", "radius": radius},
               "position": [-(size / 2 + approach + radius), pitch * n / 2, 0],
               "velocity": [speed, 0, 0], "mass": mass}]
    arrays = [box_array("box", (n, n, n), (pitch, pitch, pitch),
                        (0.0, size / 2 + gap / 2, -pitch * (n - 1) / 2), size, 1)]
    if mass_fraction == 0.1 and approach == 2.0:
        variant = ""
    else:
        variant = (f"The paper's second variant (Fig. 16b: a larger mass and a higher velocity): "
                   f"{mass_fraction:g} of the pile's mass, {approach:g} m from its face, so the "
                   f"ball hits from the first step on. ")
    return {"description": f"The paper's Fig. 16 pile at {n} x {n} x {n}: {n ** 3} boxes (1 m, "
                           f"1 kg, 1 mm apart) on the ground, hit at mid height by a ball of "
                           f"{mass:g} kg and {2 * radius:g} m diameter at {speed:g} m/s; "
                           f"{variant}{n ** 3 + 1} moving bodies, 20 iterations, {steps} steps "
                           "(a timing scene).",
            "settings": {"dt": DT, "iterations": 20, "gravity": [0, -9.81, 0], "steps": steps},
            "bodies": bodies, "arrays": arrays}


def pyramid(base=40, size=1.0, gap=0.02, steps=300):
    # A 2D pyramid in the XY plane: row j (from the ground up) holds base - j
    # boxes, `gap` apart, shifted half a pitch per row so that each box rests on
    # two below; rows rest exactly on each other. base = 40 gives 820 boxes.
    pitch = size + gap
    bodies = [ground()]
    for j in range(base):
        for i in range(base - j):
            x = (i - (base - 1) / 2 + j / 2) * pitch
            bodies.append({"name": f"box_{i}_{j}", "shape": {"type": "box", "size": [size] * 3},
                           "position": [round(x, 12) + 0.0, size / 2 + size * j, 0], "mass": 1})
    assert len(bodies) - 1 == base * (base + 1) // 2
    return {"description": f"A pyramid of {len(bodies) - 1} boxes (1 m, 1 kg) with {base} at its "
                           f"base, {gap:g} m apart in each row, on the ground; 20 iterations, "
                           f"{steps} steps (a stability and timing scene).",
            "settings": {"dt": DT, "iterations": 20, "gravity": [0, -9.81, 0], "steps": steps},
            "bodies": bodies}


def windmill_piles(size=0.4, gap=0.001, box_mass=1.0, base=(5, 5, 9), top=(3, 2, 5),
                   max_torque=5000, inner=0.5, height=4.0, blade=2.8):
    # The windmill, lowered and with longer blades (tips 3.1 m from the hub at
    # 4 m, so 0.9 m above the ground), sweeping two piles that stand left and
    # right of the post (their inner faces `inner` from the post's axis) across
    # the blades' plane (z = 0.45, the middle of the 9 columns along z). A pile
    # is a 5 x 5 x 9 block of 0.4 m boxes with a 3 x 2 x 5 block on top (255
    # boxes); 2 x 255 boxes + hub + 4 blades = the paper's 515 moving bodies.
    # The motor is the windmill's (at most 5000 N m). Tips that come lower
    # squeeze bottom boxes into the ground (docs/collision.md, Limits).
    scene = windmill(height=height, blade=blade, max_torque=max_torque)
    front = 0.45  # the blades' plane (windmill's hub centre z)
    pitch = size + gap
    arrays = []
    for side, sign in (("left", -1), ("right", 1)):
        first = inner + size / 2  # innermost column's centre; its face at |x| = inner
        x0 = first if sign > 0 else -first - pitch * (base[0] - 1)
        y0 = size / 2 + gap / 2
        arrays.append(box_array(f"{side}_base", base, (pitch,) * 3,
                                (x0, y0, front - pitch * (base[2] - 1) / 2), size, box_mass))
        arrays.append(box_array(f"{side}_top", top, (pitch,) * 3,
                                (x0 + pitch * (base[0] - top[0]) / 2, y0 + pitch * base[1],
                                 front - pitch * (top[2] - 1) / 2), size, box_mass))
    boxes = sum(a["count"][0] * a["count"][1] * a["count"][2] for a in arrays)
    moving = sum(1 for b in scene["bodies"] if not b.get("static")) + boxes
    assert boxes == 510 and moving == 515
    scene["description"] = (
        "The paper's Fig. 4: a windmill (static post, a 20 kg hub 4 m up on a hinge driven at "
        f"1 rad/s, at most {max_torque:g} N m, four 2.8 m, 10 kg blades welded to it) sweeping "
        "two piles of "
        "255 boxes (0.4 m, 1 kg) that stand across the blades' plane left and right of the "
        "post; 515 moving bodies, 40 iterations.")
    scene["arrays"] = arrays
    return scene


def gear(name, teeth, module, centre, phase, mass, friction):
    # A pin gear: a prism core (a 2N-gon of radius r - 1.25 m, as thick as a
    # tooth) and N capsule teeth pointing outward from r - 1.25 m to r + m, r
    # the pitch radius N m / 2 (m = module). Tooth i points at phase + 2 pi i / N
    # in the XY plane; a tooth's diameter is 45% of the circular pitch pi m.
    r = teeth * module / 2
    root = r - 1.25 * module
    rho = 0.45 * math.pi * module / 2
    half = (2.25 * module) / 2 - rho  # capsule core half length: tip to root is 2.25 m
    mid = root + (2.25 * module) / 2
    rnd = lambda v: round(v, 12) + 0.0
    core = []
    for i in range(2 * teeth):
        a = phase + math.pi * i / teeth
        for z in (-rho, rho):
            core.append([rnd(root * math.cos(a)), rnd(root * math.sin(a)), rnd(z)])
    children = [{"shape": {"type": "convex_hull", "points": core}}]
    for i in range(teeth):
        a = phase + 2 * math.pi * i / teeth
        turn = (a - math.pi / 2) / 2  # local Y (the capsule's axis) onto the tooth's direction
        children.append({"shape": {"type": "capsule", "radius": rnd(rho), "half_height": rnd(half)},
                         "position": [rnd(mid * math.cos(a)), rnd(mid * math.sin(a)), 0.0],
                         "orientation": [rnd(math.cos(turn)), 0.0, 0.0, rnd(math.sin(turn))]})
    return {"name": name, "shape": {"type": "compound", "children": children},
            "position": centre, "mass": mass, "friction": friction}


def gears(driven=12, free=18, module=0.1, speed=1.0, height=2.0):
    # Two pin gears in the XY plane on hinges to the world about Z, centres
    # (driven + free) m / 2 apart. The driven one turns at `speed` (velocity
    # drive); the free one's teeth sit half a pitch off the line of centres so
    # that the driven tooth on that line lies in a gap. The free gear turns at
    # -(driven / free) speed.
    d = (driven + free) * module / 2
    a_centre, b_centre = [0.0, height, 0.0], [round(d, 12), height, 0.0]
    bodies = [gear("driven", driven, module, a_centre, 0.0, 10.0, 0.2),
              gear("free", free, module, b_centre, math.pi + math.pi / free, 20.0, 0.2)]
    z = [0, 0, 1]
    joints = [
        {"type": "hinge", "body_a": "world", "body_b": "driven", "anchor": a_centre, "axis": z,
         "drive": {"mode": "velocity", "target": speed, "max_force": 200}},
        {"type": "hinge", "body_a": "world", "body_b": "free", "anchor": b_centre, "axis": z},
    ]
    return {"description": f"Two meshing gears in the spirit of the paper's Fig. 2 (bottom): "
                           f"compound bodies with {driven} and {free} capsule teeth (module "
                           f"{module} m) on hinges to the world; the {driven}-tooth gear is "
                           f"driven at {speed:g} rad/s (at most 200 N m), the other is free and "
                           f"should turn at -{driven}/{free} of that.",
            "settings": {"dt": DT, "iterations": 20, "gravity": [0, -9.81, 0], "steps": 600},
            "bodies": bodies, "joints": joints}


def capsule_between(name, top, bottom, radius, mass, friction=None):
    # A capsule along local Y from `bottom` to `top` (both on a vertical line),
    # its end caps' tips at those points: core half length = half the length
    # minus the radius.
    length = top[1] - bottom[1]
    body = {"name": name, "shape": {"type": "capsule", "radius": radius,
                                    "half_height": round(length / 2 - radius, 12)},
            "position": [top[0], round((top[1] + bottom[1]) / 2, 12), top[2]], "mass": mass}
    if friction is not None:
        body["friction"] = friction
    return body


def robot_dog(frequency=1.5, hip_amplitude=0.35, knee_amplitude=0.35, stiffness=1200.0,
              damping=30.0, steps=600, torso_mass=6.0, thigh_mass=0.5, shank_mass=0.5,
              knee_lead=0.5 * math.pi, hip_lead=math.pi, knee_sign=1.0, width=0.3):
    # A quadruped of 9 bodies and 8 hinges about Z (the paper's Fig. 1 dog on
    # rigid ground): a box torso and, per leg, a thigh and a shank (capsules,
    # 0.2 m each), hips at the torso's corners, the legs outside its sides so
    # that the shanks never touch it. Every hinge has a periodic position drive
    # (a trot: diagonal legs in phase). Hip angle a sin(phi + hip_lead), knee
    # angle k (1 + cos(phi)) (knee_sign +1: the knee bends the foot forward
    # and up), most bent once per cycle: this pattern walks toward +x (the
    # mirrored ones walk backward). A 6 kg torso on 0.5 kg segments: the feet's
    # contacts carry the torso's weight (a free articulation shares its
    # unsupported mass among its supported bodies, contacts/contact_load.h).
    # Drives of 1200 N m/rad and 30 N m s/rad: from 1000 to 1500 and 20 to 30
    # the dog walks 2.4-3.4 m in 10 s, tilting at most 17 degrees.
    torso = [0.6, 0.15, width]
    thigh, shank, radius = 0.2, 0.2, 0.03
    hip_x, hip_z = 0.25, width / 2 + 0.04
    height = thigh + shank + 0.01  # hips (torso centre) above the ground; feet 1 cm up
    bodies = [ground_with_friction(1.0),
              {"name": "torso", "shape": {"type": "box", "size": torso},
               "position": [0, height, 0], "mass": torso_mass, "friction": 0.5}]
    joints = []
    z = [0, 0, 1]
    legs = [("front_left", hip_x, -hip_z, 0.0), ("front_right", hip_x, hip_z, math.pi),
            ("rear_left", -hip_x, -hip_z, math.pi), ("rear_right", -hip_x, hip_z, 0.0)]
    for leg, x, zz, phase in legs:
        hip, knee, foot = [x, height, zz], [x, height - thigh, zz], [x, height - thigh - shank, zz]
        bodies.append(capsule_between(f"{leg}_thigh", hip, knee, radius, thigh_mass))
        bodies.append(capsule_between(f"{leg}_shank", knee, foot, radius, shank_mass,
                                      friction=1.0))
        joints.append({"type": "hinge", "body_a": "torso", "body_b": f"{leg}_thigh",
                       "anchor": hip, "axis": z,
                       "drive": {"mode": "position", "amplitude": hip_amplitude,
                                 "frequency": frequency,
                                 "phase": round(math.remainder(phase + hip_lead, 2 * math.pi),
                                                12) + 0.0,
                                 "stiffness": stiffness, "damping": damping}})
        # -k - k cos(phi) = -k + k sin(phi + 3 pi / 2)
        joints.append({"type": "hinge", "body_a": f"{leg}_thigh", "body_b": f"{leg}_shank",
                       "anchor": knee, "axis": z,
                       "drive": {"mode": "position", "offset": knee_sign * knee_amplitude,
                                 "amplitude": knee_amplitude, "frequency": frequency,
                                 "phase": round(math.remainder(phase + knee_lead + (knee_sign < 0) * math.pi,
                                                               2 * math.pi), 12) + 0.0,
                                 "stiffness": stiffness, "damping": damping}})
    assert len(bodies) == 10 and len(joints) == 8
    return {"description": f"The paper's Fig. 1 robot dog on rigid ground: a {torso_mass:g} kg "
                           f"torso and two capsule segments per leg ({thigh_mass:g} and "
                           f"{shank_mass:g} kg; 9 bodies), 8 hinges with periodic position "
                           f"drives in a trot (diagonal legs in phase, {frequency:g} Hz), feet "
                           "with friction 1 on the ground; it walks toward +x. 20 iterations "
                           "as in Table 2.",
            "settings": {"dt": DT, "iterations": 20, "gravity": [0, -9.81, 0], "steps": steps},
            "bodies": bodies, "joints": joints}


def ground_with_friction(friction):
    g = ground()
    g["friction"] = friction
    return g


def wheel_hull(radius, width, sides=24):
    # A wheel as a convex prism: a regular `sides`-gon of circumradius `radius`
    # in the body's XY plane, `width` thick along local Z (the axle).
    points = []
    for i in range(sides):
        a = 2 * math.pi * (i + 0.5) / sides
        for zz in (-width / 2, width / 2):
            points.append([round(radius * math.cos(a), 12) + 0.0,
                           round(radius * math.sin(a), 12) + 0.0, zz])
    return {"type": "convex_hull", "points": points}


def jeep(x, deck, speed=5.0, max_torque=1500.0, steer_stiffness=2e4, steer_damping=500.0):
    # The paper's vehicle (Sec. "Terrain navigation", "Bridge"): a chassis
    # (the paper's suspension body), rear wheels on driven hinges to it, front wheels
    # each on a steering hinge (chassis to knuckle, about Y, held straight by a
    # position drive: the steering input) and a driving hinge (knuckle to
    # wheel, about -Z, a velocity drive of `speed` rad/s within `max_torque`).
    # The wheels are 24-gon prisms with friction 1. Chassis centre at (x, .., 0),
    # wheels 1 cm above `deck`. 7 bodies, 6 hinges.
    r, width = 0.4, 0.3
    base, track = 2.2, 0.9  # wheelbase; wheel centres at z = +-track
    axle = deck + r + 0.01
    bodies = [{"name": "chassis", "shape": {"type": "box", "size": [3.0, 0.5, 1.4]},
               "position": [x, round(axle + 0.15, 12), 0], "mass": 1200, "friction": 0.5}]
    joints = []
    for side, zz in (("left", -track), ("right", track)):
        rear = [round(x - base / 2, 12), axle, zz]
        bodies.append({"name": f"rear_{side}_wheel", "shape": wheel_hull(r, width),
                       "position": rear, "mass": 30, "friction": 1.0})
        # Four-wheel drive: the rear hinges carry the same velocity drive. With
        # the front pair braked alone, the jeep crept 0.43 m down a 15 degree
        # slope in 4 s (each hard velocity drive at 0 under a sustained load
        # creeps; four share the load and hold it to 5 mm).
        joints.append({"type": "hinge", "body_a": "chassis", "body_b": f"rear_{side}_wheel",
                       "anchor": rear, "axis": [0, 0, -1],
                       "drive": {"mode": "velocity", "target": speed, "max_force": max_torque}})
    for side, zz in (("left", -track), ("right", track)):
        front = [round(x + base / 2, 12), axle, zz]
        pivot = [front[0], axle, round(0.8 * zz, 12)]  # steering axis just outside the chassis
        bodies.append({"name": f"front_{side}_knuckle", "shape": {"type": "sphere", "radius": 0.08},
                       "position": pivot, "mass": 10})
        bodies.append({"name": f"front_{side}_wheel", "shape": wheel_hull(r, width),
                       "position": front, "mass": 30, "friction": 1.0})
        joints.append({"type": "hinge", "body_a": "chassis", "body_b": f"front_{side}_knuckle",
                       "anchor": pivot, "axis": [0, 1, 0],
                       "drive": {"mode": "position", "target": 0, "stiffness": steer_stiffness,
                                 "damping": steer_damping}})
        joints.append({"type": "hinge", "body_a": f"front_{side}_knuckle",
                       "body_b": f"front_{side}_wheel", "anchor": front, "axis": [0, 0, -1],
                       "drive": {"mode": "velocity", "target": speed, "max_force": max_torque}})
    return bodies, joints


def sagging_chain(n, pitch, span):
    # The n + 1 joint points of n equal links of length `pitch` hanging between
    # (0, 0) and (span, 0) on a circular arc (close to the catenary for a
    # small sag): span / pitch = sin(n t) / sin(t), solved for t by bisection.
    assert span < n * pitch
    lo, hi = 1e-12, math.pi / n
    for _ in range(200):
        t = (lo + hi) / 2
        if math.sin(n * t) / math.sin(t) > span / pitch:
            lo = t
        else:
            hi = t
    radius = pitch / (2 * math.sin(t))
    centre_y = radius * math.cos(n * t)
    return [(span / 2 + radius * math.sin(-n * t + 2 * k * t),
             centre_y - radius * math.cos(-n * t + 2 * k * t)) for k in range(n + 1)]


def static_box(name, size, centre, angle=0.0, friction=1.0):
    return {"name": name, "static": True, "shape": {"type": "box", "size": size},
            "position": [round(c, 12) + 0.0 for c in centre],
            "orientation": [round(math.cos(angle / 2), 15), 0, 0, round(math.sin(angle / 2), 15)],
            "friction": friction}


def static_compound(name, boxes, friction=1.0):
    # A static body of boxes given in world coordinates: (size, centre, angle
    # about Z). A compound's position is its centre of mass (uniform density),
    # so the body sits there with its children placed relative to it.
    volumes = [sx * sy * sz for (sx, sy, sz), _, _ in boxes]
    com = [sum(v * c[i] for v, (_, c, _) in zip(volumes, boxes)) / sum(volumes) for i in range(3)]
    children = [{"shape": {"type": "box", "size": size},
                 "position": [round(c[i] - com[i], 12) + 0.0 for i in range(3)],
                 "orientation": [round(math.cos(a / 2), 15), 0, 0, round(math.sin(a / 2), 15)]}
                for size, c, a in boxes]
    return {"name": name, "static": True, "friction": friction,
            "shape": {"type": "compound", "children": children},
            "position": [round(c, 12) + 0.0 for c in com]}


def jeep_bridge(boards=50, pitch=0.4, gap=0.02, width=4.0, thickness=0.08, board_mass=40.0,
                ramp_deg=15.0, ramp_length=8.0, steps=1500):
    # The paper's Fig. 12: a jeep crossing a bridge of 50 boards, each joined
    # to the next, the first and last to the banks, by one spherical joint on
    # the deck's centre line (the paper's "point connections": 51 joints). The
    # boards lie on two stringers (static beams under their edges, part of the
    # left bank's body): a chain of 50 boards hanging on hard joints does not
    # come to rest at the defaults (it gains energy and swings above the
    # banks), and a board on two points of one line would roll freely under
    # the wheels. Past the right bank, a 15 degree ramp up to a plateau, parts
    # of the right bank's body. Deck and bank tops at y = 0.
    span = boards * pitch
    stringer = [span, 0.3, 0.2]
    rail_z = width / 2 - 0.15
    bodies = [static_compound("left_bank", [([12, 6, 4], [-6, -3, 0], 0.0)] +
                              [(stringer, [span / 2, -thickness - 0.15, zz], 0.0)
                               for zz in (-rail_z, rail_z)])]
    a = math.radians(ramp_deg)
    start = span + 6.0
    top = [start + ramp_length * math.cos(a), ramp_length * math.sin(a)]
    down = [math.sin(a) * 0.5, -math.cos(a) * 0.5]  # half the ramp's thickness, inward
    bodies.append(static_compound("right_bank", [
        ([6, 6, 4], [span + 3, -3, 0], 0.0),
        ([ramp_length, 1.0, 4], [(start + top[0]) / 2 + down[0], top[1] / 2 + down[1], 0], a),
        ([30, 1.0, 6], [top[0] + 15, top[1] - 0.5, 0], 0.0)]))
    joints = []
    for k in range(boards):
        board = static_box(f"board_{k}", [pitch - gap, thickness, width],
                           [(k + 0.5) * pitch, -thickness / 2, 0], friction=1.0)
        del board["static"]
        board["mass"] = board_mass
        bodies.append(board)
    for k in range(boards + 1):
        joints.append({"type": "spherical",
                       "body_a": "left_bank" if k == 0 else f"board_{k - 1}",
                       "body_b": "right_bank" if k == boards else f"board_{k}",
                       "anchor": [round(k * pitch, 12) + 0.0, 0, 0]})
    car, car_joints = jeep(-4.0, 0.0)
    bodies += car
    joints += car_joints
    assert len(bodies) == 59 and len(joints) == 57
    return {"description": f"The paper's Fig. 12: a jeep (chassis, two knuckles, four wheels; "
                           f"rear wheels on driven hinges, front wheels on steering and driving hinges, "
                           f"four-wheel drive at 5 rad/s) crosses a bridge of {boards} boards "
                           f"({board_mass:g} kg) joined to each other and to the banks by "
                           f"spherical joints and lying on two stringers, then climbs a "
                           f"{ramp_deg:g} degree ramp. 59 bodies (57 moving), 57 joints "
                           "(6 hinges, 49 spherical joints between boards, 2 to the banks; "
                           "Table 2's 55 is 49 + 6, without the bank joints), "
                           "20 iterations as in Table 2.",
            "settings": {"dt": DT, "iterations": 20, "gravity": [0, -9.81, 0], "steps": steps},
            "bodies": bodies, "joints": joints}


def rhombic_yoke(crank, rod, centre_gap, pivot, theta):
    # Height of the yoke's pivots above the gears' centres for the left crank
    # at angle theta (from +x, counter-clockwise): the pin at
    # (-centre_gap / 2 + crank cos, crank sin), the pivot at x = -pivot.
    dx = -pivot - (-centre_gap / 2 + crank * math.cos(theta))
    return crank * math.sin(theta) + math.sqrt(rod * rod - dx * dx)


def gear_linkage(teeth=16, module=0.1, speed=1.0, height=2.0, crank=0.35, rod=1.6, pivot=0.3):
    # The paper's Fig. 2 (bottom): a driven gear and a free gear joined by a
    # sliding linkage, as a rhombic drive: two equal pin gears that mesh (so
    # they turn at -1 times each other), a crank pin on each, a rod from each
    # pin to a yoke that slides vertically (slider to the frame) on the line
    # between the gears. The mirror-symmetric linkage fits the gears' -1 ratio
    # at every angle; the teeth carry the free gear through the linkage's dead
    # points. 5 moving bodies and 3 static frame parts (the paper's 8 bodies),
    # 7 joints: two gear hinges, four rod hinges, the yoke's slider.
    d = teeth * module  # centre distance: two pitch radii
    left, right = [-d / 2, height, 0.0], [d / 2, height, 0.0]
    front = 0.2  # rods and yoke in front of the gears (teeth within z = +-0.071)
    theta0 = math.pi / 2  # left pin straight up, right pin too (mirror)
    y = height + rhombic_yoke(crank, rod, d, pivot, theta0)
    pin_l = [round(left[0] + crank * math.cos(theta0), 12) + 0.0,
             round(height + crank * math.sin(theta0), 12), front]
    pin_r = [round(-pin_l[0], 12) + 0.0, pin_l[1], front]
    piv_l, piv_r = [-pivot, round(y, 12), front], [pivot, round(y, 12), front]
    rnd = lambda v: round(v, 12) + 0.0

    def link(name, a, b, z_off):
        # A rod between points a and b (XY plane), offset along z.
        dx, dy = b[0] - a[0], b[1] - a[1]
        ang = math.atan2(dy, dx)
        return {"name": name, "shape": {"type": "box", "size": [rnd(math.hypot(dx, dy) + 0.08),
                                                                0.05, 0.04]},
                "position": [rnd((a[0] + b[0]) / 2), rnd((a[1] + b[1]) / 2), front + z_off],
                "orientation": [rnd(math.cos(ang / 2)), 0, 0, rnd(math.sin(ang / 2))], "mass": 2}

    bodies = [static_box("left_post", [0.3, 0.3, 0.3], [left[0], height, -0.3]),
              static_box("right_post", [0.3, 0.3, 0.3], [right[0], height, -0.3]),
              static_box("guide", [0.12, 1.4, 0.1], [0, y, -0.3]),
              gear("driven", teeth, module, left, 0.0, 10.0, 0.2),
              gear("free", teeth, module, right, math.pi + math.pi / teeth, 10.0, 0.2),
              link("left_rod", pin_l, piv_l, -0.03), link("right_rod", pin_r, piv_r, 0.03),
              {"name": "yoke", "shape": {"type": "box", "size": [2 * pivot + 0.1, 0.1, 0.12]},
               "position": [0, rnd(y), front], "mass": 3}]
    z = [0, 0, 1]
    joints = [
        {"type": "hinge", "body_a": "left_post", "body_b": "driven", "anchor": left, "axis": z,
         "drive": {"mode": "velocity", "target": speed, "max_force": 200}},
        {"type": "hinge", "body_a": "right_post", "body_b": "free", "anchor": right, "axis": z},
        {"type": "hinge", "body_a": "driven", "body_b": "left_rod", "anchor": pin_l, "axis": z},
        {"type": "hinge", "body_a": "left_rod", "body_b": "yoke", "anchor": piv_l, "axis": z},
        {"type": "hinge", "body_a": "free", "body_b": "right_rod", "anchor": pin_r, "axis": z},
        {"type": "hinge", "body_a": "right_rod", "body_b": "yoke", "anchor": piv_r, "axis": z},
        {"type": "slider", "body_a": "guide", "body_b": "yoke", "anchor": [0, rnd(y), front],
         "axis": [0, 1, 0]},
    ]
    ys = [rhombic_yoke(crank, rod, d, pivot, 2 * math.pi * i / 3600) for i in range(3600)]
    stroke = max(ys) - min(ys)
    return {"description": f"The paper's Fig. 2 (bottom): a driven gear and a free gear "
                           f"({teeth} capsule teeth each, module {module:g} m) joined by a "
                           f"sliding linkage, a rhombic drive: a crank pin on each gear, a rod "
                           f"from each pin to a yoke on a vertical slider between the gears. "
                           f"The driven gear turns at {speed:g} rad/s (at most 200 N m), the free "
                           f"one at -1 times that; the yoke's stroke is {stroke:.4f} m "
                           f"(from {min(ys) - (y - height):.4f} to "
                           f"{max(ys) - (y - height):.4f} m of travel).",
            "settings": {"dt": DT, "iterations": 20, "gravity": [0, -9.81, 0], "steps": 600},
            "bodies": bodies, "joints": joints}


def dog_on_sand(steps=600):
    # The paper's Fig. 1: the robot dog of robot_dog() walking on a sand bed
    # instead of rigid ground. The paper's 256 x 256 height field, 3 cm apart
    # (7.65 m square, centred ahead of the dog), 0.3 m of dry sand over a
    # floor at y = -0.3 (surface at y = 0, where the ground plane was), the
    # defaults of the sand model (Bekker's dry sand, repose 30 degrees,
    # friction 0.6).
    scene = robot_dog(steps=steps)
    scene["bodies"] = [b for b in scene["bodies"] if b["name"] != "ground"]
    scene["sand"] = {"columns": 256, "rows": 256, "spacing": 0.03, "position": [2.0, -0.3, 0],
                     "depth": 0.3}
    scene["description"] = ("The paper's Fig. 1: the robot dog (9 bodies, 8 hinges with periodic "
                            "position drives in a trot, see robot_dog.json) walking toward +x on "
                            "a 256 x 256 sand bed 3 cm apart, 0.3 m deep (Bekker's dry sand, "
                            "30 degree repose): its feet press footprints and push the sand "
                            "aside. 20 iterations as in Table 2.")
    return scene


def small_jeep(k, x, z, deck, speed, max_torque):
    # The paper's jeeps on sand (Table 2: 140 bodies, 112 joints for 28): a
    # chassis and four wheels, each wheel on a driven hinge to the chassis
    # (four-wheel drive, a velocity drive of `speed` rad/s within
    # `max_torque`). Chassis `chassis_K`, wheels `wheel_K_rl` (rear left), ...
    r, width = 0.4, 0.3
    base, track = 2.2, 0.9
    axle = deck + r + 0.01
    bodies = [{"name": f"chassis_{k}", "shape": {"type": "box", "size": [3.0, 0.5, 1.4]},
               "position": [x, round(axle + 0.15, 12), z], "mass": 1200, "friction": 0.5}]
    joints = []
    for end, dx in (("r", -base / 2), ("f", base / 2)):
        for side, dz in (("l", -track), ("r", track)):
            centre = [round(x + dx, 12), axle, round(z + dz, 12)]
            name = f"wheel_{k}_{end}{side}"
            bodies.append({"name": name, "shape": wheel_hull(r, width), "position": centre,
                           "mass": 30, "friction": 1.0})
            joints.append({"type": "hinge", "body_a": f"chassis_{k}", "body_b": name,
                           "anchor": centre, "axis": [0, 0, -1],
                           "drive": {"mode": "velocity", "target": speed,
                                     "max_force": max_torque}})
    return bodies, joints


def jeeps_sand(count_x=4, count_z=7, speed=2.0, max_torque=1500.0, steps=1200):
    # The paper's Fig. 14: 28 jeeps wading through sand. 4 x 7 jeeps, 7 m
    # apart along x and 4.5 m along z, all driving toward +x at 2 rad/s
    # (0.8 m/s on hard ground), on a 256 x 192 sand bed 0.2 m apart (51 x 38
    # m), 0.3 m deep over a floor at y = -0.3. 30 iterations as in Table 2.
    bodies, joints = [], []
    k = 0
    for i in range(count_x):
        for j in range(count_z):
            x = -20.0 + 7.0 * i
            z = round(4.5 * (j - (count_z - 1) / 2), 12)
            b, jj = small_jeep(k, x, z, 0.0, speed, max_torque)
            bodies += b
            joints += jj
            k += 1
    assert len(bodies) == 140 and len(joints) == 112
    return {"description": f"The paper's Fig. 14: {k} jeeps (a chassis and four driven wheels "
                           f"each: 140 bodies, 112 hinges) drive toward +x at {speed:g} rad/s "
                           "through a 256 x 192 sand bed (0.2 m apart, 0.3 m of dry sand): "
                           "the wheels sink and leave ruts. Main bodies chassis_0 ... "
                           f"chassis_{k - 1}. 30 iterations as in Table 2.",
            "settings": {"dt": DT, "iterations": 30, "gravity": [0, -9.81, 0], "steps": steps},
            "sand": {"columns": 256, "rows": 192, "spacing": 0.2, "position": [4.0, -0.3, 0],
                     "depth": 0.3},
            "bodies": bodies, "joints": joints}


def sail_grid(name, luff_bottom, luff_top, leech_bottom, leech_top, rows, cols):
    # A four-sided sail: `rows` vertices up the luff (the edge on the mast),
    # `cols` across from luff to leech, two triangles per quad.
    def lerp(a, b, t):
        return [a[i] + (b[i] - a[i]) * t for i in range(3)]
    vertices = []
    for i in range(rows):
        t = i / (rows - 1)
        luff, leech = lerp(luff_bottom, luff_top, t), lerp(leech_bottom, leech_top, t)
        for j in range(cols):
            vertices.append([round(c, 12) + 0.0 for c in lerp(luff, leech, j / (cols - 1))])
    triangles = []
    for i in range(rows - 1):
        for j in range(cols - 1):
            a, b = i * cols + j, i * cols + j + 1
            c, d = a + cols, b + cols
            triangles += [[a, b, d], [a, d, c]]
    return {"name": name, "vertices": vertices, "triangles": triangles}


def sailboat(wind=8.0, steps=1800):
    # The paper's Fig. 13: a sailboat on Gerstner waves with a shallow-water
    # wake. A hull (a pointed prism 4 m long, 1.2 m wide, 0.6 m deep, with a
    # keel and a 5 m mast: one compound of 250 kg), a 200 kg ballast bulb
    # under the keel (fixed joint), a boom (the steering bar) on a vertical
    # hinge at the mast held by a position drive, and two cloth sails of 60
    # particles each: the main on the mast and the boom, the jib on the
    # mast's fore side and tied to the bow. The wind blows toward +x, from
    # astern; the boom stands across it (along +z).
    half_len, beam, depth = 2.0, 1.2, 0.6
    plan = [[-half_len, -beam / 2], [1.0, -beam / 2], [half_len, 0.0], [1.0, beam / 2],
            [-half_len, beam / 2]]
    hull_points = [[x, y, z] for x, z in plan for y in (-depth / 2, depth / 2)]
    # Volumes and centroids of the children, for the compound's centre of mass.
    area = 3.0 * beam + 0.5 * 1.0 * beam
    hull_cx = (3.0 * beam * (-0.5) + 0.5 * beam * (1.0 + 1.0 / 3.0)) / area
    keel = {"size": [1.2, 0.9, 0.08], "pos": [0.2, -depth / 2 - 0.45, 0]}
    mast_r, mast_len, mast_x = 0.06, 5.0, 0.3
    mast = {"pos": [mast_x, depth / 2 + mast_len / 2, 0]}
    pole = {"size": [0.06, 0.06, 2.0], "pos": [mast_x, depth / 2 + 0.5, -1.0 - mast_r]}
    parts = [(area * depth, [hull_cx, 0, 0]),
             (0.06 * 0.06 * 2.0, pole["pos"]),
             (1.2 * 0.9 * 0.08, keel["pos"]),
             (math.pi * mast_r ** 2 * (mast_len - 2 * mast_r) + 4 / 3 * math.pi * mast_r ** 3,
              mast["pos"])]
    volume = sum(v for v, _ in parts)
    com = [sum(v * c[i] for v, c in parts) / volume for i in range(3)]
    # Where the user frame's origin goes in the world: the hull floats about
    # 0.1 m deep (458 kg on 4.2 m^2 of waterplane, less the keel's volume).
    origin = [0.0, 0.2, 0.0]

    def world(p):
        return [round(origin[i] + p[i], 12) + 0.0 for i in range(3)]
    hull = {"name": "hull", "mass": 250, "friction": 0.5,
            "shape": {"type": "compound", "children": [
                {"shape": {"type": "convex_hull", "points": hull_points}},
                {"shape": {"type": "box", "size": keel["size"]}, "position": keel["pos"]},
                {"shape": {"type": "capsule", "radius": mast_r,
                           "half_height": mast_len / 2 - mast_r}, "position": mast["pos"]},
                {"shape": {"type": "box", "size": pole["size"]}, "position": pole["pos"]}]},
            "position": world(com)}
    ballast_pos = [0.2, -depth / 2 - 0.9 - 0.1, 0]
    ballast = {"name": "ballast", "shape": {"type": "box", "size": [0.7, 0.2, 0.2]},
               "mass": 200, "position": world(ballast_pos)}
    boom_y = depth / 2 + 0.5
    boom_len = 2.0
    boom = {"name": "boom", "shape": {"type": "box", "size": [0.06, 0.06, boom_len]},
            "mass": 5, "position": world([mast_x, boom_y, boom_len / 2 + mast_r])}
    mast_top = depth / 2 + mast_len - 0.2
    # The main: luff up the mast, foot along the boom (toward +z).
    main = sail_grid("main", world([mast_x, boom_y + 0.08, mast_r + 0.02]),
                     world([mast_x, mast_top, mast_r + 0.02]),
                     world([mast_x, boom_y + 0.08, boom_len + mast_r]),
                     world([mast_x, mast_top - 0.3, 0.5]), 10, 6)
    # The jib: the main's mirror on the other side (-z), its foot along a
    # whisker pole fixed to the mast (part of the hull): wing on wing, the two
    # sails' turning moments cancel while the boom stands square.
    jib = sail_grid("jib", world([mast_x, boom_y + 0.08, -mast_r - 0.02]),
                    world([mast_x, mast_top, -mast_r - 0.02]),
                    world([mast_x, boom_y + 0.08, -boom_len - mast_r]),
                    world([mast_x, mast_top - 0.3, -0.5]), 10, 6)
    # Heavy sailcloth, 1 kg/m^2, with edges of 2 kN/m: stiff enough that the
    # sails stretch under 10% in this wind, and no stiffer than the 30
    # iterations resolve for 0.12 kg particles (docs/fields.md, "Cloth").
    cloth_stiffness = 2000.0
    for sail in (main, jib):
        sail.update({"areal_density": 1.0, "stretch_stiffness": cloth_stiffness,
                     "bend_stiffness": 20.0})
    joints = [{"type": "fixed", "body_a": "hull", "body_b": "ballast",
               "anchor": world([0.2, -depth / 2 - 0.9, 0])},
              {"type": "hinge", "body_a": "hull", "body_b": "boom",
               "anchor": world([mast_x, boom_y, 0]), "axis": [0, 1, 0],
               "drive": {"mode": "position", "target": 0, "stiffness": 5000.0,
                         "damping": 200.0}}]
    # Ties, as in the paper "linked to the sailboat via spring constraints":
    # each luff vertex to the mast, each foot vertex to the boom (main) or the
    # pole (jib), zero-length springs as stiff as the cloth's edges.
    def tie(body, particle, p):
        joints.append({"type": "spring", "body_a": body, "body_b": particle, "anchor_a": p,
                       "anchor_b": p, "rest_length": 0, "stiffness": cloth_stiffness})
    for sail, rows, cols in ((main, 10, 6), (jib, 10, 6)):
        for i in range(rows):  # the luff on the mast
            k = i * cols
            tie("hull", f"{sail['name']}_{k}", sail["vertices"][k])
    for j in range(1, 6):  # the feet: the main's on the boom, the jib's on the pole
        tie("boom", f"main_{j}", main["vertices"][j])
        tie("hull", f"jib_{j}", jib["vertices"][j])
    return {"description": "The paper's Fig. 13: a sailboat (a 250 kg hull with keel and mast, a "
                           "200 kg ballast bulb on a fixed joint, a boom on a steering hinge, "
                           "two cloth sails of 60 particles and 90 triangles each, wing on wing: "
                           "123 bodies, 2 joints and 30 springs tying the sails) on Gerstner waves with a "
                           f"shallow-water wake; the wind blows toward +x at {wind:g} m/s. The "
                           "steering hinge (hull to boom) is the only hinge. 30 iterations as in Table 2.",
            "settings": {"dt": DT, "iterations": 30, "gravity": [0, -9.81, 0], "steps": steps},
            "water": {"level": 0.0, "waves": [
                {"amplitude": 0.12, "wavelength": 14.0, "direction": [1, 0, 0.3], "steepness": 0.5},
                {"amplitude": 0.06, "wavelength": 6.0, "direction": [0.8, 0, -0.6],
                 "steepness": 0.4}],
                "columns": 160, "rows": 160, "spacing": 0.4, "centre": [15.0, 0, 0]},
            "wind": {"velocity": [wind, 0, 0]},
            "bodies": [hull, ballast, boom], "cloths": [main, jib], "joints": joints}


GENERATORS = {
    "spring_net.json": spring_net,
    "box_chain.json": box_chain,
    "heavy_chain.json": lambda: heavy_chain(True),
    "heavy_chain_no_al.json": lambda: heavy_chain(False),
    "linkage.json": linkage,
    "windmill.json": windmill,
    "box_stack_10.json": box_stack_10,
    "mass_ratio_stack.json": mass_ratio_stack,
    "ball_into_stack.json": ball_into_stack,
    "pile_20.json": lambda: pile(20, 120),
    "pile_30.json": lambda: pile(30, 120),
    "pile_50.json": lambda: pile(50, 60),
    "windmill_piles.json": windmill_piles,
    "pyramid.json": pyramid,
    "gears.json": gears,
    "robot_dog.json": robot_dog,
    "gear_linkage.json": gear_linkage,
    "pile_50_heavy.json": lambda: pile(50, 60, mass_fraction=0.4, speed=30.0, approach=0.25),
    "jeep_bridge.json": jeep_bridge,
    "robot_dog_sand.json": dog_on_sand,
    "jeeps_sand.json": jeeps_sand,
    "sailboat.json": sailboat,
}

if __name__ == "__main__":
    for name in sys.argv[1:] or GENERATORS:
        if name not in GENERATORS:
            sys.exit(f"make_scenes.py: unknown scene {name!r} (one of {', '.join(GENERATORS)})")
        write(name, GENERATORS[name]())
