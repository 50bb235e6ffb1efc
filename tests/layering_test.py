#!/usr/bin/env python3
"""Layering check (ctest `layering`): every #include in ik/, assets/, renderer/ and app/ points the
right way, private headers stay in their room, and public headers do not pass third-party headers
on to their includers. docs/architecture.md draws the same map.

  libraries   ik <- assets <- renderer <- app
  rooms       each library folder is split into rooms (its subfolders; assets/ keeps the importer
              facade at its root). ALLOWED says which rooms a room may include, directly or
              through a header: a header of an allowed room that passes on a room the includer
              may not include is a violation too (the chain is named)
  inside app  core <- scene <- window <- cli (<- main.cpp); core also has no GL (renderer/)
  third-party no SDL, Dear ImGui or GL in app/core; no SDL or ImGui in renderer; no ImGui in
              app/scene; Assimp only in the .cpp files of assets/assimp/ and the facade; JSON only
              in assets/gltf/ and assets/export/ (and app/); ik uses glm and the standard library
  headers     a public header includes no third-party header but glm, except the ones listed in
              HEADER_EXCEPTIONS with the reason
  private     PRIVATE lists the headers that are not public: "room" ones are included only from
              their own room, "library" ones only from their own library (both also from the
              tests, which this check does not read); a public header includes none of them (it
              would pass them on), and they may use what their room uses. .inc files are
              private to their room. There are no internal/ folders.

Usage: layering_test.py SOURCE_DIR. Exit 0 when clean; 1 with one line per violation."""

import os
import re
import sys

IK = {"ik/core", "ik/two_bone", "ik/limits", "ik/chains", "ik/body"}
ASSETS = {"assets/model", "assets/files", "assets/gltf", "assets/assimp", "assets/export",
          "assets/builtin", "assets"}
APP_BELOW_CLI = {"app/core", "app/scene", "app/window", "app/cli"}

# Which rooms each room may include, directly or through a header (its own is always allowed).
# "assets" is the importer facade at the root of assets/ (importer.h, formats.h).
ALLOWED = {
    # ik: core <- two_bone <- limits <- {chains, body}
    "ik/core": set(),
    "ik/two_bone": {"ik/core"},
    "ik/limits": {"ik/core", "ik/two_bone"},
    "ik/chains": {"ik/core", "ik/two_bone", "ik/limits"},
    "ik/body": {"ik/core", "ik/two_bone", "ik/limits"},
    # assets: model <- files <- gltf <- {assimp, export}; model <- builtin; all <- facade
    "assets/model": IK,
    "assets/files": IK | {"assets/model"},
    "assets/gltf": IK | {"assets/model", "assets/files"},
    "assets/assimp": IK | {"assets/model", "assets/files", "assets/gltf"},
    "assets/export": IK | {"assets/model", "assets/files", "assets/gltf"},
    "assets/builtin": IK | {"assets/model"},
    "assets": IK | ASSETS,
    # the other libraries see the public headers of every ik and assets room
    "renderer": IK | ASSETS,
    "app/core": IK | ASSETS,
    "app/scene": IK | ASSETS | {"renderer", "app/core"},
    "app/window": IK | ASSETS | {"renderer", "app/core", "app/scene"},
    "app/cli": IK | ASSETS | {"renderer", "app/core", "app/scene", "app/window"},
    "app": IK | ASSETS | {"renderer"} | APP_BELOW_CLI,
}

# Headers that are not public, by repository path: "room" (its own room only) or "library" (any
# room of its library, as ALLOWED permits). Everything else in a room is public.
PRIVATE = {
    "ik/core/constraint_util.h": "library",
    "ik/two_bone/two_bone_ik_internal.h": "room",
    "ik/two_bone/two_bone_ik_fast_io.h": "room",
    "ik/chains/fabrik_internal.h": "room",
    "ik/body/full_body_solve.h": "room",
    "ik/body/full_body_step.h": "room",
    "assets/model/mesh_cleanup.h": "library",
    "assets/files/messages.h": "library",
    "assets/files/model_files.h": "library",
    "assets/files/load_progress.h": "library",
    "assets/files/model_io_stream.h": "room",
    "assets/gltf/gltf_document.h": "library",
    "assets/gltf/gltf_reader.h": "library",
    "assets/gltf/gltf_reader_steps.h": "room",
    "assets/gltf/gltf_writer.h": "library",
    "assets/gltf/model_builder.h": "library",
    "assets/gltf/vrm.h": "library",
    "assets/assimp/collada_morphs.h": "library",
    "assets/assimp/collada_morph_scan.h": "room",
    "assets/assimp/collada_weight_curves.h": "room",
    "assets/assimp/declared_counts.h": "library",
    "assets/assimp/fbx_properties.h": "library",
    "assets/assimp/import_clips.h": "library",
    "assets/assimp/scene_converter.h": "library",
    "assets/assimp/scene_frame.h": "library",
    "assets/assimp/scene_morphs.h": "room",
    "assets/export/export_plan.h": "room",
    "assets/builtin/isosurface.h": "room",
    "assets/model_names.h": "room",
    "app/core/retarget_rig.h": "room",
    "app/core/session_text.h": "room",
    "app/core/session_fields.h": "room",
    "app/window/panels/timeline_draw.h": "room",
}

# Third-party libraries, by how their headers are included.
THIRD_PARTY = [
    ("glm", re.compile(r"glm/")),
    ("nlohmann", re.compile(r"nlohmann/")),
    ("SDL", re.compile(r"SDL2?/|SDL[_.]")),
    ("ImGui", re.compile(r"imgui|backends/imgui")),
    ("GL", re.compile(r"glad/|GL/|KHR/|EGL/")),
    ("Assimp", re.compile(r"assimp/")),
    ("CLI11", re.compile(r"CLI/")),
    ("stb", re.compile(r"stb_|stb/")),
]

NOT_IK = {"nlohmann", "SDL", "ImGui", "GL", "Assimp", "CLI11", "stb"}
NOT_ASSETS = {"SDL", "ImGui", "GL", "CLI11"}
# Third-party libraries a room may not include at all.
FORBIDDEN = {
    **{room: NOT_IK for room in IK},
    "assets/model": NOT_ASSETS | {"Assimp", "nlohmann", "stb"},
    "assets/files": NOT_ASSETS | {"Assimp", "nlohmann"},
    "assets/gltf": NOT_ASSETS | {"Assimp"},
    "assets/assimp": NOT_ASSETS | {"nlohmann"},
    "assets/export": NOT_ASSETS | {"Assimp"},
    "assets/builtin": NOT_ASSETS | {"Assimp", "nlohmann", "stb"},
    "assets": NOT_ASSETS,
    "renderer": {"SDL", "ImGui", "Assimp", "CLI11"},
    "app/core": {"SDL", "ImGui", "GL", "Assimp", "CLI11", "stb"},
    "app/scene": {"ImGui", "Assimp", "CLI11"},
    "app/window": {"Assimp", "CLI11"},
    "app/cli": {"Assimp", "ImGui"},
    "app": {"Assimp"},
}

# Headers that may include a third-party header besides glm, and why.
HEADER_EXCEPTIONS = {
    # The GL layer's own types.
    ("renderer", "GL"): "renderer/ is the one layer that speaks GL",
    # The JSON documents of the command line and the trace are the interface of these headers.
    ("app/core/json_output.h", "nlohmann"): "the command line's JSON documents",
    ("app/core/trace.h", "nlohmann"): "the --trace writer takes JSON objects",
    ("app/core/trace_events.h", "nlohmann"): "the --trace events are JSON objects",
}

ROOTS = ["ik", "assets", "renderer", "app"]
ROOMED = {"ik", "assets", "app"}  # libraries whose subfolders are rooms
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def room_of(path):
    """The room of a repository-relative path: ik/<room>, assets/<room>, assets (the facade),
    renderer, app/<room> or app."""
    parts = path.split("/")
    if parts[0] in ROOMED and len(parts) > 2:
        return parts[0] + "/" + parts[1]
    return parts[0]


def library_of(path):
    return path.split("/")[0]


def privacy(path):
    """None for a public header, else "room" or "library"."""
    if path.endswith(".inc"):
        return "room"
    return PRIVATE.get(path)


def third_party(name):
    for lib, pattern in THIRD_PARTY:
        if pattern.match(name):
            return lib
    return None


def header_exception(path, lib):
    return (path, lib) in HEADER_EXCEPTIONS or (room_of(path), lib) in HEADER_EXCEPTIONS


def may_include(room, target):
    return target == room or target in ALLOWED[room]


def project_includes(text):
    """(line number, name) of every "..." include of a project folder."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        match = INCLUDE.match(line)
        if match and match.group(1) == '"' and match.group(2).split("/")[0] in ROOTS:
            found.append((number, match.group(2)))
    return found


def check_file(path, text):
    """Violations of the rules one file breaks by its own includes."""
    problems = []
    if "/internal/" in path:
        problems.append(f"{path}: internal/ folders are gone: a private header lives beside its "
                        "room's sources and is listed in PRIVATE")
    room = room_of(path)
    if room not in ALLOWED:
        return problems + [f"{path}: not in a room of its library (see ALLOWED)"]
    private_self = privacy(path)
    is_public_header = path.endswith(".h") and private_self is None
    for number, line in enumerate(text.splitlines(), 1):
        match = INCLUDE.match(line)
        if not match:
            continue
        quote, name = match.groups()
        where = f"{path}:{number}: includes {name}"
        if quote == '"':
            if name.split("/")[0] not in ROOTS:
                continue
            target = room_of(name)
            if not may_include(room, target):
                allowed = ", ".join(sorted(ALLOWED[room] | {room}))
                problems.append(f"{where}: {room} may include only {allowed}")
                continue
            scope = privacy(name)
            if scope == "room" and target != room:
                problems.append(f"{where}: private to {target}/")
            elif scope == "library" and library_of(name) != library_of(path):
                problems.append(f"{where}: private to {library_of(name)}/")
            elif scope and is_public_header:
                problems.append(f"{where}: a public header passes on a private one")
            continue
        lib = third_party(name)
        if lib is None:
            continue  # the standard library and the system's headers
        if lib in FORBIDDEN[room]:
            problems.append(f"{where}: no {lib} in {room}")
        elif lib == "Assimp" and not path.endswith(".cpp"):
            problems.append(f"{where}: Assimp only in .cpp files")
        elif is_public_header and lib != "glm" and not header_exception(path, lib):
            problems.append(f"{where}: a header passes {lib} on to everything that includes it")
    return problems


def check_passed_on(files):
    """Includes that bring in, through a header, a room the includer may not include. `files`
    maps repository paths to their text."""
    includes = {path: project_includes(text) for path, text in files.items()}
    problems = []
    for path in sorted(files):
        room = room_of(path)
        if room not in ALLOWED:
            continue
        for number, name in includes[path]:
            if not may_include(room, room_of(name)):
                continue  # check_file reports the direct include
            # Every project header `name` brings in, with the chain that brings it.
            seen = {name}
            stack = [(name, [name])]
            while stack:
                header, chain = stack.pop()
                for _, inner in includes.get(header, []):
                    if inner in seen:
                        continue
                    seen.add(inner)
                    target = room_of(inner)
                    if not may_include(room, target):
                        via = " -> ".join(chain + [inner])
                        problems.append(f"{path}:{number}: includes {name}, which passes on "
                                        f"{inner} ({via}): {room} may not include {target}")
                        continue
                    stack.append((inner, chain + [inner]))
    return problems


def check_table():
    """The room graph itself: every room known, and no cycle (includes go one way)."""
    problems = []
    for room, targets in ALLOWED.items():
        for target in targets:
            if target not in ALLOWED:
                problems.append(f"ALLOWED[{room!r}] names unknown room {target!r}")
    state = {}

    def visit(room, path):
        if state.get(room) == "done":
            return
        if state.get(room) == "open":
            problems.append("ALLOWED has a cycle: " + " -> ".join(path + [room]))
            return
        state[room] = "open"
        for target in sorted(ALLOWED.get(room, ())):
            if target != room:
                visit(target, path + [room])
        state[room] = "done"

    for room in sorted(ALLOWED):
        visit(room, [])
    for header in PRIVATE:
        if room_of(header) not in ALLOWED:
            problems.append(f"PRIVATE names {header}, which is in no room")
    return problems


def read_tree(source):
    files = {}
    for root in ROOTS:
        for directory, _, names in os.walk(os.path.join(source, root)):
            for name in sorted(names):
                if not name.endswith((".h", ".cpp", ".inc")):
                    continue
                full = os.path.join(directory, name)
                path = os.path.relpath(full, source).replace(os.sep, "/")
                with open(full, encoding="utf-8") as f:
                    files[path] = f.read()
    return files


def check_tree(source):
    """(number of files checked, violations) for the tree under `source`."""
    files = read_tree(source)
    problems = check_table()
    for path in sorted(files):
        problems += check_file(path, files[path])
    problems += check_passed_on(files)
    for header in sorted(PRIVATE):
        if header not in files:
            problems.append(f"PRIVATE names {header}, which does not exist")
    return len(files), problems


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    checked, problems = check_tree(sys.argv[1])
    for problem in problems:
        print(problem)
    if checked == 0:
        print(f"layering: no sources under {sys.argv[1]}")
        return 1
    print(f"layering: {checked} files, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
