"""End-to-end tests of posing and sessions in the window under Xvfb, driven as a user drives it:
Ctrl+M mirrors the pose (the dragged left foot's target lands on the right foot, reflected), Ctrl+C
then Ctrl+Shift+V pastes the copied pose flipped (the same mirror image), Ctrl+S saves a session
(NAME.skelview) and opening it again restores the targets; every display field and the camera
a session holds come back as saved, opened at the start and dropped on an open window; the title
names the file and marks unsaved edits with *; CesiumMan (no sides in its joint names) mirrors
by symmetry and twice gives its pose back; re-exporting the model on disk reloads it by itself
keeping the dragged target (not with --no-watch); Animation > Generate range of motion plays
the generated clip.
Usage: session_test.py SKELVIEW_BINARY. Exit code 77 means skipped (a tool is missing)."""

import json
import math
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xvfb_session as xs  # noqa: E402

DASH = "\u2014"


def target(event, end):
    return next(c["target"] for c in event["chains"] if c["end"] == end)


def reflected(p):
    return [-p[0], p[1], p[2]]  # the built-in character's sides mirror across x = 0


class SessionTest(xs.XvfbTestCase):
    def export_character(self, name):
        path = os.path.join(self.shots, name)
        subprocess.run([self.binary, "export", "-o", path], check=True, timeout=xs.EVENT_TIMEOUT,
                       env=dict(os.environ, SDL_VIDEODRIVER="offscreen"))
        return path

    def title(self, viewer):
        """The window's title as the window manager reads it (_NET_WM_NAME, UTF-8; with no xprop,
        as the viewer's `title` events say it set it)."""
        if shutil.which("xprop"):
            out = subprocess.run(["xprop", "-id", viewer.window, "_NET_WM_NAME"],
                                 env=viewer.xvfb.env(), capture_output=True, text=True,
                                 timeout=30).stdout
            return out.split(" = ", 1)[1].strip().strip('"') if " = " in out else None
        titles = xs.named(viewer.events(), "title")
        return titles[-1]["title"] if titles else None

    def wait_title(self, viewer, expected):
        xs.wait_until(lambda: self.title(viewer) == expected, xs.EVENT_TIMEOUT,
                      f"the title {expected!r}", alive=viewer.alive)

    def drag_left_foot(self, viewer, ready):
        foot = next(c for c in ready["chains"] if c["end"] == "LeftFoot")
        x0, y0 = foot["handle_px"]
        viewer.drag(x0, y0, x0 + 40, y0 - 60)
        return viewer.wait_event("drag_end")

    def assert_near(self, a, b, delta, what):
        self.assertLess(math.dist(a, b), delta, f"{what}: {a} vs {b}")

    def test_mirror_paste_flipped_save_session_and_reopen_it(self):
        model = self.export_character("hero.glb")
        viewer = self.start([model], size="1000x620")
        ready = viewer.wait_event("ready")
        viewer.find_window()
        self.wait_title(viewer, f"hero.glb {DASH} skelview")
        drag = self.drag_left_foot(viewer, ready)
        self.assertEqual(drag["end"], "LeftFoot")
        self.wait_title(viewer, f"hero.glb* {DASH} skelview")
        left = drag["effector"]

        viewer.key("ctrl+c")
        self.assertGreater(viewer.wait_event("copy_pose")["joints"], 20)
        viewer.key("ctrl+m")
        mirrored = viewer.wait_event("mirror")
        self.assertGreaterEqual(mirrored["pairs_by_name"], 8)  # legs and arms, by their names
        # The right foot's target is where the left foot was, reflected; the left foot's is where
        # the right foot stood.
        self.assert_near(target(mirrored, "RightFoot"), reflected(left), 0.01, "mirrored foot")
        self.assert_near(target(mirrored, "LeftFoot"),
                         reflected(target(ready, "RightFoot")), 0.01, "the other foot")
        viewer.screenshot(os.path.join(self.shots, "mirrored.png"))
        # Undone, then the copied pose pasted flipped: the same mirror image.
        viewer.key("ctrl+z")
        viewer.wait_event("undo")
        viewer.key("ctrl+shift+v")
        flipped = viewer.wait_event("paste_flipped")
        self.assert_near(target(flipped, "RightFoot"), target(mirrored, "RightFoot"), 0.01,
                         "pasted flipped")

        # Ctrl+S asks where (next to the model), Enter saves; the title names the session.
        viewer.key("ctrl+s")
        viewer.wait_frames()
        viewer.key("Return")
        saved = viewer.wait_event("session_saved")
        self.assertTrue(saved["ok"], saved)
        session = os.path.join(self.shots, "hero.skelview")
        self.assertEqual(os.path.abspath(saved["path"]), session)
        self.wait_title(viewer, f"hero.skelview {DASH} skelview")
        with open(session) as f:
            doc = json.load(f)
        self.assertEqual(doc["model"], "hero.glb")  # relative to the session's folder
        self.assertEqual(viewer.quit(), 0)  # saved: nothing to ask

        # Opened again (from another folder): the targets are back.
        again = self.start([session], size="1000x620")
        ready2 = again.wait_event("ready")
        again.find_window()
        self.assertEqual(ready2["model"], model)
        for end in ("LeftFoot", "RightFoot", "LeftHand", "RightHand"):
            self.assert_near(target(ready2, end), target(flipped, end), 1e-4, end)
        self.wait_title(again, f"hero.skelview {DASH} skelview")
        again.screenshot(os.path.join(self.shots, "reopened.png"))
        self.assertEqual(again.quit(), 0)

    def test_a_sessions_display_and_camera_come_back_as_it_saved_them(self):
        model = self.export_character("hero.glb")
        viewer = self.start([model], size="1000x620")
        viewer.wait_event("ready")
        viewer.find_window()
        viewer.key("ctrl+s")
        viewer.wait_frames()
        viewer.key("Return")
        saved = viewer.wait_event("session_saved")
        self.assertTrue(saved["ok"], saved)
        self.assertEqual(viewer.quit(), 0)
        # Every display field and the camera set away from what a new window shows, paused (so
        # that following the root moves nothing).
        with open(saved["path"]) as f:
            doc = json.load(f)
        display = {"xray": False, "mesh_opacity": 0.5, "onion_step": 3, "all_chains": True,
                   "axes_selected_only": True, "on_ground": True, "follow_root": True,
                   "axis_gizmo": False, "rotate_gizmo": "global", "timeline": False}
        defaults = {key: doc["display"][key] for key in display}
        for key, value in display.items():
            self.assertNotEqual(defaults[key], value, key)
        doc["display"].update(display)
        camera = {"yaw": 30.0, "pitch": -20.0, "distance": 2.5, "target": [0.1, 0.9, -0.2],
                  "ortho": True}
        doc["camera"] = camera
        doc["animation"]["playing"] = False
        with open(saved["path"], "w") as f:
            json.dump(doc, f)

        # Opened and saved again (Ctrl+S: to the session it opened), it writes them back as read.
        again = self.start([saved["path"]], size="1000x620")
        again.wait_event("ready")
        again.find_window()
        back = self.resave(again, saved["path"])
        self.assert_display_and_camera(back, display, camera)

        # Dropped on the open window with the display as a new window has it and another camera:
        # a session opened after the first frame takes them at once, and they come back too.
        back["display"].update(defaults)
        other = {"yaw": -45.0, "pitch": 10.0, "distance": 4.0, "target": [-0.3, 1.1, 0.4],
                 "ortho": False}
        back["camera"] = other
        with open(saved["path"], "w") as f:
            json.dump(back, f)
        self.assertTrue(again.drop_file(saved["path"]), "the window did not take the drop")
        self.assertEqual(again.wait_event("load_done")["session"], saved["path"])
        self.assert_display_and_camera(self.resave(again, saved["path"]), defaults, other)
        self.assertEqual(again.quit(), 0)

    def resave(self, viewer, path):
        """Ctrl+S (to the session the window opened): the document it wrote to `path`."""
        viewer.key("ctrl+s")
        resaved = viewer.wait_event("session_saved")
        self.assertTrue(resaved["ok"], resaved)
        self.assertEqual(os.path.abspath(resaved["path"]), os.path.abspath(path))
        with open(path) as f:
            return json.load(f)

    def assert_display_and_camera(self, doc, display, camera):
        for key, value in display.items():
            self.assertEqual(doc["display"][key], value, key)
        for key in ("yaw", "pitch", "distance"):
            self.assertAlmostEqual(doc["camera"][key], camera[key], places=4, msg=key)
        self.assert_near(doc["camera"]["target"], camera["target"], 1e-5, "camera target")
        self.assertEqual(doc["camera"]["ortho"], camera["ortho"])

    def test_cesium_man_mirrors_by_symmetry_and_twice_gives_the_pose_back(self):
        relative = "khronos-glTF-Sample-Models/CesiumMan/glTF-Binary/CesiumMan.glb"
        cesium = xs.shared_model(relative)
        if not cesium:
            self.skipTest(f"shared test model {relative} not found under "
                          f"{xs.shared_models_dir()} (set SKELVIEW_MODELS to its directory)")
        viewer = self.start([cesium, "--time", "0.5"], size="1000x620")
        ready = viewer.wait_event("ready")
        viewer.find_window()
        self.wait_title(viewer, f"CesiumMan.glb {DASH} skelview")
        viewer.key("ctrl+m")
        once = viewer.wait_event("mirror")
        # CesiumMan's joints have no side in their names: the pairs come from the rest pose.
        self.assertEqual(once["pairs_by_name"], 0)
        self.assertGreaterEqual(once["pairs_by_symmetry"], 6)
        self.wait_title(viewer, f"CesiumMan.glb* {DASH} skelview")
        moved = max(math.dist(target(once, c["end"]), c["target"]) for c in ready["chains"])
        self.assertGreater(moved, 0.01, "the mirrored walk looks the same")
        viewer.screenshot(os.path.join(self.shots, "cesium-mirrored.png"))
        viewer.key("ctrl+m")
        twice = viewer.wait_event("mirror")
        for c in ready["chains"]:
            self.assert_near(target(twice, c["end"]), c["target"], 1e-3, c["end"])
        self.assertIsNone(viewer.quit(discard=False))
        viewer.xdotool("keydown", "d", idempotent=False)  # discard and quit
        self.assertEqual(viewer.wait_exit(), 0)
        viewer.xdotool("keyup", "d")

    def test_the_model_reloads_when_its_file_changes_and_not_with_no_watch(self):
        model = self.export_character("hero.glb")
        viewer = self.start([model], size="1000x620")
        ready = viewer.wait_event("ready")
        viewer.find_window()
        drag = self.drag_left_foot(viewer, ready)
        time.sleep(1.1)  # a new modification time even on a coarse clock
        self.export_character("hero.glb")  # re-exported, as from Blender
        done = viewer.wait_event("load_done")
        self.assertTrue(done.get("reload"), done)
        self.assertEqual(done["changes"], {"added": [], "removed": [], "renamed": {}})
        self.assert_near(target({"chains": done["targets"]}, "LeftFoot"), drag["target"], 1e-4,
                         "kept target")
        self.wait_title(viewer, f"hero.glb* {DASH} skelview")  # the edits are still unsaved
        self.assertIsNone(viewer.quit(discard=False), "the reload forgot the unsaved edits")
        viewer.xdotool("keydown", "d", idempotent=False)  # discard and quit
        self.assertEqual(viewer.wait_exit(), 0)
        viewer.xdotool("keyup", "d")

        quiet = self.start([model, "--no-watch"], size="1000x620")
        quiet.wait_event("ready")
        quiet.find_window()
        time.sleep(1.1)
        self.export_character("hero.glb")
        time.sleep(2.0)  # four polls' worth
        quiet.wait_frames()
        self.assertEqual(xs.named(quiet.events(), "load_started"), [])
        self.assertEqual(quiet.quit(), 0)

    def test_animation_menu_generates_and_plays_the_range_of_motion(self):
        viewer = self.start(["--show", "mesh,grid,bones"], size="1000x620")
        ready = viewer.wait_event("ready")
        viewer.find_window()
        mx, my = ready["ui"]["animation_menu_px"]
        viewer.click(mx, my)
        viewer.wait_frames()
        # The menu's first item, just below the menu bar.
        viewer.click(mx + 20, 2 * my + ready["ui"]["font_px"] * 0.5 + 4)
        rom = viewer.wait_event("range_of_motion")
        self.assertEqual(rom["name"], "Range of motion")
        self.assertGreater(rom["duration"], 10)
        self.assertGreaterEqual(rom["channels"], 10)
        time.sleep(1.0)
        viewer.screenshot(os.path.join(self.shots, "range-of-motion.png"))
        self.assertEqual(viewer.quit(), 0)


if __name__ == "__main__":
    xs.run_tests()
