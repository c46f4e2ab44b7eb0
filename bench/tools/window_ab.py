#!/usr/bin/env python3
"""Launch-to-first-paint of several window programs, launched in random order round by round.

A lighter launcher than nb2lite-bench's QProcess (Python's subprocess), and any Qt platform:
the benchmark's window case runs offscreen unless QT_QPA_PLATFORM says otherwise.

    xvfb-run -a -s "-screen 0 1600x1000x24" env QT_QPA_PLATFORM=xcb \\
        bench/tools/window_ab.py 100 bare=build/bench/nb2lite-bench-window \\
        studio=build/app/studio/nb2lite-studio [other=/path/to/another/build/nb2lite-studio]

The first program is the baseline. A program whose path contains "bench-window" (the bare
window) is started without arguments; any other is taken for a studio and started with --demo
and an empty session. Each program gets its own HOME; every one prints its first paint
(NB2_BENCH_FIRST_PAINT=1) and quits.
Prints per program: the median launch-to-first-paint, the median ratio to the baseline, and the
GUI thread's CPU up to the first paint (studio only); with three or more programs, the paired
median ratio of the third to the second (an A/B of two builds).
"""
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    rounds = int(sys.argv[1])
    programs = [arg.split("=", 1) for arg in sys.argv[2:]]
    base_env = dict(os.environ, NB2_BENCH_FIRST_PAINT="1")
    base_env.setdefault("QT_QPA_PLATFORM", "offscreen")
    homes = {}
    for name, _ in programs:
        home = tempfile.mkdtemp(prefix=f"window-ab-{name}-")
        os.makedirs(home + "/session")
        homes[name] = home

    def launch(name, exe, cpu):
        home = homes[name]
        env = dict(base_env, HOME=home, XDG_CONFIG_HOME=home + "/config", XDG_DATA_HOME=home + "/data",
                   XDG_CACHE_HOME=home + "/cache")
        args = [exe] if "bench-window" in exe else [exe, "--demo", home + "/session"]
        launched = time.time()
        out = subprocess.run(args, env=env, capture_output=True, text=True, timeout=60).stdout
        fields = dict(line.split(" ", 1) for line in out.splitlines() if " " in line)
        if "first_paint_us" not in fields:
            sys.exit(f"{exe} printed no first paint")
        if "first_paint_gui_cpu_us" in fields:
            cpu.setdefault(name, []).append(int(fields["first_paint_gui_cpu_us"]) / 1000)
        return int(fields["first_paint_us"]) / 1000 - launched * 1000

    for name, exe in programs:  # warm the page cache
        launch(name, exe, {})
    cpu = {}
    results = {name: [] for name, _ in programs}
    for _ in range(rounds):
        order = programs[:]
        random.shuffle(order)
        for name, exe in order:
            results[name].append(launch(name, exe, cpu))
    baseline = programs[0][0]
    for name, _ in programs:
        ratios = [a / b for a, b in zip(results[name], results[baseline])]
        cpu_text = f"  GUI CPU {statistics.median(cpu[name]):.1f} ms" if name in cpu else ""
        print(f"{name:10s} {statistics.median(results[name]):6.1f} ms  / {baseline} "
              f"{statistics.median(ratios):.3f}{cpu_text}")
    if len(programs) >= 3:
        a, b = programs[1][0], programs[2][0]
        paired = [y / x for x, y in zip(results[a], results[b])]
        print(f"{b} / {a}, paired: median {statistics.median(paired):.3f}")


if __name__ == "__main__":
    main()
