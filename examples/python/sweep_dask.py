"""A parameter sweep over many worlds with Dask: the jeep of
scenes/jeep_bridge.json driven at wheel speeds from 2 to 9 rad/s, each run
until its rear wheels leave the 20 m bridge. It prints the crossing time per
speed and the sweep's wall time.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/sweep_dask.py [--workers N]
    PYTHONPATH=build/python /usr/bin/python3 examples/python/sweep_dask.py --scheduler tcp://host:8786

By default the sweep runs on a LocalCluster of N worker processes (default: the
machine's cores), one thread each. The same code runs on any Dask cluster: give
--scheduler the address of a running one (dask-scheduler and dask-worker on many
machines, or dask-jobqueue's SLURMCluster), where every worker can import pabd.
Each task builds its own World from the scene text, so nothing is shared
between tasks but that text.
"""
import argparse
import json
import os
import sys
import time

from dask.distributed import Client, LocalCluster

BRIDGE_END = 20.0    # [m] x of the bridge's far end (scripts/make_scenes.py)
REAR_OVERHANG = 1.5  # [m] from the chassis centre back past the rear wheels' rims
MAX_STEPS = 3600     # 60 s at 60 Hz: a jeep that has not crossed by then is reported as such


def crossing_time(scene_text, wheel_speed):
    """Simulated seconds until the jeep's rear leaves the bridge (None: not in 60 s)."""
    import pabd  # imported in the worker process

    scene = json.loads(scene_text)
    for joint in scene["joints"]:
        drive = joint.get("drive")
        if drive and drive["mode"] == "velocity":
            drive["target"] = wheel_speed
    world = pabd.parse_scene(json.dumps(scene), threads=1)
    chassis = world.body_names.index("chassis")
    for _ in range(MAX_STEPS):
        world.step()
        if world.positions[chassis, 0] - REAR_OVERHANG > BRIDGE_END:
            return world.time
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workers", type=int, default=os.cpu_count(), help="LocalCluster workers")
    parser.add_argument("--scheduler", help="address of a running Dask scheduler instead")
    parser.add_argument("--speeds", type=int, default=8, help="number of wheel speeds")
    args = parser.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    with open(os.path.join(here, "..", "..", "scenes", "jeep_bridge.json")) as f:
        scene_text = f.read()
    speeds = [2 + 7 * k / max(1, args.speeds - 1) for k in range(args.speeds)]

    if args.scheduler:
        client, cluster = Client(args.scheduler), None
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    try:
        start = time.perf_counter()
        futures = client.map(crossing_time, [scene_text] * len(speeds), speeds, pure=False)
        results = client.gather(futures)
        wall = time.perf_counter() - start
    finally:
        client.close()
        if cluster:
            cluster.close()

    workers = "a running cluster" if args.scheduler else f"{args.workers} local worker(s)"
    print(f"wheel speed [rad/s]   crossing time [s]   ({workers}, {wall:.2f} s wall)")
    for speed, t in zip(speeds, results):
        print(f"{speed:19.2f}   {'not in 60 s' if t is None else f'{t:17.2f}'}")
    # Faster wheels cross sooner, as long as the tyres grip: the check the test makes.
    crossed = [t for t in results if t is not None]
    return 0 if len(crossed) == len(results) and crossed[-1] < crossed[0] else 1


if __name__ == "__main__":
    sys.exit(main())
