"""The Python module against closed forms and the C++ behaviour it wraps.

Run by CTest (python_module) with PYTHONPATH at the built module and
PABD_SOURCE_DIR at the repository; Debian's /usr/bin/python3 and numpy.
"""
import os
import unittest

import numpy as np

import pabd

SCENES = os.path.join(os.environ.get("PABD_SOURCE_DIR", "."), "scenes")

FALL = """{"settings": {"dt": 0.016666666666666666, "gravity": [0, -9.81, 0]},
  "bodies": [{"name": "box", "shape": {"type": "box", "size": [1, 1, 1]},
              "position": [0, 10, 0], "mass": 2}]}"""

WEIGHTLESS = """{"settings": {"dt": 0.016666666666666666, "gravity": [0, 0, 0]},
  "bodies": [{"name": "box", "shape": {"type": "box", "size": [1, 1, 1]}, "mass": 2}]}"""


class FreeFall(unittest.TestCase):
    def test_positions_follow_the_closed_form_of_the_update(self):
        w = pabd.parse_scene(FALL)
        self.assertEqual(w.body_names, ["box"])
        w.step(60)
        h, n, g = 1 / 60, 60, 9.81
        # Implicit Euler from rest: fallen g h^2 n (n + 1) / 2; round-off ~1e-13.
        self.assertAlmostEqual(w.positions[0, 1], 10 - g * h * h * n * (n + 1) / 2, delta=1e-9)
        self.assertAlmostEqual(w.velocities[0, 1], -g * h * n, delta=1e-9)
        self.assertEqual(w.positions.shape, (1, 3))
        self.assertEqual(w.orientations.shape, (1, 4))
        self.assertEqual(w.positions.dtype, np.float64)
        self.assertEqual(w.step_count, 60)
        self.assertAlmostEqual(w.time, 1.0, delta=1e-12)


class Pushing(unittest.TestCase):
    def test_a_force_accelerates_as_f_over_m(self):
        w = pabd.parse_scene(WEIGHTLESS)
        for _ in range(30):
            w.apply_force("box", [4, 0, 0])
            w.step()
        # v_n = n h F / m = 30 / 60 * 4 / 2 = 1 m/s.
        self.assertAlmostEqual(w.velocities[0, 0], 1.0, delta=1e-9)

    def test_an_impulse_at_a_point_also_spins(self):
        w = pabd.parse_scene(WEIGHTLESS)
        # 2 kg unit cube: I = m / 6 = 1/3; impulse (0, 1, 0) at 0.5 m along x gives L_z = 0.5.
        w.apply_impulse(0, [0, 1, 0], point=[0.5, 0, 0])
        self.assertAlmostEqual(w.velocities[0, 1], 0.5, delta=1e-12)
        self.assertAlmostEqual(w.angular_velocities[0, 2], 1.5, delta=1e-12)


class Snapshots(unittest.TestCase):
    def test_restoring_gives_the_same_bits_as_running_on(self):
        # Contacts, friction, hard joints and drives: the warm starts matter.
        path = os.path.join(SCENES, "jeep_bridge.json")
        w = pabd.load_scene(path)
        w.step(60)
        state = w.save_state()
        self.assertIsInstance(state, bytes)
        w.step(60)
        straight = w.positions
        other = pabd.load_scene(path, threads=1)
        other.restore_state(state)
        self.assertEqual(other.step_count, 60)
        other.step(60)
        self.assertTrue(np.array_equal(other.positions, straight))
        self.assertTrue(np.array_equal(other.orientations, w.orientations))
        w.restore_state(state)
        w.step(60)
        self.assertTrue(np.array_equal(w.positions, straight))


class Raycast(unittest.TestCase):
    def test_the_ray_finds_the_box_where_it_is_now(self):
        w = pabd.parse_scene(FALL)
        # The unit box's top face is at y = 10.5; the direction need not be unit.
        hit = w.raycast([0.2, 20, 0.1], [0, -2, 0], 100)
        self.assertEqual(hit["body"], "box")
        # One subtraction from exact inputs: exact but for an ulp.
        self.assertAlmostEqual(hit["distance"], 9.5, delta=1e-12)
        self.assertTrue(np.allclose(hit["point"], [0.2, 10.5, 0.1], rtol=0, atol=1e-12))
        self.assertTrue(np.array_equal(hit["normal"], [0, 1, 0]))
        self.assertEqual(hit["point"].shape, (3,))
        # After falling for a second the face is lower by as much as the centre.
        w.step(60)
        top = w.positions[0, 1] + 0.5
        self.assertAlmostEqual(w.raycast([0, 20, 0], [0, -1, 0], 100)["distance"], 20 - top,
                               delta=1e-12)

    def test_misses_limits_and_masks_give_none(self):
        w = pabd.parse_scene(FALL)
        self.assertIsNone(w.raycast([5, 20, 0], [0, -1, 0], 100))  # beside the box
        self.assertIsNone(w.raycast([0, 20, 0], [0, -1, 0], 9))  # short of it
        self.assertIsNone(w.raycast([0, 20, 0], [0, -1, 0], 100, mask=2))  # box is in group 1
        self.assertIsNotNone(w.raycast([0, 20, 0], [0, -1, 0], float("inf"), mask=1))
        with self.assertRaisesRegex(ValueError, "raycast: direction: expected a non-zero vector"):
            w.raycast([0, 20, 0], [0, 0, 0], 100)


class Errors(unittest.TestCase):
    def test_bad_input_raises_value_error_with_the_message(self):
        with self.assertRaisesRegex(ValueError, "no_such.json"):
            pabd.load_scene(os.path.join(SCENES, "no_such.json"))
        with self.assertRaisesRegex(ValueError, "/bodies/0/mass"):
            pabd.parse_scene('{"bodies": [{"shape": {"type": "sphere", "radius": 1}, "mass": -1}]}')
        w = pabd.parse_scene(FALL)
        with self.assertRaisesRegex(ValueError, "not a pabd snapshot"):
            w.restore_state(b"garbage")
        with self.assertRaisesRegex(ValueError, "no body"):
            w.apply_force("nobody", [1, 0, 0])
        with self.assertRaisesRegex(ValueError, "expected 3 numbers"):
            w.apply_force("box", [1, 0])

    def test_a_failed_step_raises_runtime_error_naming_the_body(self):
        w = pabd.parse_scene("""{"settings": {"dt": 1e10, "gravity": [0, 0, 0]},
          "bodies": [{"name": "rocket", "shape": {"type": "sphere", "radius": 0.1},
                      "velocity": [1e300, 0, 0]}]}""")
        with self.assertRaisesRegex(RuntimeError, "step 1: body 'rocket'"):
            w.step(5)


if __name__ == "__main__":
    unittest.main()
