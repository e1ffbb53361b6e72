#!/usr/bin/env python3
"""The summary of scripts/gpu_check.sh: the device tests' comparison lines and
`pabd bench --device cuda` beside `--device cpu` (same machine, same run), with
the paper's RTX 3080 figures and the targets of the CUDA issue, as Markdown.

  scripts/gpu_summary.py --out DIR     (DIR: gpu_check's tests.log and CSVs)

Standard library only (the GPU machine's python3 has no project packages).
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from benchmark_report import PAPER_TABLE2, ReportError, load_bench_csv, scaling_axes  # noqa: E402

# The paper's RTX 3080 points for the scaling plot, ms per step (Table 2:
# t_col + t_solve of the ball-into-stack row; the text's 160 ms for the
# 125,001-body pile), by moving bodies.
PAPER_POINTS = [(1001, 3.15 + 2.65), (125001, 160.0)]
# The scenes of the scaling plot, small to large.
SCALING_SCENES = ["ball_into_stack", "pile_20", "pile_30", "pile_50_heavy"]

# The CUDA issue's targets: the 125k pile with the ball's impact, steps per
# second (30 the target, 100 the goal beyond it), and ball_into_stack's step.
PILE_STEPS_PER_S_TARGET = 30
PILE_STEPS_PER_S_GOAL = 100
BALL_MS_TARGET = 2.0


def rows_by_scene(path):
    if not os.path.exists(path):
        return {}
    rows, _ = load_bench_csv(path)
    return {r["scene"]: r for r in rows}


def ms(x):
    return "" if x is None else f"{x:.3f}"


def number(x, digits=3):
    """A cell: x with `digits` decimals, or empty."""
    if x in (None, ""):
        return ""
    return f"{float(x):.{digits}f}"


def timing_table(title, cpu, gpu, with_paper):
    lines = [f"## {title}", "",
             "| scene | bodies | CPU ms/step | GPU ms/step | GPU: collision (host) | GPU: solve | "
             "GPU: copies ms | GPU: MB up / down (copies) | CPU / GPU | device MB | outcome | "
             "paper RTX 3080 ms |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    for scene in sorted(set(cpu) | set(gpu)):
        c, g = cpu.get(scene, {}), gpu.get(scene, {})
        c_ms, g_ms = c.get("total_ms"), g.get("total_ms")
        cells = [scene, str(g.get("bodies") or c.get("bodies") or ""), number(c_ms), number(g_ms),
                 number(g.get("collision_ms")), number(g.get("solve_ms")),
                 number(g.get("transfer_ms")),
                 f"{number(g.get('uploaded_mb'), 1)} / {number(g.get('downloaded_mb'), 1)} "
                 f"({number(g.get('copies'), 0)})" if g.get("uploaded_mb") not in (None, "") else "",
                 f"{c_ms / g_ms:.2f}" if c_ms and g_ms else "",
                 number(g.get("device_peak_mb"), 0), g.get("outcome") or c.get("outcome") or "",
                 PAPER_TABLE2.get(scene, "") if with_paper else ""]
        lines.append("| " + " | ".join(cells) + " |")
    return lines + [""]


def scaling_plot(path, cpu, gpu, card):
    """ms per step against moving bodies, log-log: the CPU's and the card's
    rows and the paper's RTX 3080 points. False where matplotlib is missing."""
    try:
        import matplotlib
    except ImportError:
        return False
    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "pabd-gpu-check"  # same data, same file
    matplotlib.rcParams["svg.fonttype"] = "none"
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    for rows, label, style in ((cpu, "pabd, CPU", ("C0", "o", "-")),
                               (gpu, f"pabd, {card}", ("C3", "s", "-"))):
        pts = sorted((rows[s]["bodies"], rows[s]["total_ms"]) for s in SCALING_SCENES
                     if s in rows and rows[s].get("total_ms"))
        if pts:
            ax.plot([p[0] for p in pts], [p[1] for p in pts], color=style[0], marker=style[1],
                    linestyle=style[2], label=label)
    ax.plot([p[0] for p in PAPER_POINTS], [p[1] for p in PAPER_POINTS], color="C2", marker="^",
            linestyle="none", label="the paper, RTX 3080")
    scaling_axes(ax)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, format="svg", metadata={"Date": None, "Creator": None})
    plt.close(fig)
    return True


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--out", required=True, help="gpu_check's folder (tests.log, *_cuda.csv, *_cpu.csv)")
    a = p.parse_args()
    try:
        t2 = [rows_by_scene(os.path.join(a.out, f"table2_{d}.csv")) for d in ("cpu", "cuda")]
        piles = [rows_by_scene(os.path.join(a.out, f"piles_{d}.csv")) for d in ("cpu", "cuda")]
    except ReportError as e:
        print(f"gpu_summary: {e}", file=sys.stderr)
        return 1
    gpu_any = next(iter(list(t2[1].values()) + list(piles[1].values())), {})
    card = gpu_any.get("device", "no device rows")
    commit = gpu_any.get("commit", "")
    lines = [f"# gpu_check on {card}, commit {commit}", "",
             "CPU rows: the same machine's cores, `--threads` = its core count; GPU rows: "
             "`--device cuda` (what runs on the card and what is copied each step: "
             "docs/gpu.md, \"What runs where\").", "",
             "## Device tests (tests/test_cuda_device.cpp)", ""]
    log = os.path.join(a.out, "tests.log")
    text = open(log).read() if os.path.exists(log) else ""
    lines += [f"- {m}" for m in re.findall(r"^gpu-compare (.*)$", text, re.M)] or ["- (no log)"]
    passed = re.search(r"\[  PASSED  \] (\d+) test", text)
    failed = re.search(r"\[  FAILED  \] (\d+) test", text)
    skipped = re.search(r"\[  SKIPPED \] (\d+) test", text)
    lines += [f"- passed {passed.group(1) if passed else 0}, failed {failed.group(1) if failed else 0}, "
              f"skipped {skipped.group(1) if skipped else 0}", ""]
    lines += timing_table("The paper's Table 2 scenes", t2[0], t2[1], True)
    lines += timing_table("Piles (pile_50_heavy: the ball's impact, from step 1)", piles[0], piles[1], False)
    lines += ["## Targets (the CUDA issue)", ""]
    heavy = piles[1].get("pile_50_heavy", {})
    if heavy.get("total_ms"):
        rate = 1000.0 / heavy["total_ms"]
        lines.append(f"- 125k pile with the ball's impact: {rate:.1f} steps/s "
                     f"(target {PILE_STEPS_PER_S_TARGET}, goal {PILE_STEPS_PER_S_GOAL}); "
                     f"peak device memory {heavy.get('device_peak_mb', '')} MB")
    ball = t2[1].get("ball_into_stack", {})
    if ball.get("total_ms"):
        lines.append(f"- ball_into_stack: {ball['total_ms']:.3f} ms/step (target < {BALL_MS_TARGET})")
    cpu_rows = {**t2[0], **piles[0]}
    gpu_rows = {**t2[1], **piles[1]}
    svg = os.path.join(a.out, "gpu_scaling.svg")
    if scaling_plot(svg, cpu_rows, gpu_rows, card):
        lines += ["", f"Scaling plot: {svg} (ms per step against moving bodies, CPU, card and "
                  "the paper's RTX 3080)."]
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
