#!/usr/bin/env python3
# The Blender reference test: exports the built-in character (skelview export) and runs Blender
# headless (blender_reference.py) to write it, the shared rigs, a scene of sub-millimetre offsets
# and a mesh with keyed shape keys as FBX and DAE and evaluate them; then compare_blender.py
# checks skelview against Blender's evaluation. Exits 77 (skipped) when Blender or the shared
# models are missing.
import argparse
import os
import shutil
import subprocess
import sys

SKIPPED = 77
HERE = os.path.dirname(os.path.abspath(__file__))

# Files whose Blender re-import is not a usable reference, with why (printed, not checked).
KNOWN_DIFFERENT = {
    "huesitos.dae": "Blender 3.4's Collada importer leaves out this rig's armature object "
                    "transform when it reads back its own export (its joints land 3.07 m from "
                    "where its FBX importer and skelview put them)",
    "shapes.dae": "Blender 3.4's Collada exporter writes the shape keys as a morph controller "
                  "whose source Assimp cannot resolve (\"Unable to resolve library reference\") and "
                  "no animation of their weights",
}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--skelview", required=True)
    parser.add_argument("--models", required=True, help="the shared models directory")
    parser.add_argument("--work", required=True, help="scratch directory in the build tree")
    parser.add_argument("--tolerance", type=float, default=1e-4)
    args = parser.parse_args()
    blender = shutil.which("blender")
    if not blender:
        print("SKIPPED: blender is not installed (scripts/install-deps.sh installs Debian's)")
        return SKIPPED
    models = os.environ.get("SKELVIEW_MODELS") or args.models
    rig = os.path.join(models, "assimp", "huesitos", "huesitos.fbx")
    if not os.path.isfile(rig):
        print("SKIPPED: shared model %s not found (set SKELVIEW_MODELS)" % rig)
        return SKIPPED
    os.makedirs(args.work, exist_ok=True)
    builtin = os.path.join(args.work, "builtin.glb")
    subprocess.run([args.skelview, "export", "-o", builtin], check=True,
                   stdout=subprocess.DEVNULL)
    reference = os.path.join(args.work, "blender.json")
    run = subprocess.run(
        [blender, "-b", "--factory-startup", "--python", os.path.join(HERE, "blender_reference.py"),
         "--", "--out-dir", args.work, "--json", reference, "--times", "0,0.5",
         "builtin=" + builtin, "huesitos=" + rig, "tiny=@tiny", "shapes=@shapes"],
        capture_output=True, text=True, timeout=300)
    if run.returncode != 0 or not os.path.isfile(reference):
        print(run.stdout[-3000:], run.stderr[-3000:])
        print("FAILED: Blender did not write its reference")
        return 1
    for name, why in KNOWN_DIFFERENT.items():
        print("not checked: %s: %s" % (name, why))
    return subprocess.run(
        [sys.executable, os.path.join(HERE, "compare_blender.py"), "--skelview", args.skelview,
         "--reference", reference, "--tolerance", str(args.tolerance),
         "--exclude", ",".join(KNOWN_DIFFERENT)]).returncode


if __name__ == "__main__":
    sys.exit(main())
