"""End-to-end test of File > Import clip from... in the window under Xvfb, driven as a user drives
it: the menu item opens the browser titled "Import clip from", a typed path picks the source model
(imported in the background), the mapping dialog shows the joints paired (trace
`retarget_mapping`), and Apply adds the retargeted clip to the open model, which plays it (trace
`retarget_done`); the open model stays, also when the source file fails to load (a message). With CesiumMan in /work/shared/models, the built-in walk
is imported onto it too (mapping by structure) and the dialog is screenshotted.
Usage: import_clip_test.py SKELVIEW_BINARY. Exit code 77 means skipped (a tool is missing)."""

import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xvfb_session as xs  # noqa: E402

CESIUM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared",
                      "models", "khronos-glTF-Sample-Models", "CesiumMan", "glTF-Binary",
                      "CesiumMan.glb")


class ImportClipTest(xs.XvfbTestCase):
    def shot(self, viewer, name):
        """A screenshot, also copied into $SKELVIEW_E2E_SHOTS when set (to look at)."""
        path = os.path.join(self.shots, name)
        viewer.screenshot(path)
        if os.environ.get("SKELVIEW_E2E_SHOTS"):
            shutil.copy(path, os.environ["SKELVIEW_E2E_SHOTS"])

    def export_character(self, name):
        path = os.path.join(self.shots, name)
        subprocess.run([self.binary, "export", "-o", path], check=True, timeout=xs.EVENT_TIMEOUT,
                       env=dict(os.environ, SDL_VIDEODRIVER="offscreen"))
        return path

    def import_clip(self, viewer, ready, source):
        """File > Import clip from... (the eighth item of the File menu), then the source's path
        typed into the browser; returns the retarget_mapping event."""
        mx, my = ready["ui"]["animation_menu_px"]
        font = ready["ui"]["font_px"]
        viewer.click(font * 1.2, my)  # "File", the bar's first menu
        viewer.wait_frames()
        first = 2 * my + font * 0.5 + 4
        viewer.click(font * 3, first + 7 * (font + 4))
        viewer.wait_frames()
        viewer.key("ctrl+a")
        viewer.type(source)
        viewer.key("Return")
        return viewer.wait_event("retarget_mapping")

    def test_import_clip_maps_the_joints_and_adds_the_clip(self):
        target = self.export_character("hero.glb")
        source = self.export_character("walker.glb")
        viewer = self.start([target], size="1100x720")
        ready = viewer.wait_event("ready")
        viewer.find_window()
        mapping = self.import_clip(viewer, ready, source)
        self.assertEqual(mapping["source"], source)
        self.assertGreaterEqual(mapping["pairs"], 20)  # the same rig: every limb joint by name
        self.assertEqual(mapping["unmapped_limbs"], [])
        self.assertGreaterEqual(mapping["clips"], 2)
        self.shot(viewer, "import-clip-dialog.png")
        ax, ay = mapping["apply"]
        viewer.click(ax, ay)
        done = viewer.wait_event("retarget_done")
        self.assertTrue(done["name"].endswith(" (retargeted from walker.glb)"), done["name"])
        self.assertGreater(done["frames"], 10)
        # After the model's own clips (the same as the source's: both are the built-in's).
        self.assertEqual(done["clip"], mapping["clips"])
        # The open model stayed: no new load, and no mapping saved (nothing was edited).
        self.assertEqual(xs.named(viewer.events(), "load_started"), [])
        self.assertFalse(os.path.exists(target + ".retarget-map.json"))
        time.sleep(1.0)
        self.shot(viewer, "import-clip-playing.png")
        self.assertEqual(viewer.quit(), 0)

    def test_a_file_that_fails_to_load_is_a_message_and_the_model_stays(self):
        target = self.export_character("hero.glb")
        bad = os.path.join(self.shots, "broken.glb")
        with open(bad, "wb") as f:
            f.write(b"glTF\x02\x00\x00\x00 this is not a model")
        viewer = self.start([target], size="1100x720")
        ready = viewer.wait_event("ready")
        viewer.find_window()
        mx, my = ready["ui"]["animation_menu_px"]
        font = ready["ui"]["font_px"]
        viewer.click(font * 1.2, my)
        viewer.wait_frames()
        viewer.click(font * 3, 2 * my + font * 0.5 + 4 + 7 * (font + 4))
        viewer.wait_frames()
        viewer.key("ctrl+a")
        viewer.type(bad)
        viewer.key("Return")
        xs.wait_until(lambda: "import clip: " in viewer.output(), xs.EVENT_TIMEOUT,
                      "the refusal in the message log", alive=viewer.alive)
        self.assertIn("broken.glb", viewer.output())
        self.assertEqual(xs.named(viewer.events(), "retarget_mapping"), [])
        self.assertEqual(xs.named(viewer.events(), "load_started"), [])  # the model stayed
        self.assertEqual(viewer.quit(), 0)

    def test_builtin_walk_onto_cesium_man_maps_by_structure(self):
        cesium = os.path.abspath(CESIUM)
        if not os.path.exists(cesium):
            self.skipTest(f"{cesium} is missing")
        source = self.export_character("walker.glb")
        viewer = self.start([cesium], size="1100x720")
        ready = viewer.wait_event("ready")
        viewer.find_window()
        mapping = self.import_clip(viewer, ready, source)
        self.assertGreaterEqual(mapping["pairs"], 14)
        viewer.wait_frames()
        self.shot(viewer, "import-clip-cesium-dialog.png")
        ax, ay = mapping["apply"]
        viewer.click(ax, ay)
        done = viewer.wait_event("retarget_done")
        self.assertGreater(done["frames"], 10)
        self.assertEqual(viewer.quit(), 0)


if __name__ == "__main__":
    xs.run_tests()
