# Blender's own evaluation of rigged files, the independent reference skelview is checked against:
# run headless as `blender -b --factory-startup --python blender_reference.py -- ARGS`.
# Imports each source, exports it to FBX and DAE, re-imports every file and writes world-space
# vertex and joint positions (in glTF's frame: metres, +Y up) at the requested clip times to JSON.
import argparse
import json
import math
import os
import sys

try:
    import numpy
except ImportError:
    # Blender finds its Python's home from the python3 first on PATH; when that is not Debian's
    # (pyenv, a venv), Debian's python3-numpy is still where Debian puts it.
    sys.path.append("/usr/lib/python3/dist-packages")
    import numpy

# Blender 3.4's add-ons use numpy.bool, which Debian's NumPy 1.24 no longer has.
if not hasattr(numpy, "bool"):
    numpy.bool = numpy.bool_

import bpy  # noqa: E402


def reset():
    bpy.ops.wm.read_factory_settings(use_empty=True)


def import_file(path):
    ext = os.path.splitext(path)[1].lower()
    if ext in (".glb", ".gltf"):
        bpy.ops.import_scene.gltf(filepath=path)
    elif ext == ".fbx":
        bpy.ops.import_scene.fbx(filepath=path)
    elif ext == ".dae":
        bpy.ops.wm.collada_import(filepath=path)
    else:
        raise SystemExit("blender_reference: cannot import " + path)


def make_tiny_offsets():
    """A rigid model whose meshes sit a fraction of a millimetre from their parent's origin, under
    a parent scaled x100 (as a real robot's armature): the small local translations Assimp drops."""
    parent = bpy.data.objects.new("Parent", None)
    bpy.context.scene.collection.objects.link(parent)
    parent.scale = (100.0, 100.0, 100.0)
    for index, offset in enumerate(((0.0002, 0.0, 0.0001), (0.0, -0.0003, 0.0))):
        bpy.ops.mesh.primitive_cube_add(size=0.001)
        cube = bpy.context.active_object
        cube.name = "Plate%d" % index
        cube.parent = parent
        cube.location = offset
    base = bpy.data.objects.new("Base", None)  # something of the model's size at the origin
    bpy.context.scene.collection.objects.link(base)


def make_shape_keys():
    """A plane with two shape keys whose values are keyed over a second (24 fps): "Smile" lifts
    every vertex, "Blink" moves one corner; their weights differ at every sampled time."""
    bpy.ops.mesh.primitive_plane_add(size=2.0)
    face = bpy.context.active_object
    face.name = "Face"
    face.shape_key_add(name="Basis")
    smile = face.shape_key_add(name="Smile")
    for point in smile.data:
        point.co.z += 0.5
    blink = face.shape_key_add(name="Blink")
    blink.data[0].co.x += 1.0
    scene = bpy.context.scene
    scene.render.fps = 24
    scene.frame_start, scene.frame_end = 1, 25
    for frame, smile_value, blink_value in ((1, 0.2, 0.0), (13, 0.8, 0.5), (25, 0.4, 1.0)):
        smile.value, blink.value = smile_value, blink_value
        smile.keyframe_insert("value", frame=frame)
        blink.keyframe_insert("value", frame=frame)


def clip_start_and_fps_of_shape_keys(starts):
    for key in bpy.data.shape_keys:
        ad = key.animation_data
        if ad and ad.action:
            starts.append(ad.action.frame_range[0])


def export_file(path):
    ext = os.path.splitext(path)[1].lower()
    bpy.ops.object.select_all(action="SELECT")
    if ext == ".fbx":
        # Only the active action (one clip), so that clip 0 means the same in both programs.
        bpy.ops.export_scene.fbx(filepath=path, bake_anim_use_all_actions=False,
                                 bake_anim_use_nla_strips=False, add_leaf_bones=False)
    elif ext == ".dae":
        bpy.ops.wm.collada_export(filepath=path, include_animations=True,
                                  export_animation_type_selection="sample")
    else:
        raise SystemExit("blender_reference: cannot export " + path)


def to_gltf(v):
    # Blender (+Z up, facing -Y) to glTF (+Y up, facing +Z), as Blender's glTF exporter maps it.
    return [v[0], v[2], -v[1]]


def clip_start_and_fps():
    scene = bpy.context.scene
    fps = scene.render.fps / scene.render.fps_base
    starts = []
    for obj in scene.objects:
        ad = obj.animation_data
        if ad and ad.action:
            starts.append(ad.action.frame_range[0])
    clip_start_and_fps_of_shape_keys(starts)
    return (min(starts) if starts else float(scene.frame_start)), fps


def sample(time, collada):
    scene = bpy.context.scene
    start, fps = clip_start_and_fps()
    # A clip's time 0 is the FBX take's start, which Blender puts at the action's first frame;
    # Collada's times are absolute and Blender's Collada importer puts time t at frame t·fps.
    frame = time * fps if collada else start + time * fps
    whole = math.floor(frame)
    scene.frame_set(int(whole), subframe=frame - whole)
    depsgraph = bpy.context.evaluated_depsgraph_get()
    positions = []
    joints = {}
    for obj in scene.objects:
        if obj.type == "MESH":
            evaluated = obj.evaluated_get(depsgraph)
            mesh = evaluated.to_mesh()
            world = evaluated.matrix_world
            positions.extend(to_gltf(world @ v.co) for v in mesh.vertices)
            evaluated.to_mesh_clear()
        elif obj.type == "ARMATURE":
            evaluated = obj.evaluated_get(depsgraph)
            for bone in evaluated.pose.bones:
                joints[bone.name] = to_gltf(evaluated.matrix_world @ bone.head)
    return {"time": time, "frame": frame, "positions": positions, "joints": joints}


def evaluate(path, times):
    reset()
    import_file(path)
    collada = os.path.splitext(path)[1].lower() == ".dae"
    return {"path": path, "samples": [sample(t, collada) for t in times]}


def main():
    argv = sys.argv[sys.argv.index("--") + 1:] if "--" in sys.argv else []
    parser = argparse.ArgumentParser(prog="blender_reference.py")
    parser.add_argument("--out-dir", required=True, help="where the FBX/DAE exports and JSON go")
    parser.add_argument("--times", default="0,0.5", help="clip times in seconds, comma separated")
    parser.add_argument("--json", required=True, help="output JSON file")
    parser.add_argument("sources", nargs="+",
                        help="NAME=FILE: a model to import and export (FILE @tiny: a scene of "
                        "small offsets made here, @shapes: keyed shape keys)")
    args = parser.parse_args(argv)
    times = [float(t) for t in args.times.split(",")]
    os.makedirs(args.out_dir, exist_ok=True)
    files = []
    for source in args.sources:
        name, path = source.split("=", 1)
        reset()
        if path == "@tiny":
            make_tiny_offsets()
        elif path == "@shapes":
            make_shape_keys()
        else:
            import_file(path)
        exported = []
        for ext in (".fbx", ".dae"):
            out = os.path.join(args.out_dir, name + ext)
            export_file(out)
            exported.append(out)
        if os.path.splitext(path)[1].lower() not in (".glb", ".gltf", ""):
            files.append(evaluate(path, times))
        files.extend(evaluate(out, times) for out in exported)
    with open(args.json, "w") as f:
        json.dump({"blender": bpy.app.version_string, "files": files}, f)


main()
