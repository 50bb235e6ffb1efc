"""End-to-end test of posing and animating on rigs other than the built-in character, in a real
window under Xvfb driven by the mouse and keyboard: CesiumMan (joints without names, sides from
the rig's symmetry; skipped when the shared models are absent) and a Mixamo-style rig
("mixamorig:" names, written by the write_mixamo_rig test tool). Per rig, in one window (and the
session reopened in a second): R and the mouse turn a hip, Escape puts it back, typed digits give
degrees, a click confirms, Alt+R clears; the leg's pole marker is dragged; the leg's target is
dragged and keyed with I at two times and the keyed motion plays between them; the pose is copied,
mirrored, and pasted flipped; the rotate gizmo is set to local axes; Ctrl+S saves a session which,
reopened, restores the targets, keys, time and gizmo; an edit marks the title; the model written
again on disk reloads by itself keeping the edits; Animation > Generate range of motion makes
the clip. The built-in character's runs of the same steps are rotate_test, keys_test and
session_test. Usage: rig_workflow_test.py SKELVIEW_BINARY. Exit code 77 means skipped."""

import json
import math
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xvfb_session as xs  # noqa: E402
import rotate_test  # noqa: E402  (its steps, not its tests: only the module is imported)
from rotate_test import turn_degrees  # noqa: E402

CESIUM_MAN = "khronos-glTF-Sample-Models/CesiumMan/glTF-Binary/CesiumMan.glb"
HEADLESS = dict(os.environ, SDL_VIDEODRIVER="offscreen")


def target(event, end):
    return next(c["target"] for c in event["chains"] if c["end"] == end)


def between(value, a, b, slack):
    return all(min(x, y) - slack <= v <= max(x, y) + slack for v, x, y in zip(value, a, b))


class RigWorkflowTest(xs.XvfbTestCase):
    def headless_json(self, *args):
        out = subprocess.run([self.binary, *args], capture_output=True, text=True,
                             timeout=xs.EVENT_TIMEOUT, env=HEADLESS)
        self.assertEqual(out.returncode, 0, out.stderr)
        return json.loads(out.stdout)

    def workflow(self, model):
        """The whole workflow on `model` (a file in this test's scratch folder)."""
        info = self.headless_json("info", "--json", model)
        legs = [limb for limb in info["limbs"] if limb["kind"] == "leg"]
        self.assertEqual(len(legs), 2, info["limbs"])
        leg, other = legs
        # The leg's target pinned at its foot at time 0, a pole in front of its knee.
        pose = self.headless_json("pose", model, "--anim", "0", "--time", "0")
        world = {j["name"]: j["world"] for j in pose["joints"]}
        hip, knee, foot = (world[leg[k]] for k in ("start", "mid", "end"))
        length = math.dist(hip, knee) + math.dist(knee, foot)
        bend = [k - (h + f) / 2 for h, k, f in zip(hip, knee, foot)]
        norm = math.sqrt(sum(v * v for v in bend))
        forward = [v / norm for v in bend] if norm > 1e-6 * length else [0.0, 0.0, 1.0]
        pole = [k + 0.6 * length * d for k, d in zip(knee, forward)]
        spec = "%s=%r,%r,%r,pole=%r,%r,%r,nohinge" % (leg["end"], *foot, *pole)
        viewer = self.start([model, "--anim", "0", "--time", "0", "--show", "mesh,grid,bones,handles,knees",
                             "--ik", spec], size="1000x700")
        ready = viewer.wait_event("ready")
        viewer.find_window()
        name = os.path.basename(model)

        # --- R: turn the other leg's hip with the mouse and typed digits ----------------------
        built_in = rotate_test.RotateTest  # select, start_rotate, sweep: the built-in's steps
        head = built_in.select(self, viewer, ready, other["start"], other["mid"])

        def start_rotate():
            built_in.start_rotate(self, viewer, head)

        def sweep(degrees=90, n=9):  # counterclockwise on screen about the hip
            built_in.sweep(self, viewer, head, degrees=degrees, steps=n)

        start_rotate()
        sweep()
        viewer.key("Escape")
        cancel = viewer.wait_event("rotate_cancel")
        self.assertEqual(cancel["joint"], other["start"])
        self.assertEqual(cancel["rotation"], cancel["before"])
        self.assertIsNone(cancel["offset"])
        rest = cancel["rotation"]
        start_rotate()
        sweep(60, 6)
        viewer.key("3")
        viewer.key("0")
        viewer.key("Return")
        typed = viewer.wait_event("rotate_end")
        self.assertEqual((typed["joint"], typed["axis"], typed["degrees"]),
                         (other["start"], "view", 30))
        self.assertAlmostEqual(turn_degrees(rest, typed["rotation"]), 30.0, delta=0.05)
        start_rotate()
        sweep()
        viewer.click(head[0], head[1] - 110)
        mouse = viewer.wait_event("rotate_end")
        self.assertEqual(mouse["by"], "key")
        self.assertAlmostEqual(mouse["degrees"], 90.0, delta=3.0)
        self.assertAlmostEqual(turn_degrees(typed["rotation"], mouse["rotation"]),
                               mouse["degrees"], delta=0.05)
        viewer.key("alt+r")
        clear = viewer.wait_event("rotate_clear")
        self.assertIsNone(clear["offset"])
        self.assertLess(math.dist(clear["rotation"], rest), 1e-5)
        # The rotate gizmo on the hip: global, local axes, off again (its rings would catch the
        # drags below).
        viewer.key("shift+r")
        gizmo = viewer.wait_event("rotate_gizmo")
        self.assertEqual((gizmo["mode"], gizmo["joint"]), ("global", other["start"]))
        viewer.screenshot(os.path.join(self.shots, f"{name}-gizmo.png"))
        viewer.key("shift+r")
        self.assertEqual(viewer.wait_event("rotate_gizmo")["mode"], "local")
        viewer.key("shift+r")
        self.assertEqual(viewer.wait_event("rotate_gizmo")["mode"], "off")

        # --- the pole marker is a handle: drag it, the knee follows --------------------------
        chain = next(c for c in ready["chains"] if c["end"] == leg["end"])
        self.assertIsNotNone(chain["pole_px"])
        x0, y0 = chain["pole_px"]
        viewer.drag(x0, y0, x0 + 60, y0 + 25)
        pole_drag = viewer.wait_event("drag_end")
        self.assertEqual((pole_drag["part"], pole_drag["end"]), ("pole", leg["end"]))
        self.assertAlmostEqual(pole_drag["pole_px"][0], x0 + 60, delta=1.5)
        self.assertAlmostEqual(pole_drag["pole_px"][1], y0 + 25, delta=1.5)
        self.assertGreater(math.dist(pole_drag["options"]["pole"], pole), 1e-3 * length)
        self.assertGreater(math.dist(pole_drag["mid_after"], pole_drag["mid_before"]),
                           1e-3 * length, "the knee did not follow the pole")

        # --- keys: drag the target, I at time 0; later, drag again (keyed there) and I --------
        # A click on nothing deselects the hip: the timeline shows the chains' lanes again.
        box = ready["model_px"]["box"]
        viewer.click(min(box[2] + 100, ready["window"][0] - 60), box[1] + 0.25 * (box[3] - box[1]))
        self.assertIsNone(viewer.wait_event("select")["joint"])
        x1, y1 = pole_drag["handle_px"]
        viewer.drag(x1, y1, x1 + 30, y1 - 40)
        first = viewer.wait_event("drag_end")
        self.assertEqual((first["part"], first["end"]), ("center", leg["end"]))
        viewer.key("i")
        key0 = viewer.wait_event("key_set")
        self.assertEqual((key0["end"], key0["time"], key0["keys"]), (leg["end"], 0, [0]))
        # One frame on (I there tells its length, X takes that key away), then to about 0.4 s.
        viewer.key("Right")
        viewer.key("i")
        dt = viewer.wait_event("key_set")["time"]
        self.assertGreater(dt, 0.0)
        viewer.key("x")
        self.assertEqual(viewer.wait_event("key_deleted")["keys"], [0])
        n = max(1, round(0.4 / dt))
        for _ in range(n - 1):
            viewer.key("Right")
        viewer.wait_frames()
        x2, y2 = first["handle_px"]
        viewer.drag(x2, y2, x2 - 50, y2 + 30)
        second = viewer.wait_event("drag_end")
        moved = viewer.wait_event("key_set")  # a keyed target is keyed where it is moved
        self.assertAlmostEqual(moved["time"], n * dt, places=4)
        viewer.key("i")
        key1 = viewer.wait_event("key_set")
        self.assertEqual(len(key1["keys"]), 2)
        a, b, t1 = first["target"], second["target"], key1["time"]
        self.assertGreater(math.dist(a, b), 0.02 * length)
        shot = viewer.screenshot(os.path.join(self.shots, f"{name}-keyed-timeline.png"))
        strip = xs.crop(shot, (0, 560, 1000, 140), os.path.join(self.shots, "strip.png"))
        self.assertGreater(
            xs.count_pixels(strip, lambda r, g, b_: r > 0.9 and 0.45 < g < 0.62 and b_ < 0.35), 20,
            "no key diamonds (orange) on the timeline")
        # Played from the first key: paused on the way, the target is where the keys say
        # (between them, or held at the last one); a key set there reports it, X deletes it.
        for _ in range(n):
            viewer.key("Left")
        viewer.key("space")
        time.sleep(0.4)
        viewer.key("space")
        viewer.wait_frames()
        viewer.key("i")
        played = viewer.wait_event("key_set")
        self.assertGreater(played["time"], 0.0, "the clip did not play")
        slack = 1e-4 * length
        if played["time"] < t1 - 1e-3:
            self.assertTrue(between(played["target"], a, b, slack), (played, a, b))
            self.assertGreater(min(math.dist(played["target"], a),
                                   math.dist(played["target"], b)), slack)
        else:
            self.assertLess(math.dist(played["target"], b), slack, (played, b))
        if len(played["keys"]) == 3:  # not on a key: take it away again
            viewer.key("x")
            self.assertEqual(len(viewer.wait_event("key_deleted")["keys"]), 2)
        # To a frame between the keys for the mirror and the session (on the second key when
        # the clip has no frame between: the Mixamo-style rig's is keyed twice a second).
        at, m = played["time"] / dt, (n // 2 if n >= 2 else n)
        # As the arrows step (app/core/playback.h): from off the frame grid, to the frame beside.
        on_grid = abs(at - round(at)) < 1e-3
        if m >= at:
            steps = m - (round(at) if on_grid else math.floor(at))
        else:
            steps = -((round(at) if on_grid else math.ceil(at)) - m)
        for _ in range(abs(steps)):
            viewer.key("Right" if steps > 0 else "Left")
        viewer.wait_frames()

        # --- copy, mirror, undo, paste flipped -----------------------------------------------
        viewer.key("ctrl+c")
        self.assertEqual(viewer.wait_event("copy_pose")["joints"], len(info["joints"]))
        viewer.key("ctrl+m")
        mirrored = viewer.wait_event("mirror")
        self.assertGreaterEqual(mirrored["pairs_by_name"] + mirrored["pairs_by_symmetry"], 6)
        if "mixamorig:" in leg["end"]:
            self.assertGreaterEqual(mirrored["pairs_by_name"], 6)
        else:
            self.assertEqual(mirrored["pairs_by_name"], 0)
        viewer.key("ctrl+z")
        undone = viewer.wait_event("undo")
        viewer.key("ctrl+shift+v")
        flipped = viewer.wait_event("paste_flipped")
        arms = [c["end"] for c in ready["chains"] if c["end"] not in (leg["end"], other["end"])]
        self.assertGreaterEqual(len(arms), 2)
        moved_by_flip = 0.0
        for end in arms:  # targets on their effectors: where the mirror put them
            self.assertLess(math.dist(target(flipped, end), target(mirrored, end)),
                            0.01 * length, end)
            moved_by_flip = max(moved_by_flip, math.dist(target(flipped, end),
                                                         target(undone, end)))
        self.assertGreater(moved_by_flip, 1e-3 * length, "pasting flipped changed nothing")
        viewer.screenshot(os.path.join(self.shots, f"{name}-pasted-flipped.png"))

        # --- Ctrl+S saves a session beside the model; reopened, it is all back ---------------
        viewer.key("shift+r")  # the rotate gizmo on, with local axes: the session keeps it
        viewer.key("shift+r")
        self.assertEqual(xs.named(viewer.events(), "rotate_gizmo")[-1]["mode"], "local")
        viewer.key("ctrl+s")
        viewer.wait_frames()
        viewer.key("Return")
        saved = viewer.wait_event("session_saved")
        self.assertTrue(saved["ok"], saved)
        session = os.path.splitext(model)[0] + ".skelview"
        self.assertEqual(os.path.abspath(saved["path"]), session)
        with open(session) as f:
            doc = json.load(f)
        self.assertEqual(doc["model"], name)
        self.assertEqual(doc["display"]["rotate_gizmo"], "local")
        keyed = [c for c in doc["chains"] if c["target"].get("keys")]
        self.assertEqual(len(keyed), 1, doc["chains"])
        self.assertEqual(len(keyed[0]["target"]["keys"]), 2)
        self.assertEqual(viewer.quit(), 0)
        # settings.json remembers the gizmo too; set off there, the session's must win below.
        settings_path = os.path.join(self.xvfb.config_dir, "skelview", "settings.json")
        with open(settings_path) as f:
            settings = json.load(f)
        self.assertEqual(settings["display"]["rotate_gizmo"], "local")
        settings["display"]["rotate_gizmo"] = "off"
        with open(settings_path, "w") as f:
            json.dump(settings, f)

        again = self.start([session], size="1000x700")
        ready2 = again.wait_event("ready")
        again.find_window()
        self.assertAlmostEqual(ready2["anim"]["time"], doc["animation"]["time"], places=4)
        self.assertAlmostEqual(ready2["anim"]["time"], m * dt, places=3)
        for c in flipped["chains"]:
            self.assertLess(math.dist(target(ready2, c["end"]), c["target"]), 1e-4 * length,
                            c["end"])
        for key in ("mesh", "grid", "bones", "handles", "knees", "limits"):  # the display too
            self.assertEqual(ready2["display"][key], doc["display"][key], key)
        self.assertEqual(again.wait_event("rotate_gizmo")["mode"], "local")
        again.screenshot(os.path.join(self.shots, f"{name}-reopened.png"))
        again.key("shift+r")  # off: its rings would catch the drag
        self.assertEqual(again.wait_event("rotate_gizmo")["mode"], "off")
        # The keys came back: a drag of the keyed chain's handle keys it there (a third key,
        # or the second one replaced).
        keyed_end = keyed[0]["joints"]["end"]
        hx, hy = next(c for c in ready2["chains"] if c["end"] == keyed_end)["handle_px"]
        again.drag(hx, hy, hx + 8, hy)
        again.wait_event("drag_end")
        reopened_key = again.wait_event("key_set")
        self.assertEqual(reopened_key["end"], keyed_end)
        self.assertEqual(len(reopened_key["keys"]), 3 if 0 < m < n else 2)

        # --- The title marks the unsaved edit; the model re-written on disk reloads itself -----
        session_name = os.path.basename(session)
        xs.wait_until(lambda: (xs.named(again.events(), "title") or [{}])[-1].get("title", "")
                      .startswith(session_name + "*"), xs.EVENT_TIMEOUT,
                      f"the title {session_name}* after an edit", alive=again.alive)
        time.sleep(1.1)  # a new modification time even on a coarse clock
        with open(model, "rb") as f:
            data = f.read()
        with open(model, "wb") as f:  # as an artist's re-export writes it
            f.write(data)
        done = again.wait_event("load_done")
        while not done.get("reload"):
            done = again.wait_event("load_done")
        self.assertEqual(done["changes"], {"added": [], "removed": [], "renamed": {}})
        for c in done["targets"]:  # the targets (and the new key) kept, by joint names
            if c["end"] == keyed_end:
                self.assertLess(math.dist(c["target"], reopened_key["target"]), 1e-3 * length)

        # --- Animation > Generate range of motion --------------------------------------------
        mx, my = ready2["ui"]["animation_menu_px"]
        again.click(mx, my)
        again.wait_frames()
        again.click(mx + 20, 2 * my + ready2["ui"]["font_px"] * 0.5 + 4)
        rom = again.wait_event("range_of_motion")
        self.assertEqual(rom["name"], "Range of motion")
        self.assertGreater(rom["duration"], 1.0)
        self.assertGreaterEqual(rom["channels"], 6)
        again.screenshot(os.path.join(self.shots, f"{name}-range-of-motion.png"))
        self.assertEqual(again.quit(), 0)

    def test_cesium_man(self):
        source = xs.shared_model(CESIUM_MAN)
        if not source:
            self.skipTest(f"shared test model {CESIUM_MAN} not found under "
                          f"{xs.shared_models_dir()} (set SKELVIEW_MODELS to its directory)")
        model = os.path.join(self.shots, "CesiumMan.glb")  # the session is saved beside it
        shutil.copyfile(source, model)
        self.workflow(model)

    def test_mixamo_rig(self):
        writer = os.environ.get("SKELVIEW_MIXAMO_WRITER")
        if not writer:
            self.skipTest("SKELVIEW_MIXAMO_WRITER (the write_mixamo_rig test tool) is not set; "
                          "ctest sets it")
        model = os.path.join(self.shots, "mixamo-rig.gltf")
        subprocess.run([writer, model], check=True, timeout=xs.EVENT_TIMEOUT)
        self.workflow(model)


if __name__ == "__main__":
    xs.run_tests()
