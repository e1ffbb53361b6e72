"""A control loop in Python: a PD controller lifts a 2 kg box off the ground
and holds it at 1.5 m with an upward force, against gravity and a sideways
gust at t = 2 s that a second controller steers back.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/control_loop.py

It prints the height every half second and exits 1 when the box does not
settle within 1 cm of the target (CTest runs it as python_example_control_loop).
"""
import sys

import numpy as np

import pabd

SCENE = """{
  "settings": {"dt": 0.016666666666666666, "gravity": [0, -9.81, 0]},
  "bodies": [
    {"name": "ground", "static": true, "shape": {"type": "plane"}},
    {"name": "box", "shape": {"type": "box", "size": [0.4, 0.4, 0.4]},
     "position": [0, 0.2, 0], "mass": 2}
  ]
}"""

TARGET = np.array([0.0, 1.5, 0.0])
KP, KD = 60.0, 18.0  # N/m and N s/m on 2 kg: critically damped near sqrt(60/2) = 5.5 rad/s


def main():
    world = pabd.parse_scene(SCENE)
    box = world.body_names.index("box")
    mass, g = world.masses[box], 9.81
    for step in range(1, 6 * 60 + 1):
        x, v = world.positions[box], world.velocities[box]
        force = KP * (TARGET - x) - KD * v + np.array([0.0, mass * g, 0.0])  # PD plus gravity
        if step == 2 * 60:
            world.apply_impulse(box, [3.0, 0.0, 0.0])  # a gust: 1.5 m/s sideways
        world.apply_force(box, force.tolist())
        world.step()
        if step % 30 == 0:
            print(f"t = {world.time:4.1f} s   height {x[1]:.4f} m   x {x[0]:+.4f} m")
    error = np.linalg.norm(world.positions[box] - TARGET)
    print(f"final distance from the target: {error * 1000:.2f} mm")
    return 0 if error < 0.01 else 1


if __name__ == "__main__":
    sys.exit(main())
