"""End-to-end test of the skelview window under Xvfb: it opens on the built-in character, draws it,
orbits with a mouse drag, writes the trace events and quits with Ctrl+Q or the window's close
message (exit code 0); a file dropped on it (XDND) opens; reload, export and F12 work.
Usage: window_test.py SKELVIEW_BINARY. Exit code 77 means skipped (a tool is missing)."""

import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xvfb_session as xs  # noqa: E402


class WindowTest(xs.XvfbTestCase):
    @classmethod
    def setUpClass(cls):
        cls.models = tempfile.mkdtemp(prefix="skelview-models-")

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.models, ignore_errors=True)

    def export_builtin(self, path):
        """Writes the built-in character as a .glb file at path. `skelview export` runs once per
        run of this file (it is slow under AddressSanitizer); later calls copy its file."""
        exported = os.path.join(self.models, "builtin.glb")
        if not os.path.exists(exported):
            subprocess.run([self.binary, "export", "-o", exported], check=True,
                           timeout=xs.EVENT_TIMEOUT)
        shutil.copyfile(exported, path)

    def test_opens_draws_orbits_and_quits(self):
        viewer = self.start()
        ready = viewer.wait_event("ready")
        self.assertEqual(ready["window"], [900, 700])
        self.assertEqual(ready["model"], "<built-in>")
        viewer.find_window()
        first = viewer.screenshot(os.path.join(self.shots, "first.png"))
        mean, spread = xs.image_stats(first)
        self.assertGreater(spread, 0.05, "the window looks blank")
        # The mannequin stands in the middle of the free view, right of the panel.
        cx, cy = ready["model_px"]["center"]
        self.assertGreater(cx, 380, "the model should not be hidden behind the panel")
        self.assertGreater(xs.brightest_near(first, cx, cy), 120, "no model at its centre")

        viewer.drag(700, 500, 450, 480)  # orbit, away from the panel
        orbited = os.path.join(self.shots, "orbited.png")
        changed = lambda: xs.differing_pixels(first, viewer.screenshot(orbited)) > 5000
        xs.wait_until(changed, 30, "the orbited view in a screenshot", alive=viewer.alive)

        self.assertEqual(viewer.quit(), 0)
        exits = [e for e in viewer.events() if e["event"] == "exit"]
        self.assertEqual(len(exits), 1)
        self.assertGreater(exits[0]["frames"], 1)

    def test_numpad_views_look_along_the_axes_and_5_switches_to_orthographic(self):
        viewer = self.start()
        viewer.wait_event("ready")
        viewer.find_window()
        viewer.move(700, 400)  # over the view, not the panel
        views = {}
        for key, name in (("KP_1", "front"), ("ctrl+KP_3", "left"), ("KP_7", "top"),
                          ("3", "right")):
            viewer.key(key)
            views[name] = viewer.wait_event("camera")
            self.assertEqual(views[name]["by"], "view", key)
            self.assertEqual(views[name]["ortho"], False, key)
            viewer.screenshot(os.path.join(self.shots, "view_%s.png" % name))
        self.assertAlmostEqual(views["front"]["yaw"], 0.0, places=3)
        self.assertAlmostEqual(views["front"]["pitch"], 0.0, places=3)
        self.assertAlmostEqual(views["left"]["yaw"], -90.0, places=3)
        self.assertAlmostEqual(views["top"]["pitch"], 90.0, places=3)
        self.assertAlmostEqual(views["right"]["yaw"], 90.0, places=3)
        viewer.key("KP_5")
        ortho = viewer.wait_event("camera")
        self.assertTrue(ortho["ortho"])
        viewer.screenshot(os.path.join(self.shots, "right_ortho.png"))
        self.assertEqual(viewer.quit(), 0)

    def test_settings_json_is_applied_on_start_and_saved_on_quit(self):
        folder = os.path.join(self.xvfb.config_dir, "skelview")
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, "settings.json")
        with open(path, "w") as f:
            json.dump({"display": {"bones": True, "axes": True}}, f)
        viewer = self.start()
        ready = viewer.wait_event("ready")
        self.assertTrue(ready["display"]["bones"])
        self.assertTrue(ready["display"]["axes"])
        self.assertTrue(ready["display"]["mesh"])  # not in the file: the default
        self.assertIsNone(ready["display"]["weights"])
        self.assertEqual(set(ready["camera"]), {"yaw", "pitch", "distance", "target", "ortho"})
        viewer.find_window()
        viewer.move(700, 400)
        viewer.key("KP_3")  # a camera to remember
        viewer.wait_event("camera")
        self.assertEqual(viewer.quit(), 0)
        with open(path) as f:
            saved = json.load(f)
        self.assertTrue(saved["display"]["bones"])
        self.assertAlmostEqual(saved["camera"]["yaw"], 90.0, places=3)
        self.assertEqual(saved["window"], {"width": 900, "height": 700})
        # The next start looks from where the last one left off; --show is for that run only.
        again = self.start(["--show", "mesh,grid"])
        ready = again.wait_event("ready")
        self.assertAlmostEqual(ready["camera"]["yaw"], 90.0, places=3)
        self.assertFalse(ready["display"]["bones"])
        again.find_window()
        self.assertEqual(again.quit(), 0)
        with open(path) as f:
            self.assertTrue(json.load(f)["display"]["bones"])
        # A corrupt file is a warning, never a failed start; --no-settings saves nothing.
        with open(path, "w") as f:
            f.write("{not json")
        third = self.start(["--no-settings"])
        self.assertFalse(third.wait_event("ready")["display"]["bones"])
        third.find_window()
        self.assertEqual(third.quit(), 0)
        with open(path) as f:
            self.assertEqual(f.read(), "{not json")
        fourth = self.start()
        self.assertTrue(fourth.wait_event("ready")["display"]["mesh"])
        fourth.find_window()
        self.assertEqual(fourth.quit(), 0)
        self.assertIn("settings.json: not a JSON object", fourth.output())

    def test_theme_scale_and_layout_from_settings_are_applied_and_saved(self):
        folder = os.path.join(self.xvfb.config_dir, "skelview")
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, "settings.json")
        with open(path, "w") as f:
            json.dump({"ui_scale": 1.5, "theme": "light",
                       "layout": {"panel_width": 520, "timeline": False,
                                  "timeline_units": "seconds"}}, f)
        viewer = self.start(size="1300x900")
        ui = viewer.wait_event("ready")["ui"]
        self.assertEqual(ui["scale"], 1.5)
        self.assertFalse(ui["automatic"])
        self.assertEqual(ui["font_px"], 20.0)  # 13 px x 1.5, rasterised at that size
        self.assertEqual(ui["theme"], "light")
        self.assertEqual(ui["panel_width"], 520.0)
        self.assertFalse(ui["timeline"])
        viewer.find_window()
        shot = viewer.screenshot(os.path.join(self.shots, "light.png"))
        panel = os.path.join(self.shots, "light-panel.png")
        subprocess.run(["convert", shot, "-crop", "400x500+20+60", "+repage", panel], check=True)
        light = xs.count_pixels(panel, lambda r, g, b: r > 0.85 and g > 0.85 and b > 0.85)
        self.assertGreater(light, 400 * 500 // 2, "the light theme's panel is not light")
        viewer.move(900, 300)
        viewer.key("t")  # the timeline back
        self.assertEqual(viewer.quit(), 0)
        with open(path) as f:
            saved = json.load(f)
        self.assertEqual(saved["ui_scale"], 1.5)
        self.assertEqual(saved["theme"], "light")
        self.assertEqual(saved["layout"]["panel_width"], 520.0)
        self.assertTrue(saved["layout"]["timeline"])
        self.assertEqual(saved["layout"]["timeline_units"], "seconds")

    def test_automatic_ui_scale_follows_the_displays_dpi(self):
        hidpi = xs.Xvfb(dpi=192)
        self.addCleanup(hidpi.close)
        viewer = xs.Viewer(xs.XvfbTestCase.BINARY, hidpi, args=["--no-settings"], size="1600x950")
        self.addCleanup(viewer.close)
        ui = viewer.wait_event("ready")["ui"]
        self.assertTrue(ui["automatic"])
        self.assertEqual(ui["scale"], 2.0)
        self.assertEqual(ui["font_px"], 26.0)
        self.assertEqual(ui["panel_width"], 720.0)  # the default width at 2x
        viewer.find_window()
        viewer.screenshot(os.path.join(self.shots, "hidpi.png"))
        self.assertEqual(viewer.quit(), 0)

    def test_closing_the_window_quits_with_code_0(self):
        viewer = self.start()
        viewer.wait_event("ready")
        viewer.find_window()
        viewer.close_window()
        self.assertEqual(viewer.wait_exit(), 0)
        self.assertEqual([e["event"] for e in viewer.events()][-1], "exit")

    def test_dropping_a_file_on_the_window_opens_it(self):
        path = os.path.join(self.shots, "dropped model.glb")  # a space, escaped in the URI
        self.export_builtin(path)
        viewer = self.start()
        self.assertEqual(viewer.wait_event("ready")["model"], "<built-in>")
        viewer.find_window()
        self.assertTrue(viewer.drop_file(path), "the window did not take the drop")
        started = viewer.wait_event("load_started")
        self.assertEqual(started["path"], path)
        done = viewer.wait_event("load_done")
        self.assertEqual(done["model"], path)
        self.assertEqual(done["chains"], 6)  # 4 limbs, hips and chest handles
        self.assertEqual(viewer.quit(), 0)

    def test_frame_limit_quits_cleanly(self):
        viewer = self.start(["--frames", "5"])
        self.assertEqual(viewer.wait_exit(), 0)
        self.assertEqual([e["event"] for e in viewer.events()], ["ready", "exit"])

    def test_failed_reload_keeps_the_current_model(self):
        path = os.path.join(self.shots, "model.glb")
        self.export_builtin(path)
        viewer = self.start([path])
        ready = viewer.wait_event("ready")
        self.assertEqual(ready["model"], path)
        viewer.find_window()
        # The file goes bad on disk; reloading it fails, says why, and the model stays.
        with open(path, "wb") as f:
            f.write(b"glTF" + b"\xff" * 64)
        viewer.key("ctrl+r")
        failed = viewer.wait_event("load_failed")
        self.assertIn(path, failed["error"])
        self.assertEqual(failed["model"], path)
        shot = viewer.screenshot(os.path.join(self.shots, "after_failed_reload.png"))
        cx, cy = ready["model_px"]["center"]
        self.assertGreater(xs.brightest_near(shot, cx, cy), 120, "the model should still be drawn")
        # Fixed on disk: reloading works again, in the background, and reports it.
        self.export_builtin(path)
        viewer.key("ctrl+r")
        done = viewer.wait_event("load_done")
        self.assertEqual(done["model"], path)
        self.assertEqual(done["chains"], 6)  # 4 limbs, hips and chest handles
        self.assertEqual(viewer.quit(), 0)

    def test_file_export_writes_the_pose(self):
        viewer = self.start()
        viewer.wait_event("ready")
        viewer.find_window()
        out = os.path.join(self.shots, "from-window.glb")
        viewer.key("ctrl+e")  # File > Export; the path field takes the keyboard a frame later
        viewer.wait_frames()
        viewer.key("ctrl+a")  # select the default name
        viewer.type(out)
        viewer.key("Return")
        event = viewer.wait_event("export")
        self.assertTrue(event["ok"], event)
        self.assertEqual(event["path"], out)
        info = subprocess.run([self.binary, "info", out, "--json"], capture_output=True, text=True,
                              timeout=xs.EVENT_TIMEOUT)
        self.assertEqual(info.returncode, 0, info.stderr)
        self.assertEqual(json.loads(info.stdout)["counts"]["joints"], 22)

    def test_f12_saves_a_screenshot_of_the_view(self):
        viewer = self.start()
        ready = viewer.wait_event("ready")
        viewer.find_window()
        viewer.key("F12")
        event = viewer.wait_event("screenshot")
        path = os.path.join(viewer.dir, event["path"])  # written in the working directory
        self.assertTrue(os.path.exists(path), path)
        size = subprocess.run(["identify", "-format", "%w %h", path], capture_output=True,
                              text=True, check=True).stdout.split()
        self.assertEqual([int(v) for v in size], ready["window"])
        cx, cy = ready["model_px"]["center"]
        self.assertGreater(xs.brightest_near(path, cx, cy), 120, "the model is in the screenshot")


if __name__ == "__main__":
    xs.run_tests()
