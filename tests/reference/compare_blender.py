#!/usr/bin/env python3
# Compares skelview's posed vertices and joints with Blender's evaluation of the same files (the
# JSON blender_reference.py writes): prints, per file and clip time, the largest vertex and joint
# distance relative to the model's size (its bounding-box diagonal in Blender), and fails when
# one is over the tolerance.
import argparse
import json
import math
import os
import subprocess
import sys


def distance(a, b):
    return math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)))


class Grid:
    """Points bucketed in cubes of side `cell`, for nearest-point queries."""

    def __init__(self, points, cell):
        self.cell = cell
        self.points = points
        self.buckets = {}
        for i, p in enumerate(points):
            self.buckets.setdefault(self.key(p), []).append(i)

    def key(self, p):
        return tuple(int(math.floor(c / self.cell)) for c in p)

    def near(self, p, radius):
        """Indices of points within `radius` (<= cell) of p."""
        k = self.key(p)
        found = []
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                for dz in (-1, 0, 1):
                    for i in self.buckets.get((k[0] + dx, k[1] + dy, k[2] + dz), ()):
                        if distance(self.points[i], p) <= radius:
                            found.append(i)
        return found

    def nearest(self, p):
        k = self.key(p)
        best, best_d = None, math.inf
        ring = 0
        while best is None or ring <= 1:
            for dx in range(-ring, ring + 1):
                for dy in range(-ring, ring + 1):
                    for dz in range(-ring, ring + 1):
                        if max(abs(dx), abs(dy), abs(dz)) != ring:
                            continue
                        for i in self.buckets.get((k[0] + dx, k[1] + dy, k[2] + dz), ()):
                            d = distance(self.points[i], p)
                            if d < best_d:
                                best, best_d = i, d
            ring += 1
            if ring > 64:
                break
        return best, best_d


def skelview_pose(skelview, path, time, animated, extra):
    cmd = [skelview, "pose", "--vertices"] + extra
    if animated:
        cmd += ["--anim", "0", "--time", repr(time)]
    cmd += ["--", path]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    pose = json.loads(out.stdout)
    positions = [p for mesh in pose.get("meshes", []) for p in mesh["positions"]]
    return positions, pose["joints"]


def size_of(points):
    lo = [min(p[i] for p in points) for i in range(3)]
    hi = [max(p[i] for p in points) for i in range(3)]
    return distance(lo, hi)


def compare(skelview, entry, extra, animated):
    samples = entry["samples"]
    size = size_of(samples[0]["positions"])
    # Vertex correspondence from the first sample: each skelview vertex with the Blender vertices
    # at (nearly) its place; at every time the nearest of those counts (coincident vertices may
    # move apart). Made in skelview's default frame, so that --raw-units (which only moves the
    # root) measures the same vertices.
    first_ours, _ = skelview_pose(skelview, entry["path"], samples[0]["time"], animated, [])
    ref0 = samples[0]["positions"]
    grid = Grid(ref0, size * 0.02)
    match_radius = size * 1e-5
    candidates = []
    for p in first_ours:
        near = grid.near(p, match_radius)
        if not near:
            best, _ = grid.nearest(p)
            near = [best]
        candidates.append(near)
    rows = []
    for sample in samples:
        ours, joints = skelview_pose(skelview, entry["path"], sample["time"], animated, extra)
        ref = sample["positions"]
        if len(ours) != len(first_ours):
            raise SystemExit("vertex count changed between times")
        worst = 0.0
        for p, near in zip(ours, candidates):
            worst = max(worst, min(distance(p, ref[i]) for i in near))
        joint_worst = 0.0
        by_name = {j["name"]: j["world"] for j in joints}
        compared = 0
        for name, head in sample["joints"].items():
            if name in by_name:
                joint_worst = max(joint_worst, distance(by_name[name], head))
                compared += 1
        rows.append((sample["time"], worst / size, joint_worst / size, compared,
                     size_of(ours) / size_of(ref)))
    return size, rows


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--skelview", required=True)
    parser.add_argument("--reference", required=True, help="blender_reference.py's JSON")
    parser.add_argument("--tolerance", type=float, default=1e-4,
                        help="largest distance allowed, relative to the model's size")
    parser.add_argument("--raw-units", action="store_true", help="pass --raw-units (measuring)")
    parser.add_argument("--report-only", action="store_true", help="print, never fail")
    parser.add_argument("--exclude", default="",
                        help="file names (comma separated) printed but not checked")
    args = parser.parse_args()
    with open(args.reference) as f:
        reference = json.load(f)
    extra = ["--raw-units"] if args.raw_units else []
    failed = []
    for entry in reference["files"]:
        info = subprocess.run([args.skelview, "info", "--json"] + extra + ["--", entry["path"]],
                              capture_output=True, text=True, check=True)
        animated = len(json.loads(info.stdout).get("clips", [])) > 0
        size, rows = compare(args.skelview, entry, extra, animated)
        for time, vertex, joint, joints, ratio in rows:
            line = (f"{entry['path']}: t={time:g} s: vertices {vertex:.3g}, joints {joint:.3g} "
                    f"({joints} compared) of the size {size:.4g} m; our size / Blender's "
                    f"{ratio:.6g}")
            excluded = os.path.basename(entry["path"]) in args.exclude.split(",")
            print(line + (" (not checked)" if excluded else ""))
            if not excluded and (vertex > args.tolerance or joint > args.tolerance):
                failed.append(line)
    if failed and not args.report_only:
        print("FAILED: over the tolerance %g:\n  %s" % (args.tolerance, "\n  ".join(failed)))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
