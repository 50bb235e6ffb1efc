#!/usr/bin/env python3
"""Layering check (ctest `layering`): every #include in ik/, assets/, renderer/ and app/ points the
right way, and public headers do not pass third-party headers on to their includers.

  libraries   ik <- assets <- renderer <- app
  inside app  core <- scene <- window <- cli (<- main.cpp); core also has no GL (renderer/)
  third-party no SDL, Dear ImGui or GL in app/core; no SDL or ImGui in renderer; no ImGui in
              app/scene; Assimp only in assets/*.cpp; ik uses glm and the standard library only
  headers     a header includes no third-party header but glm, except the ones listed in
              HEADER_EXCEPTIONS with the reason
  internal    <lib>/internal/ headers are included only from inside <lib>/ (and its tests), so
              they are not public and may use what their library uses

Usage: layering_test.py SOURCE_DIR. Exit 0 when clean; 1 with one line per violation."""

import os
import re
import sys

# Which project folders each room may include (its own included).
ALLOWED = {
    "ik": {"ik"},
    "assets": {"ik", "assets"},
    "renderer": {"ik", "assets", "renderer"},
    "app/core": {"ik", "assets", "app/core"},
    "app/scene": {"ik", "assets", "renderer", "app/core", "app/scene"},
    "app/window": {"ik", "assets", "renderer", "app/core", "app/scene", "app/window"},
    "app/cli": {"ik", "assets", "renderer", "app/core", "app/scene", "app/window", "app/cli"},
    "app": {"ik", "assets", "renderer", "app/core", "app/scene", "app/window", "app/cli"},
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

# Third-party libraries a room may not include at all.
FORBIDDEN = {
    "ik": {"nlohmann", "SDL", "ImGui", "GL", "Assimp", "CLI11", "stb"},
    "assets": {"SDL", "ImGui", "GL", "CLI11"},
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
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def room_of(path):
    """The room of a repository-relative path: ik, assets, renderer, app/<room> or app."""
    parts = path.split("/")
    if parts[0] == "app" and len(parts) > 2:
        return "app/" + parts[1]
    return parts[0]


def third_party(name):
    for lib, pattern in THIRD_PARTY:
        if pattern.match(name):
            return lib
    return None


def header_exception(path, lib):
    return (path, lib) in HEADER_EXCEPTIONS or (room_of(path), lib) in HEADER_EXCEPTIONS


def check_file(path, text):
    problems = []
    room = room_of(path)
    is_header = path.endswith(".h") and "/internal/" not in path
    for number, line in enumerate(text.splitlines(), 1):
        match = INCLUDE.match(line)
        if not match:
            continue
        quote, name = match.groups()
        where = f"{path}:{number}: includes {name}"
        if quote == '"' and "/internal/" in name:
            owner = name.split("/internal/")[0]
            if not path.startswith(owner + "/"):
                problems.append(f"{where}: {owner}/internal/ is for {owner}/ only")
                continue
        if quote == '"':
            target = room_of(name) if name.split("/")[0] in ROOTS else None
            if target and target not in ALLOWED[room]:
                problems.append(f"{where}: {room} may include only "
                                f"{', '.join(sorted(ALLOWED[room]))}")
            continue
        lib = third_party(name)
        if lib is None:
            continue  # the standard library and the system's headers
        if lib in FORBIDDEN[room]:
            problems.append(f"{where}: no {lib} in {room}")
        elif lib == "Assimp" and not path.endswith(".cpp"):
            problems.append(f"{where}: Assimp only in assets/*.cpp")
        elif is_header and lib != "glm" and not header_exception(path, lib):
            problems.append(f"{where}: a header passes {lib} on to everything that includes it")
    return problems


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    source = sys.argv[1]
    problems = []
    checked = 0
    for root in ROOTS:
        for directory, _, files in os.walk(os.path.join(source, root)):
            for name in sorted(files):
                if not name.endswith((".h", ".cpp", ".inc")):
                    continue
                full = os.path.join(directory, name)
                path = os.path.relpath(full, source).replace(os.sep, "/")
                with open(full, encoding="utf-8") as f:
                    problems += check_file(path, f.read())
                checked += 1
    for problem in problems:
        print(problem)
    if checked == 0:
        print(f"layering: no sources under {source}")
        return 1
    print(f"layering: {checked} files, {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
