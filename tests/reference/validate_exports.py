"""What skelview exports, checked by the Khronos glTF Validator (npm's gltf-validator, which
scripts/install-deps.sh puts in ~/.cache/skelview/npm): the built-in character as .glb and as
.gltf + .bin, a baked clip with IK, and shared third-party models re-exported, each with no
errors and no warnings, and `skelview` as the generator. Exit code 77 (skipped) without node or
the validator. Usage: validate_exports.py SKELVIEW_BINARY"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "models"))



def validator_path():
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    path = os.path.join(cache, "skelview", "npm", "node_modules", "gltf-validator")
    return path if os.path.isfile(os.path.join(path, "package.json")) else None


def main():
    binary = sys.argv[1]
    validator = validator_path()
    if not shutil.which("node") or not validator:
        print("skipped: node or the gltf-validator package is missing "
              "(scripts/install-deps.sh installs both)")
        return 77
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", GLTF_VALIDATOR=validator)
    out = tempfile.mkdtemp(prefix="skelview-validate-")
    cases = [
        ("built-in pose", ["export", "-o", os.path.join(out, "builtin.glb")]),
        ("built-in as .gltf", ["export", "-o", os.path.join(out, "builtin.gltf")]),
        ("built-in baked with IK", ["export", "-o", os.path.join(out, "baked.glb"), "--anim", "0",
                                    "--bake", "--ik", "LeftFoot=0.1,0.3,0.2"]),
    ]
    for name, relative in [
            ("CesiumMan", "khronos-glTF-Sample-Models/CesiumMan/glTF/CesiumMan.gltf"),
            ("RiggedFigure", "khronos-glTF-Sample-Models/RiggedFigure/glTF/RiggedFigure.gltf")]:
        model = os.path.join(SHARED, relative)
        if os.path.exists(model):
            cases.append((name, ["export", model, "-o", os.path.join(out, name + ".glb"),
                                 "--anim", "0", "--bake", "--allow-outside-files"]))
        else:
            print(f"note: {model} is missing; that case is not run")
    failures = []
    for name, args in cases:
        run = subprocess.run([binary] + args, capture_output=True, text=True, env=env, timeout=300)
        if run.returncode != 0:
            failures.append(f"{name}: skelview {' '.join(args)} exited {run.returncode}: "
                            f"{run.stderr.strip()}")
            continue
        path = args[args.index("-o") + 1]
        check = subprocess.run(["node", os.path.join(HERE, "validate_gltf.js"), path],
                               capture_output=True, text=True, env=env, timeout=300)
        if check.returncode != 0:
            failures.append(f"{name}: the validator failed: {check.stderr.strip()}")
            continue
        report = json.loads(check.stdout)
        codes = {}
        for m in report["messages"]:
            codes[m["code"]] = codes.get(m["code"], 0) + 1
        print(f"{name}: {report['errors']} errors, {report['warnings']} warnings {codes}")
        for m in report["messages"][:10]:
            failures.append(f"{name}: {m['severity']} {m['code']} {m['pointer']}: {m['message']}")
        if path.endswith(".gltf"):
            with open(path) as f:
                generator = json.load(f).get("asset", {}).get("generator")
            if generator != "skelview":
                failures.append(f"{name}: asset.generator is {generator!r}, not 'skelview'")
    shutil.rmtree(out, ignore_errors=True)
    for failure in failures:
        print("FAIL " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
