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


def pile(n, steps, size=1.0, gap=0.001, speed=20.0):
    # The paper's Fig. 16 pile scaled to n^3 boxes (1 m, 1 kg) standing `gap`
    # apart in all three directions, the bottom layer gap/2 above the ground,
    # so nothing starts in contact. The ball keeps ball_into_stack's
    # proportions: diameter 15% of the pile's side, mass 10% of the pile's,
    # aimed at mid height along +X, starting 2 m before the pile's face.
    pitch = size + gap
    radius = 0.075 * n * size
    mass = 0.1 * n ** 3
    bodies = [ground(),
              {"name": "ball", "shape": {"type": "sphere", "radius": radius},
               "position": [-(size / 2 + 2.0 + radius), pitch * n / 2, 0],
               "velocity": [speed, 0, 0], "mass": mass}]
    arrays = [box_array("box", (n, n, n), (pitch, pitch, pitch),
                        (0.0, size / 2 + gap / 2, -pitch * (n - 1) / 2), size, 1)]
    return {"description": f"The paper's Fig. 16 pile at {n} x {n} x {n}: {n ** 3} boxes (1 m, "
                           f"1 kg, 1 mm apart) on the ground, hit at mid height by a ball of "
                           f"{mass:g} kg and {2 * radius:g} m diameter at {speed:g} m/s; "
                           f"{n ** 3 + 1} moving bodies, 20 iterations, {steps} steps (a timing "
                           "scene).",
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
}

if __name__ == "__main__":
    for name in sys.argv[1:] or GENERATORS:
        if name not in GENERATORS:
            sys.exit(f"make_scenes.py: unknown scene {name!r} (one of {', '.join(GENERATORS)})")
        write(name, GENERATORS[name]())
