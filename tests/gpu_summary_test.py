#!/usr/bin/python3
"""scripts/gpu_summary.py against fixture data with known numbers: the CSVs and
test log that scripts/gpu_check.sh leaves, written here with round figures so
that every value the summary computes (CPU / GPU ratios, steps per second) is
known by hand; the comparisons are exact string matches. Run by CTest with
Debian's /usr/bin/python3 (python3-matplotlib: the scaling plot is checked too).
"""

import csv
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SUMMARY = os.path.join(HERE, "..", "scripts", "gpu_summary.py")

HEADER = ["scene", "bodies", "joints", "iterations", "threads", "steps", "collision_ms",
          "solve_ms", "total_ms", "contacts", "outcome", "commit", "machine", "compiler",
          "device", "device_peak_mb", "transfer_ms", "uploaded_mb", "downloaded_mb", "copies"]


def write_csv(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(HEADER)
        for r in rows:
            w.writerow(r)


def row(scene, bodies, total, device, peak="0", transfer="0", collision=1.0, solve=1.0,
        uploaded="", downloaded="", copies=""):
    return [scene, bodies, 0, 20, 16, 5, collision, solve, total, 100, "ok", "abc1234", "m", "c",
            device, peak, transfer, uploaded, downloaded, copies]


class GpuSummary(unittest.TestCase):
    def test_summary_of_known_runs(self):
        with tempfile.TemporaryDirectory() as d:
            # ball_into_stack: CPU 8 ms, GPU 2 ms (ratio 4.00); pile_50_heavy: CPU 2000 ms,
            # GPU 50 ms (20.0 steps/s, ratio 40.00), 3000 MB on the card.
            write_csv(os.path.join(d, "table2_cpu.csv"), [row("ball_into_stack", 1001, 8.0, "CPU")])
            write_csv(os.path.join(d, "table2_cuda.csv"),
                      [row("ball_into_stack", 1001, 2.0, "Test Card", "100", "0.5",
                           uploaded="0.54", downloaded="0.37", copies="41")])
            write_csv(os.path.join(d, "piles_cpu.csv"), [row("pile_50_heavy", 125001, 2000.0, "CPU")])
            write_csv(os.path.join(d, "piles_cuda.csv"),
                      [row("pile_50_heavy", 125001, 50.0, "Test Card", "3000", "20")])
            with open(os.path.join(d, "tests.log"), "w") as f:
                f.write("gpu-compare spring_net on Test Card: steps 60, bits identical\n"
                        "[  PASSED  ] 7 tests.\n")
            out = subprocess.run([sys.executable, SUMMARY, "--out", d], capture_output=True,
                                 text=True, check=True).stdout
            self.assertIn("# gpu_check on Test Card, commit abc1234", out)
            self.assertIn("- spring_net on Test Card: steps 60, bits identical", out)
            self.assertIn("- passed 7, failed 0, skipped 0", out)
            self.assertIn("| ball_into_stack | 1001 | 8.000 | 2.000 | 1.000 | 1.000 | 0.500 "
                          "| 0.5 / 0.4 (41) | 4.00 "
                          "| 100 | ok | 3.15 + 2.65 (ball hit b) |", out)
            self.assertIn("| pile_50_heavy | 125001 | 2000.000 | 50.000 | 1.000 | 1.000 | 20.000 "
                          "|  | 40.00 | 3000 | ok |  |", out)
            self.assertIn("- 125k pile with the ball's impact: 20.0 steps/s (target 30, goal 100); "
                          "peak device memory 3000 MB", out)
            self.assertIn("- ball_into_stack: 2.000 ms/step (target < 2.0)", out)
            svg = os.path.join(d, "gpu_scaling.svg")
            self.assertTrue(os.path.getsize(svg) > 1000)
            with open(svg) as f:
                self.assertIn("Test Card", f.read())

    def test_a_missing_device_leaves_empty_gpu_cells(self):
        with tempfile.TemporaryDirectory() as d:  # gpu_check where the card was absent
            write_csv(os.path.join(d, "table2_cpu.csv"), [row("ball_into_stack", 1001, 8.0, "CPU")])
            out = subprocess.run([sys.executable, SUMMARY, "--out", d], capture_output=True,
                                 text=True, check=True).stdout
            self.assertIn("| ball_into_stack | 1001 | 8.000 |  |  |  |  |  |  |  | ok |", out)
            self.assertNotIn("steps/s", out)


if __name__ == "__main__":
    unittest.main()
