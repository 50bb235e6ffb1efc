"""skelview check's SARIF output checked against the SARIF 2.1.0 JSON schema (the schema file of
npm's @microsoft/jest-sarif, which scripts/install-deps.sh puts in ~/.cache/skelview/npm, checked
with Debian's python3-jsonschema), and its JUnit output parsed as XML. The report covers files
that do not load (tests/data, a broken file), a name that is not UTF-8, a path with a space, and
the shared models when they are there. Exit code 77 (skipped) without the schema or jsonschema.
Usage: validate_sarif.py SKELVIEW_BINARY"""

import json
import os
import subprocess
import sys
import tempfile
import xml.dom.minidom

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.normpath(os.path.join(HERE, "..", ".."))
SHARED = os.path.normpath(os.path.join(SOURCE, "..", "shared", "models"))
SCHEMA = "sarif-2.1.0-rtm.5.json"


def schema_path():
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    path = os.path.join(cache, "skelview", "npm", "node_modules", "@microsoft", "jest-sarif",
                        "lib", "schemas", SCHEMA)
    return path if os.path.isfile(path) else None


def import_jsonschema():
    try:
        import jsonschema  # noqa: F401 (Debian's python3-jsonschema, or any other)
        return jsonschema
    except ImportError:
        # The first python3 on PATH may not be Debian's: try Debian's, which has the package.
        debian = "/usr/bin/python3"
        if os.path.exists(debian) and os.path.realpath(sys.executable) != os.path.realpath(debian):
            os.execv(debian, [debian] + sys.argv)
        return None


def main():
    binary = sys.argv[1]
    schema_file = schema_path()
    jsonschema = import_jsonschema()
    if not schema_file or not jsonschema:
        print("skipped: the SARIF 2.1.0 schema (npm's @microsoft/jest-sarif in "
              "~/.cache/skelview/npm) or python3-jsonschema is missing; scripts/install-deps.sh "
              "installs both")
        return 77
    with open(schema_file, encoding="utf-8") as f:
        schema = json.load(f)
    work = tempfile.mkdtemp(prefix="skelview-sarif-")
    models = os.path.join(work, "models with space")
    os.makedirs(models)
    with open(os.path.join(models, "broken.glb"), "wb") as f:
        f.write(b"glTF and then nothing")
    with open(os.path.join(models, "latin1.obj"), "wb") as f:
        f.write(b"o caf\xe9\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    env = dict(os.environ, SDL_VIDEODRIVER="offscreen")
    export = subprocess.run([binary, "export", "-o", os.path.join(models, "builtin.glb")],
                            capture_output=True, text=True, env=env, timeout=300)
    if export.returncode != 0:
        print(f"skelview export failed: {export.stderr}")
        return 1
    inputs = [models, os.path.join(SOURCE, "tests", "data")]
    if os.path.isdir(SHARED):
        inputs.append(SHARED)
    else:
        print(f"note: {SHARED} is missing; the report covers the other files only")
    failures = []
    sarif_path = os.path.join(work, "report.sarif")
    run = subprocess.run([binary, "check", "--format", "sarif", "-o", sarif_path] + inputs,
                         capture_output=True, text=True, env=env, timeout=600)
    if run.returncode != 1:
        failures.append(f"check exited {run.returncode} (expected 1: files do not load): "
                        f"{run.stderr.strip()}")
    with open(sarif_path, encoding="utf-8") as f:
        log = json.load(f)
    validator = jsonschema.Draft4Validator(schema)
    errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
    for error in errors[:20]:
        failures.append(f"schema: {'/'.join(str(p) for p in error.path)}: {error.message}")
    results = log["runs"][0]["results"]
    rules = {r["ruleId"] for r in results}
    for expected in ("load", "names.not-utf8"):
        if expected not in rules:
            failures.append(f"no {expected} result in the report")
    if not any("logicalLocations" in r["locations"][0] for r in results):
        failures.append("no result with a logical location")
    if not any("%20" in r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
               for r in results):
        failures.append("the path with a space is not percent-encoded")
    junit_path = os.path.join(work, "report.xml")
    subprocess.run([binary, "check", "--format", "junit", "-o", junit_path] + inputs,
                   capture_output=True, env=env, timeout=600)
    try:
        document = xml.dom.minidom.parse(junit_path)
        cases = document.getElementsByTagName("testcase")
        if len(cases) != len(log["runs"][0]["artifacts"]):
            failures.append(f"JUnit has {len(cases)} testcases for "
                            f"{len(log['runs'][0]['artifacts'])} files")
    except Exception as e:  # noqa: BLE001 (any parse error is the failure to report)
        failures.append(f"JUnit XML does not parse: {e}")
    if failures:
        print("\n".join(failures))
        return 1
    print(f"SARIF 2.1.0 schema: {len(results)} results over "
          f"{len(log['runs'][0]['artifacts'])} files valid; JUnit XML parses")
    return 0


if __name__ == "__main__":
    sys.exit(main())
