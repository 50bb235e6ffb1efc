"""What skelview exports, checked by the Khronos glTF Validator (npm's gltf-validator, which
scripts/install-deps.sh puts in ~/.cache/skelview/npm): the built-in character as .glb and as
.gltf + .bin, posed with IK, and with a clip baked with IK; a rig generated here with everything a
mesh can carry (eight influences per vertex, tangents, uvs and a texture, dense and sparse morph
targets with names, clips with step, linear and cubic-spline keys and morph-weight keys) exported
as .glb and .gltf + .bin, baked and posed; and shared third-party models re-exported. Each must
have no errors and no warnings, `skelview` as its generator, and still hold what it was given
(the checks per case below). Exporting the same model twice must give the same bytes. Exit code
77 (skipped) without node or the validator. Usage: validate_exports.py SKELVIEW_BINARY"""

import json
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
SHARED = os.path.normpath(os.path.join(HERE, "..", "..", "..", "shared", "models"))


def validator_path():
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    path = os.path.join(cache, "skelview", "npm", "node_modules", "gltf-validator")
    return path if os.path.isfile(os.path.join(path, "package.json")) else None


def png(width, height, rgba):
    """A PNG of 8-bit RGBA pixels (rows top first)."""
    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data +
                struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    rows = b"".join(b"\0" + bytes(rgba[y * width * 4:(y + 1) * width * 4]) for y in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def rich_rig(path):
    """Writes a .glb: a chain of 8 joints up +y and a 2 x 8 grid of vertices around it, every vertex
    weighted to all 8 joints (JOINTS_0/1, WEIGHTS_0/1), with normals, tangents of both
    handednesses, uvs and a textured material; targets "Wide" (dense POSITION, NORMAL and TANGENT
    deltas) and "Bump" (two vertices, sparse; zero normal and tangent deltas without data), named
    and with default weights; a clip "Sway" with step root translation, linear rotations,
    cubic-spline scale and cubic-spline morph weights, and a clip "Hop" with linear translation."""
    bin_ = bytearray()
    doc = {"asset": {"version": "2.0", "generator": "validate_exports.py"},
           "scene": 0, "bufferViews": [], "accessors": []}

    def view(data, target=None):
        while len(bin_) % 4:
            bin_.append(0)
        v = {"buffer": 0, "byteOffset": len(bin_), "byteLength": len(data)}
        if target:
            v["target"] = target
        bin_.extend(data)
        doc["bufferViews"].append(v)
        return len(doc["bufferViews"]) - 1

    def accessor(values, fmt, component, kind, count, target=None, bounds=False, **extra):
        a = {"bufferView": view(struct.pack("<%d%s" % (len(values), fmt), *values), target),
             "componentType": component, "type": kind, "count": count}
        if bounds:
            width = len(values) // count
            a["min"] = [min(values[i::width]) for i in range(width)]
            a["max"] = [max(values[i::width]) for i in range(width)]
        a.update(extra)
        doc["accessors"].append(a)
        return len(doc["accessors"]) - 1

    joints = 8
    nodes = []
    for j in range(joints):
        node = {"name": "bone%d" % j, "translation": [0.0, 0.0 if j == 0 else 0.25, 0.0]}
        if j + 1 < joints:
            node["children"] = [j + 1]
        nodes.append(node)
    positions, normals, tangents, uvs, j0, j1, w0, w1 = [], [], [], [], [], [], [], []
    weights = [0.3, 0.2, 0.15, 0.1, 0.08, 0.07, 0.06, 0.04]
    for row in range(8):
        for col in range(2):
            v = row * 2 + col
            positions += [col * 0.2 - 0.1, row * 0.25, 0.0]
            normals += [0.0, 0.0, 1.0]
            tangents += [1.0, 0.0, 0.0, 1.0 if v % 2 else -1.0]
            uvs += [col * 1.0, row / 7.0]
            order = [(row + k) % joints for k in range(joints)]
            j0 += order[:4]
            j1 += order[4:]
            w0 += weights[:4]
            w1 += weights[4:]
    indices = []
    for row in range(7):
        a = row * 2
        indices += [a, a + 1, a + 2, a + 1, a + 3, a + 2]
    n = len(positions) // 3
    ARRAY, ELEMENTS = 34962, 34963
    attributes = {
        "POSITION": accessor(positions, "f", 5126, "VEC3", n, ARRAY, bounds=True),
        "NORMAL": accessor(normals, "f", 5126, "VEC3", n, ARRAY),
        "TANGENT": accessor(tangents, "f", 5126, "VEC4", n, ARRAY),
        "TEXCOORD_0": accessor(uvs, "f", 5126, "VEC2", n, ARRAY),
        "JOINTS_0": accessor(j0, "B", 5121, "VEC4", n, ARRAY),
        "JOINTS_1": accessor(j1, "B", 5121, "VEC4", n, ARRAY),
        "WEIGHTS_0": accessor(w0, "f", 5126, "VEC4", n, ARRAY),
        "WEIGHTS_1": accessor(w1, "f", 5126, "VEC4", n, ARRAY),
    }
    wide = []
    for v in range(n):
        wide += [0.05 * (1 if v % 2 else -1), 0.0, 0.01 * v]
    wide_normals = [0.0, 0.1, 0.0] * n
    wide_tangents = [0.0, 0.0, 0.2] * n
    bump_indices = view(struct.pack("<2H", 5, 11))
    bump_values = view(struct.pack("<6f", 0.0, 0.0, 0.1, 0.0, 0.0, 0.2))
    doc["accessors"].append({"componentType": 5126, "type": "VEC3", "count": n,
                             "min": [0.0, 0.0, 0.0], "max": [0.0, 0.0, 0.2],
                             "sparse": {"count": 2,
                                        "indices": {"bufferView": bump_indices,
                                                    "componentType": 5123},
                                        "values": {"bufferView": bump_values}}})
    bump = len(doc["accessors"]) - 1
    doc["accessors"].append({"componentType": 5126, "type": "VEC3", "count": n})
    zeros = len(doc["accessors"]) - 1
    targets = [{"POSITION": accessor(wide, "f", 5126, "VEC3", n, bounds=True),
                "NORMAL": accessor(wide_normals, "f", 5126, "VEC3", n),
                "TANGENT": accessor(wide_tangents, "f", 5126, "VEC3", n)},
               {"POSITION": bump, "NORMAL": zeros, "TANGENT": zeros}]
    doc["meshes"] = [{"name": "Ribbon", "weights": [0.25, 0.5],
                      "extras": {"targetNames": ["Wide", "Bump"]},
                      "primitives": [{"attributes": attributes, "targets": targets, "material": 0,
                                      "indices": accessor(indices, "H", 5123, "SCALAR",
                                                          len(indices), ELEMENTS)}]}]
    texture = png(2, 2, [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255])
    doc["images"] = [{"bufferView": view(texture), "mimeType": "image/png"}]
    doc["textures"] = [{"source": 0}]
    doc["materials"] = [{"name": "Cloth", "pbrMetallicRoughness": {
        "baseColorFactor": [0.5, 0.25, 0.125, 1.0], "baseColorTexture": {"index": 0},
        "metallicFactor": 0.0}}]
    ibms = []
    for j in range(joints):
        ibms += [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, -0.25 * j, 0, 1]
    doc["skins"] = [{"joints": list(range(joints)),
                     "inverseBindMatrices": accessor(ibms, "f", 5126, "MAT4", joints)}]
    nodes.append({"name": "Ribbon", "mesh": 0, "skin": 0})
    doc["nodes"] = nodes
    doc["scenes"] = [{"nodes": [0, joints]}]

    def sampler(times, values, kind, interpolation):
        width = {"SCALAR": 1, "VEC3": 3, "VEC4": 4}[kind]
        return {"input": accessor(times, "f", 5126, "SCALAR", len(times), bounds=True),
                "output": accessor(values, "f", 5126, kind, len(values) // width),
                "interpolation": interpolation}

    times = [0.0, 0.5, 1.0]
    rotations = []
    for t in times:
        half = 0.3 * math.sin(t * math.pi) / 2
        rotations += [0.0, 0.0, math.sin(half), math.cos(half)]
    sway = [sampler([0.0, 0.5], [0, 0, 0, 0, 0.1, 0], "VEC3", "STEP"),
            sampler(times, rotations, "VEC4", "LINEAR"),
            sampler([0.0, 1.0], [0, 0, 0, 1, 1, 1, 0.1, 0, 0,
                                 0, 0, 0, 1.2, 1, 1, 0, 0, 0], "VEC3", "CUBICSPLINE"),
            sampler([0.0, 1.0], [0, 0, 0, 0, 0.2, 0.1,  # in-tangents, values, out-tangents
                                 0, 0, 1, 1, 0, 0], "SCALAR", "CUBICSPLINE")]
    doc["animations"] = [
        {"name": "Sway", "samplers": sway, "channels": [
            {"sampler": 0, "target": {"node": 0, "path": "translation"}},
            {"sampler": 1, "target": {"node": 2, "path": "rotation"}},
            {"sampler": 2, "target": {"node": 4, "path": "scale"}},
            {"sampler": 3, "target": {"node": joints, "path": "weights"}}]},
        {"name": "Hop", "samplers": [sampler([0.0, 0.4], [0, 0, 0, 0, 0.2, 0], "VEC3", "LINEAR")],
         "channels": [{"sampler": 0, "target": {"node": 0, "path": "translation"}}]}]
    while len(bin_) % 4:
        bin_.append(0)
    doc["buffers"] = [{"byteLength": len(bin_)}]
    text = json.dumps(doc, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 4)
    with open(path, "wb") as f:
        f.write(struct.pack("<III", 0x46546C67, 2, 12 + 8 + len(text) + 8 + len(bin_)))
        f.write(struct.pack("<II", len(text), 0x4E4F534A) + text)
        f.write(struct.pack("<II", len(bin_), 0x004E4942) + bytes(bin_))


def read_json(path):
    """The JSON document of a .gltf or .glb."""
    with open(path, "rb") as f:
        data = f.read()
    if path.endswith(".glb"):
        length = struct.unpack("<I", data[12:16])[0]
        return json.loads(data[20:20 + length])
    return json.loads(data)


def rich_contents(doc, clips):
    """What an export of rich_rig must still hold: a list of what is wrong, each "lacks ..." or
    "has ..."."""
    missing = []
    meshes = [m for m in doc.get("meshes", []) if m.get("name") == "Ribbon"]
    if not meshes:
        return ["lacks the mesh 'Ribbon'"]
    primitive = meshes[0]["primitives"][0]
    for attribute in ["TANGENT", "TEXCOORD_0", "JOINTS_0", "JOINTS_1", "WEIGHTS_0", "WEIGHTS_1"]:
        if attribute not in primitive["attributes"]:
            missing.append("lacks " + attribute)
    targets = primitive.get("targets", [])
    if len(targets) != 2 or any("TANGENT" not in t or "NORMAL" not in t for t in targets):
        missing.append("lacks two targets with POSITION, NORMAL and TANGENT")
    elif "sparse" not in doc["accessors"][targets[1]["POSITION"]]:
        missing.append("lacks the sparse target 'Bump'")
    if meshes[0].get("extras", {}).get("targetNames") != ["Wide", "Bump"]:
        missing.append("lacks extras.targetNames")
    if not doc.get("textures"):
        missing.append("lacks the texture")
    if clips:
        used = {s["interpolation"] for a in doc.get("animations", []) for s in a["samplers"]}
        if used != {"STEP", "LINEAR", "CUBICSPLINE"}:
            missing.append("lacks step, linear and cubic-spline samplers (has %s)" % sorted(used))
        paths = {c["target"]["path"] for a in doc.get("animations", []) for c in a["channels"]}
        if "weights" not in paths:
            missing.append("lacks the morph-weight channel")
    elif doc.get("animations"):
        missing.append("has clips (a pose export has none)")
    return missing


def main():
    binary = sys.argv[1]
    validator = validator_path()
    if not shutil.which("node") or not validator:
        print("skipped: node or the gltf-validator package is missing "
              "(scripts/install-deps.sh installs both)")
        return 77
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen", GLTF_VALIDATOR=validator)
    out = tempfile.mkdtemp(prefix="skelview-validate-")
    rig = os.path.join(out, "rig-source.glb")
    rich_rig(rig)

    def o(name):
        return os.path.join(out, name)

    # (name, skelview arguments or None for a file to validate as it is, check of its JSON)
    cases = [
        ("generated rig (the input)", rig, None),
        ("built-in", ["export", "-o", o("builtin.glb")], None),
        ("built-in as .gltf", ["export", "-o", o("builtin.gltf")], None),
        ("built-in posed with IK", ["export", "-o", o("posed.glb"), "--anim", "0", "--time", "0.4",
                                    "--ik", "LeftFoot=0.1,0.3,0.2"],
         lambda d: ["has clips (a pose export has none)"] if d.get("animations") else []),
        ("built-in baked with IK", ["export", "-o", o("baked.glb"), "--anim", "0",
                                    "--bake", "--ik", "LeftFoot=0.1,0.3,0.2"], None),
        ("built-in walk with its feet locked", ["export", "-o", o("locked.glb"), "--anim", "0",
                                                "--bake", "--lock-feet"],
         lambda d: [] if len(d.get("animations", [])) == 2 else ["lost a clip"]),
        ("built-in walk locked on a ramp", ["export", "-o", o("locked-ramp.glb"), "--anim", "0",
                                            "--bake", "--lock-feet", "--ground", "ramp,degrees=8"],
         lambda d: [] if len(d.get("animations", [])) == 2 else ["lost a clip"]),
        ("generated rig", ["export", rig, "-o", o("rig.glb")], lambda d: rich_contents(d, True)),
        ("generated rig as .gltf", ["export", rig, "-o", o("rig.gltf")],
         lambda d: rich_contents(d, True)),
        ("generated rig baked", ["export", rig, "-o", o("rig-baked.glb"), "--anim", "0", "--bake",
                                 "--ik", "bone7=0.1,1.6,0.1"], None),
        ("generated rig posed", ["export", rig, "-o", o("rig-posed.gltf"), "--anim", "0",
                                 "--time", "0.3", "--morph", "Ribbon:Bump=0.75"],
         lambda d: rich_contents(d, False)),
    ]
    for name, relative in [
            ("CesiumMan", "khronos-glTF-Sample-Models/CesiumMan/glTF/CesiumMan.gltf"),
            ("RiggedFigure", "khronos-glTF-Sample-Models/RiggedFigure/glTF/RiggedFigure.gltf")]:
        model = os.path.join(SHARED, relative)
        if os.path.exists(model):
            cases.append((name, ["export", model, "-o", o(name + ".glb"),
                                 "--allow-outside-files"], None))
            cases.append((name + " as .gltf, baked", ["export", model, "-o", o(name + ".gltf"),
                                                      "--anim", "0", "--bake",
                                                      "--allow-outside-files"], None))
            if name == "CesiumMan":
                cases.append((name + " baked with its feet locked",
                              ["export", model, "-o", o(name + "-locked.glb"), "--anim", "0",
                               "--bake", "--lock-feet", "--allow-outside-files"], None))
        else:
            print(f"note: {model} is missing; that case is not run")
    failures = []
    for name, args, check in cases:
        if isinstance(args, str):
            path = args
        else:
            run = subprocess.run([binary] + args, capture_output=True, text=True, env=env,
                                 timeout=300)
            if run.returncode != 0:
                failures.append(f"{name}: skelview {' '.join(args)} exited {run.returncode}: "
                                f"{run.stderr.strip()}")
                continue
            path = args[args.index("-o") + 1]
        check_run = subprocess.run(["node", os.path.join(HERE, "validate_gltf.js"), path],
                                   capture_output=True, text=True, env=env, timeout=300)
        if check_run.returncode != 0:
            failures.append(f"{name}: the validator failed: {check_run.stderr.strip()}")
            continue
        report = json.loads(check_run.stdout)
        codes = {}
        for m in report["messages"]:
            codes[m["code"]] = codes.get(m["code"], 0) + 1
        print(f"{name}: {report['errors']} errors, {report['warnings']} warnings {codes}")
        for m in report["messages"][:10]:
            failures.append(f"{name}: {m['severity']} {m['code']} {m['pointer']}: {m['message']}")
        if isinstance(args, str):
            continue
        doc = read_json(path)
        generator = doc.get("asset", {}).get("generator")
        if generator != "skelview":
            failures.append(f"{name}: asset.generator is {generator!r}, not 'skelview'")
        for missing in (check(doc) if check else []):
            failures.append(f"{name}: the file {missing}")
    # The same model, exported again: the same bytes.
    for name, args, _ in cases:
        if isinstance(args, str) or not args[args.index("-o") + 1].endswith(".glb"):
            continue
        first = args[args.index("-o") + 1]
        again = first[:-4] + "-again.glb"
        args = list(args)
        args[args.index("-o") + 1] = again
        run = subprocess.run([binary] + args, capture_output=True, text=True, env=env, timeout=300)
        with open(first, "rb") as a, open(again, "rb") as b:
            if run.returncode != 0 or a.read() != b.read():
                failures.append(f"{name}: exporting it again did not give the same bytes")
    shutil.rmtree(out, ignore_errors=True)
    for failure in failures:
        print("FAIL " + failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
