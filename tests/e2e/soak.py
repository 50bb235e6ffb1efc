"""Runs end-to-end test files many times while busy loops keep every CPU loaded, to show that they
do not flake under load; prints each file's pass count and run times and keeps the output of failed
runs. Not part of the suite (it takes long). Example, from the build directory:
    python3 ../tests/e2e/soak.py --runs 20 --busy-per-core 2 app/skelview \\
        ../tests/e2e/window_test.py ../tests/e2e/drag_test.py"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=20, help="runs of each test file")
    parser.add_argument("--busy-per-core", type=int, default=2,
                        help="busy loops per CPU core, running for the whole soak")
    parser.add_argument("--out", help="folder for failed runs' output (default: a new temp one)")
    parser.add_argument("binary", help="the skelview executable")
    parser.add_argument("tests", nargs="+", help="e2e test files (window_test.py, drag_test.py)")
    args = parser.parse_args()
    out_dir = args.out or tempfile.mkdtemp(prefix="skelview-soak-")
    os.makedirs(out_dir, exist_ok=True)
    env = dict(os.environ, ASAN_OPTIONS="detect_leaks=0",
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")

    cores = os.cpu_count() or 1
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(args.busy_per_core * cores)]
    print(f"soak: {len(busy)} busy loops on {cores} cores, {args.runs} runs of "
          f"{len(args.tests)} file(s); failed runs go to {out_dir}", flush=True)
    times = {t: [] for t in args.tests}
    failures = {t: [] for t in args.tests}
    try:
        for run in range(1, args.runs + 1):
            for test in args.tests:
                start = time.monotonic()
                proc = subprocess.run([sys.executable, test, os.path.abspath(args.binary)],
                                      env=env, capture_output=True, text=True)
                seconds = time.monotonic() - start
                times[test].append(seconds)
                name = os.path.basename(test)
                verdict = "pass" if proc.returncode == 0 else f"FAIL (exit {proc.returncode})"
                if proc.returncode != 0:
                    log = os.path.join(out_dir, f"{name}.run{run}.log")
                    with open(log, "w") as f:
                        f.write(proc.stdout + proc.stderr)
                    failures[test].append(log)
                    verdict += f", output in {log}"
                print(f"soak: run {run:3d} {name:16s} {seconds:6.1f} s  {verdict}", flush=True)
    finally:
        for p in busy:
            p.kill()
        for p in busy:
            p.wait()
    print("soak: summary")
    for test in args.tests:
        t = times[test]
        print(f"  {os.path.basename(test):16s} {len(t) - len(failures[test])}/{len(t)} passed; "
              f"seconds min {min(t):.1f} median {statistics.median(t):.1f} max {max(t):.1f}")
        for log in failures[test]:
            print(f"    failed: {log}")
    return 1 if any(failures.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
