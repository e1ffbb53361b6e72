#!/usr/bin/python3
"""scripts/benchmark_report.py against fixture data with known numbers.

The fixtures below are written by this test, with round figures chosen so that
every value the report computes (ratios, costs per body-iteration, the
pile_50 / pile_20 flatness ratio, slopes, speed-ups) is known by hand; the
expected strings are those hand-computed values at three significant digits,
so the comparisons are exact string matches (no tolerance: the inputs are
chosen away from rounding ties). Run by CTest with Debian's /usr/bin/python3,
which has python3-matplotlib (a declared dependency: the plot is required).
"""

import csv
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
GENERATOR = os.path.join(HERE, "..", "scripts", "benchmark_report.py")


def peer(engine, threads, scene, bodies, ms, iterations, steps=60, stood=None, pen=0.01,
         gap=None, nonfinite=None, version="1", points=None):
    row = {"engine": engine, "version": version, "scene": f"scenes/{scene}.json",
            "bodies": bodies, "joints": 0, "steps": steps, "dt": 0.0125,
            "iterations": iterations, "threads": threads,
            "ms_per_step": {"median": ms, "min": ms, "max": ms}, "setup_s": 0.1,
            "max_contact_penetration": pen, "max_ground_penetration": pen / 2,
            "max_joint_gap": gap, "max_displacement": None if nonfinite else 0.02,
            "stood": stood, "nonfinite_step": nonfinite, "settings": {}}
    if points is not None:  # older data have no contact counts
        row["contact_points"] = {"median": points, "max": points}
    return row


MJDATA = "peer_mujoco: mj_loadXML: Error: could not create mjData"


def peer_rows():
    rows = []
    # ball_into_stack, 3 repetitions: medians pabd 1T 32, pabd 2T 20, Bullet 8, ODE 10 ms.
    for rep, (p1, p2, b, o) in enumerate([(30, 21, 8, 9.5), (32, 19, 7.5, 10), (34, 20, 9, 11)]):
        rows += [peer("pabd", 1, "ball_into_stack", 1001, p1, 20),
                 peer("pabd", 2, "ball_into_stack", 1001, p2, 20),
                 peer("bullet", 1, "ball_into_stack", 1001, b, 10),
                 peer("ode", 1, "ball_into_stack", 1001, o, 20)]
        if rep == 0:  # compare_peers.sh does not rerun a failed engine
            rows.append({"engine": "mujoco", "threads": 1, "scene": "scenes/ball_into_stack.json",
                         "error": "scenes/ball_into_stack.json: " + MJDATA})
    rows += [peer("pabd", 1, "mass_ratio_stack", 6, 0.3, 30, stood=True, pen=0.0008),
             peer("pabd", 2, "mass_ratio_stack", 6, 0.3, 30, stood=True, pen=0.0008),
             peer("bullet", 1, "mass_ratio_stack", 6, 0.02, 10, stood=False, pen=2.5),
             peer("ode", 1, "mass_ratio_stack", 6, 0.03, 20, stood=False, pen=1.75),
             peer("mujoco", 1, "mass_ratio_stack", 6, 0.08, 100, stood=False, pen=0.75,
                  version="2.2.2"),
             peer("pabd", 1, "heavy_chain", 19, 0.15, 10, gap=0.0025),
             peer("pabd", 2, "heavy_chain", 19, 0.1, 10, gap=0.0025),
             peer("bullet", 1, "heavy_chain", 19, 0.035, 10, gap=45.0),
             peer("ode", 1, "heavy_chain", 19, 0.045, 20, gap=50.5, nonfinite=17),
             peer("mujoco", 1, "heavy_chain", 19, 0.12, 100, gap=51.0, version="2.2.2")]
    # Piles: pabd 1T 1000 -> 16000 ms from 8001 to 125001 bodies: slope ln 16 / ln(125001/8001).
    # Contact points: pabd 24 per box, Bullet 0.6, ODE 0.4 (pile_20's first 5 steps, measured).
    rows += [peer("pabd", 1, "pile_20", 8001, 1000, 20, steps=5, points=192024),
             peer("pabd", 2, "pile_20", 8001, 600, 20, steps=5, points=192024),
             peer("bullet", 1, "pile_20", 8001, 80, 10, steps=5, points=4800.6),
             peer("ode", 1, "pile_20", 8001, 40, 20, steps=5, points=3200.4),
             {"engine": "mujoco", "threads": 1, "scene": "scenes/pile_20.json",
              "error": "scenes/pile_20.json: " + MJDATA},
             peer("pabd", 1, "pile_50", 125001, 16000, 20, steps=2),
             peer("pabd", 2, "pile_50", 125001, 11000, 20, steps=2),
             peer("bullet", 1, "pile_50", 125001, 2000, 10, steps=2),
             peer("ode", 1, "pile_50", 125001, 900, 20, steps=2),
             {"engine": "mujoco", "threads": 1, "scene": "scenes/pile_50.json",
              "error": "skipped: MuJoCo's XML compiler is too slow here"},
             # The impact: pabd 2T 4000 ms against Bullet 500 ms = 8.00, 24x the target 1/3.
             peer("pabd", 1, "pile_50_heavy", 125001, 7000, 20, steps=5),
             peer("pabd", 2, "pile_50_heavy", 125001, 4000, 20, steps=5),
             peer("bullet", 1, "pile_50_heavy", 125001, 500, 10, steps=5)]
    return rows


CSV_HEADER = ["scene", "bodies", "joints", "iterations", "threads", "steps", "collision_ms",
              "solve_ms", "total_ms", "contacts", "outcome", "commit", "machine", "compiler"]


def bench_row(scene, bodies, iterations, threads, steps, collision, solve, total, contacts,
              outcome="ok"):
    return [scene, bodies, 0, iterations, threads, steps, collision, solve, total, contacts, outcome,
            "abc1234", "Test CPU, 2 cores", "GNU 12.2.0 Release: -O3"]


def pile(scene, bodies, threads, collision_ns, solve_ns, contacts):
    """A pabd bench row whose cost per body-iteration is collision_ns + solve_ns."""
    body_iters = bodies * 20 / 1e6  # ms per ns of cost per body-iteration
    return bench_row(scene, bodies, 20, threads, 3, collision_ns * body_iters,
                     solve_ns * body_iters, (collision_ns + solve_ns) * body_iters, contacts)


def write_fixtures(d):
    with open(os.path.join(d, "meta.json"), "w") as f:
        json.dump({"commit": "abc1234 + uncommitted changes", "date": "2026-01-02 03:04 UTC",
                   "cpu": "Test CPU", "cores": 2, "os": "Debian", "load_start": "0.10 0.20 0.30",
                   "load_end": "1.10 1.20 1.30", "command": "scripts/benchmark_report.sh",
                   "quick": False, "reps": 3, "build_s": 30, "measure_s": 500}, f)
    with open(os.path.join(d, "peers.jsonl"), "w") as f:
        for r in peer_rows():
            f.write(json.dumps(r) + "\n")
    # Stage medians (a subset of pabd bench's columns), for ball_into_stack only:
    # 1T detect 6, bonds 15.5, solve 7.75 of 31 ms (19%, 50%, 25%); 2T 4, 10, 5 of 20.
    with open(os.path.join(d, "table2.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(CSV_HEADER + ["stage_detect_ms", "stage_bonds_ms", "stage_solve_ms",
                                 "stage_total_ms"])
        w.writerow(bench_row("ball_into_stack", 1001, 20, 1, 300, 6, 25, 31, 8000)
                   + [6, 15.5, 7.75, 31])
        w.writerow(bench_row("ball_into_stack", 1001, 20, 2, 300, 4, 16, 20, 8000)
                   + [4, 10, 5, 20])
        w.writerow(bench_row("box_stack_10", 10, 20, 1, 600, 0.05, 0.15, 0.2, 40) + [""] * 4)
        w.writerow(bench_row("box_stack_10", 10, 20, 2, 600, 0.05, 0.2, 0.25, 40) + [""] * 4)
        w.writerow(bench_row("wobbly", 3, 20, 1, 4, 0.01, 0.05, 0.06, 2, "non-finite at step 5")
                   + [""] * 4)
        w.writerow(bench_row("wobbly", 3, 20, 2, 4, 0.01, 0.05, 0.06, 2, "non-finite at step 5")
                   + [""] * 4)
    # Costs per body-iteration (ns): 1T 6000, 6300, 6900 (pile_50 / pile_20 = 1.15);
    # 2T 4000, 4400, 5200 (1.30: not flat within 20%).
    # Newer CSVs add per-stage medians: detect (= collision) and a part of it, broadphase
    # at a quarter of the collision stage.
    with open(os.path.join(d, "piles.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(CSV_HEADER + ["stage_detect_ms", "stage_broadphase_ms", "stage_total_ms"])
        for row in (pile("pile_20", 8001, 1, 1000, 5000, 264033),
                    pile("pile_20", 8001, 2, 600, 3400, 264033),
                    pile("pile_30", 27001, 1, 1100, 5200, 891033),
                    pile("pile_30", 27001, 2, 700, 3700, 891033),
                    pile("pile_50", 125001, 1, 1200, 5700, 4125033),
                    pile("pile_50", 125001, 2, 1000, 4200, 4125033)):
            w.writerow(row + [row[6], row[6] / 4, row[8]])
    grid = {"benchmarks": []}
    for threads, ms in ((1, 40.0), (2, 25.0)):
        for name, value in (("mean", ms + 1), ("median", ms), ("stddev", 0.5)):
            grid["benchmarks"].append({
                "name": f"BM_SpringGridStep/{threads}/real_time_{name}",
                "run_name": f"BM_SpringGridStep/{threads}/real_time", "run_type": "aggregate",
                "aggregate_name": name, "repetitions": 5, "real_time": value, "time_unit": "ms",
                "bodies": 10000.0, "bonds": 19802.0, "ns_per_body_iter": 140.0 / threads,
                "ns_per_bond_iter": 24.0 / threads})
    with open(os.path.join(d, "spring_grid.json"), "w") as f:
        json.dump(grid, f)


def generate(data, out):
    return subprocess.run([sys.executable, GENERATOR, "--data", data, "--out", out,
                           "--scenes", data], capture_output=True, text=True)


class BenchmarkReportTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.TemporaryDirectory()
        cls.data = os.path.join(cls.tmp.name, "data")
        os.makedirs(cls.data)
        write_fixtures(cls.data)
        cls.out = os.path.join(cls.tmp.name, "out")
        run = generate(cls.data, cls.out)
        assert run.returncode == 0, run.stderr
        with open(os.path.join(cls.out, "benchmarks.md")) as f:
            cls.md = f.read()
        print(cls.md)  # the report, for the test log

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()

    def assertIn(self, member, container, msg=None):  # short failure messages
        if member not in container:
            self.fail(msg or f"not in the report: {member!r}")

    def test_first_line_says_generated(self):
        first = self.md.splitlines()[0]
        self.assertIn("scripts/benchmark_report.sh", first)
        self.assertIn("do not edit by hand", first)

    def test_run_description(self):
        self.assertIn("commit `abc1234 + uncommitted changes`", self.md)
        self.assertIn("| machine | Test CPU, 2 cores, Debian |", self.md)
        self.assertIn("0.10 0.20 0.30 at the start, 1.10 1.20 1.30 at the end", self.md)
        self.assertIn("| compiler | GNU 12.2.0 Release: -O3 |", self.md)
        self.assertIn("| wall time | 8 min 50 s (30 s of it", self.md)  # 30 + 500 s
        self.assertIn("The machine was quiet at the start (1-minute load average 0.10", self.md)

    def test_headline_ratio(self):
        # Medians over 3 repetitions: pabd 2T 20, pabd 1T 32, Bullet 8, ODE 10 ms.
        self.assertIn("on 2 threads takes 20.0 ms per step", self.md)
        self.assertIn("**pabd 2T / Bullet = 2.50** (pabd 1T: 4.00)", self.md)
        self.assertIn("**not met** (5.00x over it)", self.md)  # 2.5 / 0.5
        self.assertIn("**pabd 2T / ODE = 2.00** (pabd 1T: 3.20)", self.md)

    def test_impact_ratio(self):
        self.assertIn("- **pile_50_heavy** (125,001 moving bodies, the ball hitting from the first "
                      "step: its impact steps): pabd 2T 4000 ms per step, Bullet 500 ms: **pabd 2T / "
                      "Bullet = 8.00**, against the issue's target of at most 0.33: **not met** "
                      "(24.0x over it).", self.md)

    def test_peer_table_ratios_and_outcomes(self):
        # engine / pabd 2T and / pabd 1T: 8 / 20, 8 / 32; 3 runs.
        # No contact counts in these rows: "–" in that column.
        self.assertIn("| Bullet | 10 | 3 | 8.00 | 0.400 | 0.250 | – | – | 0.0100 | 0.00500 |", self.md)
        self.assertIn("| ODE | 20 | 3 | 10.0 | 0.500 | 0.312 |", self.md)  # 10 / 32 = 0.3125 -> 0.312
        self.assertIn("| pabd 1T | 30 | 1 | 0.300 | 1.00 | 1.00 | yes | – | 0.000800 |", self.md)
        self.assertIn("| Bullet | 10 | 1 | 0.0200 | 0.0667 | 0.0667 | **no** | – | 2.50 |", self.md)
        self.assertIn("| ODE | 20 | 1 | 0.0450 | 0.450 | 0.300 | – | – | 0.0100 | 0.00500 | 50.5 | – | step 17 |",
                      self.md)
        # Contact points per moving body: 192024 / 8001 = 24.0, 4800.6 / 8001 = 0.600.
        self.assertIn("| Bullet | 10 | 1 | 80.0 | 0.133 | 0.0800 | – | 0.600 | 0.0100 |", self.md)
        self.assertIn("- **Contacts per box, pile_20** (median over the steps; the deepest "
                      "penetrations): pabd 1T 24.0 (deepest contact 0.0100 m, ground 0.00500 m); "
                      "pabd 2T 24.0", self.md)
        self.assertIn("Bullet 0.600 (deepest contact 0.0100 m", self.md)
        self.assertIn("pabd 1T stood (deepest penetration 0.000800 m)", self.md)
        self.assertIn("Bullet fell (deepest penetration 2.50 m)", self.md)
        self.assertIn("Bullet max joint gap 45.0 m", self.md)
        self.assertIn("ODE max joint gap 50.5 m, non-finite at step 17", self.md)
        self.assertIn("Non-finite states in the peer runs: ODE on heavy_chain at step 17.", self.md)

    def test_mujoco_cannot_allocate_is_reported(self):
        self.assertIn("| MuJoCo | | | not run: could not allocate (`" + MJDATA + "`) |", self.md)
        self.assertIn("**MuJoCo 2.2.2** as packaged (Debian's `libmujoco-dev`) **cannot allocate** "
                      "ball_into_stack (1,001 bodies), pile_20 (8,001 bodies)", self.md)
        self.assertIn("**MuJoCo 2.2.2** was not run on pile_50: skipped: MuJoCo's XML compiler "
                      "is too slow here.", self.md)

    def test_cost_per_body_iteration(self):
        # ns = ms x 1e6 / (bodies x 20); contacts per body 264033 / 8001 = 33.0.
        self.assertIn("| pile_20 | 8001 | 20 | 1 | 3 | 33.0 | 1000 | 5000 | 6000 | 1.00 |", self.md)
        self.assertIn("| pile_30 | 27001 | 20 | 1 | 3 | 33.0 | 1100 | 5200 | 6300 | 1.05 |", self.md)
        self.assertIn("| pile_50 | 125001 | 20 | 1 | 3 | 33.0 | 1200 | 5700 | 6900 | 1.15 |", self.md)
        self.assertIn("| pile_50 | 125001 | 20 | 2 | 3 | 33.0 | 1000 | 4200 | 5200 | 1.30 |", self.md)
        # Flatness, the 20%: 6900 / 6000 = 1.15 is, 5200 / 4000 = 1.30 is not.
        self.assertIn("at 1T: pile_20 6000 ns, pile_30 6300 ns, pile_50 6900 ns; "
                      "pile_50 / pile_20 = **1.15**: flat within 20%; over the 3 piles, "
                      "max / min = 1.15: within 20%.", self.md)
        self.assertIn("pile_50 / pile_20 = **1.30**: **not** flat within 20% (30.0%); over the 3 "
                      "piles, max / min = 1.30: **not** within 20%.", self.md)
        # The split: collision 1000 -> 1200 ns (1.20x), solve 5000 -> 5700 ns (1.14x).
        self.assertIn("At 1T from pile_20 to pile_50: collision 1000 to 1200 ns (1.20x), "
                      "solve 5000 to 5700 ns (1.14x).", self.md)

    def test_headline_stages(self):
        # Only the stages the CSV has, as ms and share of the step's median.
        self.assertIn("| detect | collision detection, all of it (the parts below, and the rest) "
                      "| 6.00 | 19% | 4.00 | 20% |", self.md)  # 6 / 31 = 19.4%
        self.assertIn("| 15.5 | 50% | 10.0 | 50% |", self.md)  # bonds
        self.assertIn("| 7.75 | 25% | 5.00 | 25% |", self.md)  # solve
        self.assertNotIn("narrowphase | every candidate", self.md)  # not in this CSV
        # Bullet's median 8 ms: the target is 4 ms, and pabd 2T's 20 ms is 5x that.
        self.assertIn("half of Bullet's 8.00 ms per step in the peer run, is 4.00 ms; pabd at 2 "
                      "threads took 20.0 ms there, so its step would have to become 5.00 times "
                      "faster.", self.md)

    def test_stage_breakdown(self):
        self.assertIn("| scene | threads | detect | broadphase |", self.md)
        self.assertIn("| pile_50 | 1 | 1200 | 300 |", self.md)

    def test_scaling_slope(self):
        # ln(16000 / 1000) / ln(125001 / 8001) = 2.7726 / 2.7488 = 1.0086.
        self.assertIn("- pabd 1T: 1000 ms (pile_20) to 16000 ms (pile_50), slope 1.01.", self.md)
        # Bullet: ln(25) / ln(15.623) = 1.174.
        self.assertIn("- Bullet: 80.0 ms (pile_20) to 2000 ms (pile_50), slope 1.17.", self.md)

    def test_table2_and_threads(self):
        self.assertIn("| ball_into_stack | 1001 | 0 | 20 | 2 | 300 | 4.000 | 16.000 | 20.000 | 8000 | "
                      "1.55 | ok |", self.md)  # 31 / 20
        self.assertIn("| box_stack_10 | 10 | 0 | 20 | 2 | 600 | 0.050 | 0.200 | 0.250 | 40 | 0.800 | ok |",
                      self.md)  # 0.2 / 0.25
        # The paper's Table 2 beside a scene that reproduces one of its rows, on its 1T row only.
        self.assertIn("| 3.15 + 2.65 (ball hit b) |", self.md)
        self.assertNotIn("| 1.55 | ok | 3.15", self.md)
        # A non-finite scene: its outcome, and no speed-up in its row or the sentences.
        self.assertIn("| wobbly | 3 | 0 | 20 | 2 | 4 | 0.010 | 0.050 | 0.060 | 2 |  | non-finite at step 5 |",
                      self.md)
        # >= 500 bodies: ball_into_stack 1.55, piles 6000/4000 = 1.50, 6300/4400 = 1.43,
        # 6900/5200 = 1.33 (per body-iteration ratios = ms ratios).
        self.assertIn("the 4 scenes with at least 500 moving bodies from 1.33 (pile_50) to "
                      "1.55 (ball_into_stack), median 1.47.", self.md)  # (1.432 + 1.5) / 2
        self.assertIn("the scene with fewer than 500 moving bodies: 0.800 (box_stack_10).", self.md)

    def test_csv_header_is_the_files_own(self):
        stages = ["stage_detect_ms", "stage_bonds_ms", "stage_solve_ms", "stage_total_ms"]
        self.assertIn("(header `" + ",".join(CSV_HEADER + stages) + "`)", self.md)

    def test_spring_grid(self):
        self.assertIn("| 1 | 40.0 | 140 | 24.0 |", self.md)
        self.assertIn("| 2 | 25.0 | 70.0 | 12.0 |", self.md)
        self.assertIn("Speed-up of two threads over one (1T ms / 2T ms): 1.60.", self.md)
        self.assertIn("Medians of 5 repetitions.", self.md)

    def test_plot_is_an_svg_and_deterministic(self):
        svg = os.path.join(self.out, "benchmarks_scaling.svg")
        with open(svg, "rb") as f:
            first = f.read()
        self.assertTrue(first.startswith(b"<?xml"), "not an SVG")
        for label in (b"pabd 1T", b"pabd 2T", b"Bullet", b"ODE", b"pile_50"):
            self.assertIn(label, first)
        self.assertIn(b"MuJoCo", first)  # named as having no point, not dropped
        again = os.path.join(self.tmp.name, "again")
        run = generate(self.data, again)
        self.assertEqual(run.returncode, 0, run.stderr)
        with open(os.path.join(again, "benchmarks_scaling.svg"), "rb") as f:
            self.assertEqual(f.read(), first, "the same data gave a different SVG")

    def report_with_meta(self, name, **meta):
        """The report of the fixtures with meta.json's fields changed."""
        data = os.path.join(self.tmp.name, name)
        os.makedirs(data)
        write_fixtures(data)
        with open(os.path.join(data, "meta.json")) as f:
            changed = json.load(f)
        changed.update(meta)
        with open(os.path.join(data, "meta.json"), "w") as f:
            json.dump(changed, f)
        run = generate(data, os.path.join(data, "out"))
        self.assertEqual(run.returncode, 0, run.stderr)
        with open(os.path.join(data, "out", "benchmarks.md")) as f:
            return f.read()

    def test_other_processes_cpu_time_decides_quiet(self):
        # 500 s of measuring: 10 CPU-seconds of others is 2.0% of a core,
        # under the 5% that a quiet machine allows, whatever the load average.
        md = self.report_with_meta("quiet_cpu", other_cpu_s=10.0, steal_s=0.0,
                                   load_start="3.00 3.00 3.00")
        self.assertIn("While it measured (500 s), other processes used 10.0 CPU-seconds "
                      "(2.0% of one core on average): the machine was quiet", md)
        self.assertNotIn("Other work was running", md)
        # 100 CPU-seconds (20%) is other work, and steal is named.
        md = self.report_with_meta("busy_cpu", other_cpu_s=100.0, steal_s=30.0)
        self.assertIn("**Other work was running.** While it measured (500 s), other processes "
                      "used 100.0 CPU-seconds (20.0% of one core on average), and the hypervisor "
                      "gave 30.0 s of these cores to other machines (steal)", md)
        # Steal alone (30 of 500 s: 6%) is enough.
        md = self.report_with_meta("stolen", other_cpu_s=1.0, steal_s=30.0)
        self.assertIn("**Other work was running.**", md)

    def test_missing_data_is_one_line_and_status_1(self):
        empty = os.path.join(self.tmp.name, "empty")
        os.makedirs(empty)
        run = generate(empty, os.path.join(self.tmp.name, "none"))
        self.assertEqual(run.returncode, 1)
        self.assertEqual(len(run.stderr.strip().splitlines()), 1, run.stderr)
        self.assertIn("meta.json", run.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
