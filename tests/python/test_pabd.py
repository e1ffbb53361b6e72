"""The Python module against closed forms and the C++ behaviour it wraps.

Run by CTest (python_module) with PYTHONPATH at the built module and
PABD_SOURCE_DIR at the repository; Debian's /usr/bin/python3 and numpy.
"""
import math
import os
import unittest

import numpy as np

import pabd

SOURCE = os.environ.get("PABD_SOURCE_DIR", ".")
SCENES = os.path.join(SOURCE, "scenes")

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


def ground_world(**settings):
    """An empty world (settings as keywords) with a static plane y = 0 as body 0."""
    w = pabd.World(**settings)
    w.add_body(shape=pabd.plane([0, 1, 0], 0), name="ground", static=True)
    return w


def resting_tolerance(w):
    # A contact is made only where shapes come within the contact margin, so a
    # body resting higher than that above its support would be unsupported; and
    # a hard contact's penetration at rest is its solver's residual, about
    # 0.1 mm for these bodies: either way the rest height is within the margin.
    return w.settings["contact_margin"]


class Building(unittest.TestCase):
    def test_settings_come_as_a_dict_or_keywords_and_read_back(self):
        w = pabd.World({"dt": 0.01, "iterations": 12}, iterations=7, gravity=[0, 0, -9.81],
                       iteration_order="jacobi", threads=1, block_order_min_bodies=100)
        s = w.settings
        self.assertEqual(s["dt"], 0.01)
        self.assertEqual(s["iterations"], 7)  # keywords win over the dict
        self.assertEqual(s["block_order_min_bodies"], 100)
        self.assertEqual(pabd.World().settings["block_order_min_bodies"], 4096)
        with self.assertRaisesRegex(ValueError, "block_order_min_bodies"):
            pabd.World(block_order_min_bodies=0)
        self.assertTrue(np.array_equal(s["gravity"], [0, 0, -9.81]))
        self.assertEqual(s["iteration_order"], "jacobi")
        self.assertEqual(s["threads"], 1)
        self.assertEqual(w.body_count, 0)
        self.assertEqual(w.dt, 0.01)
        # Every key read back is one the constructor takes, with the same value.
        again = pabd.World(s).settings
        for key, value in s.items():
            self.assertTrue(np.array_equal(again[key], value), key)

    def test_a_box_dropped_on_a_plane_rests_at_half_its_size_above_it(self):
        w = ground_world()
        box = w.add_body(shape=pabd.box([0.4, 0.6, 0.8]), name="box", position=[0, 2, 0], mass=2)
        self.assertEqual(box, 1)  # add_body returns the index, the row of the arrays
        self.assertEqual(w.body_names, ["ground", "box"])
        w.step(180)  # the fall takes 0.6 s of the 3
        self.assertAlmostEqual(w.positions[box, 1], 0.3, delta=resting_tolerance(w))
        self.assertLess(np.abs(w.velocities[box]).max(), 1e-3)
        self.assertTrue(np.array_equal(w.positions[0], [0, 0, 0]))  # static

    def test_every_shape_factory_makes_a_body_that_lands_where_its_geometry_says(self):
        w = pabd.World()
        # A triangle-mesh floor (counter-clockwise seen from +y: its front is up) and a
        # flat height field 5 m below it, carrying a sphere.
        w.add_body(shape=pabd.triangle_mesh([[-5, 0, -5], [5, 0, -5], [5, 0, 5], [-5, 0, 5]],
                                            [[0, 2, 1], [0, 3, 2]]), name="floor", static=True)
        w.add_body(shape=pabd.height_field(np.zeros((3, 4)), spacing=(4, 2)), name="field",
                   position=[20, -5, 0], static=True)
        corners = [[x, y, z] for x in (0, 1) for y in (0, 1) for z in (0, 1)]
        hull = pabd.convex_hull(corners)
        self.assertEqual(hull.kind, "convex_hull")
        self.assertTrue(np.allclose(hull.origin_shift, [-0.5, -0.5, -0.5], rtol=0, atol=1e-12))
        w.add_body(shape=hull, name="hull", position=[0, 1, 0], mass=1)
        # A 1 x 0.2 x 1 slab with a ball of radius 0.2 centred 0.3 above it: the
        # centre of mass (the body origin) is above the slab's centre by
        # 0.3 V_ball / (V_slab + V_ball).
        ball = 4 / 3 * math.pi * 0.2 ** 3
        lift = 0.3 * ball / (0.2 + ball)
        w.add_body(shape=pabd.compound([(pabd.box([1, 0.2, 1]), [0, 0, 0]),
                                        (pabd.sphere(0.2), [0, 0.3, 0], [1, 0, 0, 0])]),
                   name="compound", position=[2.5, 1, 0], mass=1)
        # A capsule as a dict (as scene files write shapes), lying along x.
        quarter = [math.cos(math.pi / 4), 0, 0, math.sin(math.pi / 4)]
        w.add_body(shape={"type": "capsule", "radius": 0.2, "half_height": 0.3}, name="capsule",
                   position=[-2.5, 1, 0], orientation=quarter, mass=1)
        w.add_body(shape=pabd.sphere(0.5), name="ball", position=[20, -3, 0], density=500)
        w.step(180)
        tol = resting_tolerance(w)
        p = w.positions
        self.assertAlmostEqual(p[2, 1], 0.5, delta=tol)  # the unit cube's centre
        self.assertAlmostEqual(p[3, 1], 0.1 + lift, delta=tol)
        self.assertAlmostEqual(p[4, 1], 0.2, delta=tol)  # lying: its radius
        self.assertAlmostEqual(p[5, 1], -5 + 0.5, delta=tol)
        self.assertAlmostEqual(w.masses[5], 500 * 4 / 3 * math.pi * 0.5 ** 3, delta=1e-9)


class Removing(unittest.TestCase):
    def test_a_removed_body_leaves_its_slot_and_what_rested_on_it_falls(self):
        w = ground_world()
        w.add_body(shape=pabd.box([1, 1, 1]), name="bottom", position=[0, 0.5, 0])
        top = w.add_body(shape=pabd.box([1, 1, 1]), name="top", position=[0, 1.5, 0])
        w.step(30)
        w.remove_body("bottom")
        self.assertEqual(list(w.alive), [True, False, True])
        self.assertEqual(w.body_names[1], "")
        self.assertTrue(np.all(np.isnan(w.positions[1])))  # no one takes it for a body at 0
        self.assertEqual(w.masses[1], 0)
        w.step(90)
        # The top box falls 1 m onto the ground: half its size above it, within
        # the 1 cm contact margin.
        self.assertAlmostEqual(w.positions[top][1], 0.5, delta=0.02)
        with self.assertRaises(ValueError):
            w.remove_body("bottom")  # its name is gone with it


class Joints(unittest.TestCase):
    def test_a_hinge_pendulum_swings_with_the_small_angle_period(self):
        # A 2 kg rod of 1 x 0.05 x 0.05 m on a hinge at its top end, 0.05 rad from
        # vertical. I about the pivot = m (L^2 + t^2) / 12 + m d^2 with d = L / 2.
        m, length, t, th0 = 2.0, 1.0, 0.05, 0.05
        d = length / 2
        inertia = m * (length ** 2 + t ** 2) / 12 + m * d * d
        period = 2 * math.pi * math.sqrt(inertia / (m * 9.81 * d))
        w = pabd.World(dt=1 / 60)
        w.add_body(shape=pabd.box([t, length, t]), name="rod", mass=m,
                   position=[d * math.sin(th0), 2 - d * math.cos(th0), 0],
                   orientation=[math.cos(th0 / 2), 0, 0, math.sin(th0 / 2)])
        pivot = w.add_joint("hinge", "world", "rod", anchor=[0, 2, 0], axis=[0, 0, 1],
                            name="pivot")
        self.assertEqual(pivot, 0)
        h = w.dt
        angles = [th0]
        for _ in range(int(3.2 * period / h)):
            w.step()
            angles.append(th0 + w.joint_coordinates[pivot])  # the coordinate is 0 at creation
        crossings = [h * (k + a / (a - b))
                     for k, (a, b) in enumerate(zip(angles, angles[1:])) if (a > 0) != (b > 0)]
        self.assertGreaterEqual(len(crossings), 6)
        measured = (crossings[-1] - crossings[0]) / ((len(crossings) - 1) / 2)
        # The implicit step lengthens the period by about (omega h)^2 / 3 = 0.14%,
        # the amplitude by th0^2 / 16 = 0.02%: 2% is far outside both.
        self.assertAlmostEqual(measured / period, 1, delta=0.02)

    def test_an_effort_spins_a_body_up_at_tau_over_i(self):
        # A 2 kg unit cube on a hinge through its centre, no gravity: I = m / 6.
        # Each implicit step sets w_k = w_(k-1) + alpha h, q_k = q_(k-1) + h w_k, so
        # after n steps the angle is alpha h^2 n (n + 1) / 2 and the speed alpha h n.
        w = pabd.World(gravity=[0, 0, 0])
        w.add_body(shape=pabd.box([1, 1, 1]), name="wheel", mass=2)
        w.add_joint("hinge", "world", "wheel", axis=[0, 0, 1], name="axle")
        tau, inertia, n = 0.5, 2 / 6, 60
        w.set_joint_effort("axle", tau)
        self.assertTrue(np.array_equal(w.joint_efforts, [tau]))
        w.step(n)
        alpha, h = tau / inertia, w.dt
        # The body turns about a principal axis through its fixed centre, the
        # hinge's bonds carry no load: the closed form but for round-off.
        self.assertAlmostEqual(w.joint_coordinates[0], alpha * h * h * n * (n + 1) / 2,
                               delta=1e-9)
        self.assertAlmostEqual(w.angular_velocities[0, 2], alpha * h * n, delta=1e-9)
        self.assertEqual(w.joint_efforts[0], tau)  # persistent until changed
        w.set_joint_effort(0, 0.0)
        w.step(10)
        self.assertAlmostEqual(w.angular_velocities[0, 2], alpha * h * n, delta=1e-9)

    def test_limits_hold_an_effort_and_a_motor_keeps_its_speed_within_max_force(self):
        w = pabd.World(gravity=[0, 0, 0])
        w.add_body(shape=pabd.box([1, 1, 1]), name="flap", mass=2)
        w.add_body(shape=pabd.box([1, 1, 1]), name="wheel", position=[5, 0, 0], mass=2)
        flap = w.add_joint("hinge", "world", "flap", axis=[0, 0, 1], limits=(-0.1, 0.1))
        wheel = w.add_joint("hinge", "world", 1, anchor=[5, 0, 0], axis=[0, 0, 1],
                            drive={"mode": "velocity", "target": 2.0, "max_force": 100})
        w.set_joint_effort(flap, 0.5)
        w.step(120)
        # At rest on its upper limit, the limit's torque balances the effort; it is
        # the augmented-Lagrangian multiplier after the last iteration (within 0.1%
        # here), the angle is held to the hard bond's residual.
        self.assertAlmostEqual(w.joint_coordinates[flap], 0.1, delta=1e-4)
        self.assertAlmostEqual(w.joint_limit_forces[flap], -0.5, delta=0.005)
        self.assertEqual(w.joint_drive_forces[flap], 0)
        # The motor is a hard constraint on the speed; unloaded it needs no torque.
        self.assertAlmostEqual(w.angular_velocities[1, 2], 2.0, delta=1e-6)
        self.assertAlmostEqual(w.joint_drive_forces[wheel], 0, delta=1e-6)
        self.assertEqual(w.joint_limit_forces[wheel], 0)
        # A motor weaker than the load: the net torque -1 + 0.5 N m decelerates
        # it at 0.5 / I = 1.5 rad/s^2, the drive pushing with all its max_force.
        w.set_joint_drive(wheel, "velocity", target=2.0, max_force=0.5)
        w.set_joint_effort(wheel, -1.0)
        w.step(60)
        self.assertAlmostEqual(w.angular_velocities[1, 2], 2.0 - 1.5 * 60 * w.dt, delta=1e-4)
        self.assertAlmostEqual(w.joint_drive_forces[wheel], 0.5, delta=1e-6)
        w.set_joint_drive(wheel, "off")
        w.set_joint_effort(wheel, 0.0)
        speed = w.angular_velocities[1, 2]
        w.step(10)
        self.assertAlmostEqual(w.angular_velocities[1, 2], speed, delta=1e-9)  # coasting

    def test_joints_are_found_by_name_and_listed_in_index_order(self):
        w = pabd.World(gravity=[0, 0, 0])
        for i in range(3):
            w.add_body(shape=pabd.sphere(0.2), name=f"s{i}", position=[i, 0, 0])
        self.assertEqual(w.add_joint("spring", "s0", "s1", anchor_a=[0, 0, 0],
                                     anchor_b=[1, 0, 0], rest_length=1, stiffness=50), 0)
        self.assertEqual(w.add_joint("slider", "s1", "s2", anchor=[1, 0, 0], name="rail"), 1)
        self.assertEqual(w.add_joint("distance", "world", "s2", anchor_a=[2, 1, 0],
                                     anchor_b=[2, 0, 0]), 2)
        self.assertEqual(w.joint_count, 3)
        self.assertEqual(w.joint_names, ["", "rail", ""])
        self.assertEqual(w.joint_kinds, ["spring", "slider", "distance"])
        self.assertEqual(w.find_joint("rail"), 1)
        w.set_joint_effort("rail", 2.0)  # a force [N] along the slider's +x
        self.assertTrue(np.array_equal(w.joint_efforts, [0, 2, 0]))
        with self.assertRaisesRegex(ValueError, "'rail' is already used"):
            w.add_joint("fixed", "s0", "s2", name="rail")
        self.assertEqual(w.joint_count, 3)  # nothing was added
        with self.assertRaisesRegex(ValueError, "expected a hinge or slider joint"):
            w.set_joint_effort(0, 1.0)

    def test_an_mjcf_model_names_its_joints_as_the_file_does(self):
        w = pabd.load_scene(os.path.join(SOURCE, "tests", "data", "robots", "pendulum.xml"))
        self.assertIn("pivot", w.joint_names)
        self.assertEqual(w.joint_kinds[w.find_joint("pivot")], "hinge")


class Fields(unittest.TestCase):
    def test_the_sand_keeps_its_volume_and_shows_the_dogs_footprints(self):
        w = pabd.load_scene(os.path.join(SCENES, "robot_dog_sand.json"))
        volume = w.sand_volume()
        (sand,) = w.surfaces()
        self.assertEqual(sand["kind"], "sand")
        self.assertEqual(sand["heights"].shape, (256, 256))
        self.assertTrue(np.all(sand["heights"] == 0.0))  # flat at y = 0 to start
        w.step(120)
        heights = w.surfaces()[0]["heights"]
        self.assertLess(heights.min(), -0.005)  # footprints
        self.assertGreater(heights.max(), 0.0)  # the sand pushed aside
        # Moves between vertices: the volume to rounding.
        self.assertAlmostEqual(w.sand_volume(), volume, delta=1e-9 * volume)

    def test_the_sails_are_cloths_of_particle_bodies_and_the_water_has_waves(self):
        w = pabd.load_scene(os.path.join(SCENES, "sailboat.json"))
        cloths = w.cloths()
        self.assertEqual([c["name"] for c in cloths], ["main", "jib"])
        for c in cloths:
            self.assertEqual(c["particles"].shape, (60,))
            self.assertEqual(c["triangles"].shape, (90, 3))
            self.assertTrue(np.all(c["triangles"] < 60))
        self.assertEqual(w.body_names[int(cloths[0]["particles"][7])], "main_7")
        (water,) = w.surfaces()
        self.assertEqual(water["kind"], "water")
        # The surface at a grid vertex is the height water_height gives there.
        x = water["x0"] + 10 * water["spacing"]
        z = water["z0"] + 20 * water["spacing"]
        self.assertAlmostEqual(water["heights"][20, 10], w.water_height(x, z), delta=1e-12)


class Contacts(unittest.TestCase):
    def test_contact_arrays_are_consistent_and_carry_the_stack(self):
        w = ground_world()
        m, boxes = 1.5, 3
        for i in range(boxes):
            w.add_body(shape=pabd.box([1, 1, 1]), name=f"box{i}", position=[0, 0.5 + i, 0],
                       mass=m)
        self.assertEqual(w.contacts()["point_a"].shape, (0, 3))  # no step yet
        w.step(120)
        c = w.contacts()
        n = w.contact_count
        self.assertGreater(n, 0)
        for key in ("body_a", "body_b", "separation", "gap", "normal_force", "sticking"):
            self.assertEqual(c[key].shape, (n,), key)
        for key in ("point_a", "point_b", "normal", "friction_force"):
            self.assertEqual(c[key].shape, (n, 3), key)
        self.assertEqual(c["body_a"].dtype, np.int64)
        self.assertEqual(c["sticking"].dtype, np.bool_)
        self.assertTrue(np.allclose(np.linalg.norm(c["normal"], axis=1), 1, rtol=0, atol=1e-12))
        # world.h: the normal points from body_a toward body_b, and the gap is
        # measured along it. The plane is body_a of a body-plane contact.
        p = w.positions
        self.assertTrue(np.all(np.einsum("ij,ij->i", c["normal"], p[c["body_b"]] - p[c["body_a"]])
                               > 0))
        self.assertTrue(np.allclose(np.einsum("ij,ij->i", c["normal"],
                                              c["point_b"] - c["point_a"]), c["gap"],
                                    rtol=0, atol=1e-12))
        self.assertNotIn(0, c["body_b"])
        # At rest each box's contacts below it carry the boxes above and itself. A
        # resting box's velocity changes by < 1e-6 m/s a step, so the forces on it
        # balance its weight to m 1e-6 / h < 1e-4 N; 1e-3 m g is well outside that.
        self.assertLess(np.abs(w.velocities[1:]).max(), 1e-3)
        g = 9.81
        for level in range(boxes):
            below = c["body_b"] == level + 1
            self.assertAlmostEqual(c["normal_force"][below].sum(), (boxes - level) * m * g,
                                   delta=1e-3 * m * g)
        self.assertTrue(np.all(np.abs(c["friction_force"]) < 1e-6))  # nothing pushes sideways


class BuildingErrors(unittest.TestCase):
    def assert_one_line(self, call, pattern):
        with self.assertRaisesRegex(ValueError, pattern) as caught:
            call()
        self.assertNotIn("\n", str(caught.exception))

    def test_bad_building_input_raises_value_error_with_one_line(self):
        self.assert_one_line(lambda: pabd.World(steps=10), "unknown setting 'steps'")
        self.assert_one_line(lambda: pabd.World({"dt": "fast"}), "World: dt: expected a number")
        self.assert_one_line(lambda: pabd.World(iteration_order="gauss"),
                             "iteration_order: expected \"colored\" or \"jacobi\"")
        self.assert_one_line(lambda: pabd.World(dt=-1), "dt: expected a finite number > 0")
        self.assert_one_line(lambda: pabd.World(device="gpu"), "device: expected \"cpu\" or \"cuda\"")
        try:  # CUDA: a World where this build and machine have it, else one line saying why
            self.assertEqual(pabd.World(device="cuda").settings["device"], "cuda")
        except ValueError as e:
            self.assertRegex(str(e), "device cuda: ")
            self.assertNotIn("\n", str(e))
        w = ground_world()
        w.add_body(shape=pabd.sphere(0.5), name="ball", position=[0, 1, 0])
        self.assert_one_line(lambda: w.add_body(shape={"type": "cone", "radius": 1}),
                             "type: expected box, .* got 'cone'")
        self.assert_one_line(lambda: w.add_body(shape={"type": "box", "radius": 1}),
                             "unknown key 'radius' for a box shape")
        self.assert_one_line(lambda: w.add_body(shape="box"), "expected a pabd.Shape")
        self.assert_one_line(lambda: pabd.box([1, 1]), "box: size: expected 3 numbers")
        self.assert_one_line(lambda: w.add_body(shape=pabd.sphere(1), name="ball"),
                             "expected a unique name")
        self.assert_one_line(lambda: w.add_body(shape=pabd.sphere(1), mass=1, density=1),
                             "mass or density, not both")
        self.assert_one_line(lambda: w.add_joint("rope", "world", "ball"),
                             "kind: expected \"spring\", .* got 'rope'")
        self.assert_one_line(lambda: w.add_joint("hinge", "world", "nobody"),
                             "body_b: expected a body's name or index, or \"world\"")
        self.assert_one_line(lambda: w.add_joint("spherical", "world", "ball", axis=[0, 0, 1]),
                             "unknown field 'axis'")
        self.assert_one_line(lambda: w.add_joint("hinge", "world", "ball",
                                                 drive={"mode": "turbo"}), "mode: expected")
        self.assert_one_line(lambda: w.add_joint("hinge", "world", "ball", limits=[1]),
                             "limits: expected \\(lower, upper\\)")
        self.assert_one_line(lambda: w.find_joint("elbow"), "no joint named 'elbow'")
        self.assert_one_line(lambda: w.set_joint_effort(3, 1.0), "joint index 3 out of range")
        self.assertEqual(w.joint_count, 0)
        self.assertEqual(w.body_count, 2)


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
