"""End-to-end tests of the workspace's manners under Xvfb, driven as a user drives it: an open menu
keeps the keys from the scene and Escape closes it; the wheel over the panel scrolls the panel and
never zooms the view; undo and redo with nothing to undo write nothing, and every reset (the R key,
the panel, Edit > Reset pose) is one `reset` trace event.
Usage: workspace_test.py SKELVIEW_BINARY. Exit code 77 means skipped (a tool is missing)."""

import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xvfb_session as xs  # noqa: E402

# Where the menu bar's menus and the Edit menu's "Reset pose" item are, window coordinates (the
# built-in font, the same at every window size).
FILE_MENU = (20, 10)
EDIT_MENU = (62, 10)
EDIT_RESET_POSE = (80, 89)
# A point over the side panel's sections, and one over the 3D view right of it (window 1000x620).
OVER_PANEL = (150, 300)
OVER_VIEW = (700, 300)


def named(events, name):
    return [e for e in events if e["event"] == name]


def crop(path, box, out):
    """Writes the box (x, y, w, h) of an image to `out` and returns `out`."""
    x, y, w, h = box
    subprocess.run(["convert", path, "-crop", f"{w}x{h}+{x}+{y}", "+repage", out], check=True)
    return out


class WorkspaceTest(xs.XvfbTestCase):
    def test_escape_closes_an_open_menu_and_keys_wait_while_it_is_open(self):
        viewer = self.start()
        viewer.wait_event("ready")
        viewer.find_window()
        viewer.click(*FILE_MENU)  # File menu open
        viewer.key("r")  # would reset every target if it reached the scene
        viewer.key("Escape")  # closes the menu
        viewer.key("r")  # now it reaches the scene
        viewer.wait_event("reset")
        viewer.wait_frames()
        self.assertEqual(len(named(viewer.events(), "reset")), 1, viewer.events())
        self.assertEqual(viewer.quit(), 0)

    def test_wheel_over_the_panel_scrolls_it_and_never_zooms(self):
        viewer = self.start(size="1000x620")
        viewer.wait_event("ready")
        viewer.find_window()
        panel = (8, 30, 350, 560)
        before = crop(viewer.screenshot(os.path.join(self.shots, "before.png")), panel,
                      os.path.join(self.shots, "panel-before.png"))
        viewer.move(*OVER_PANEL)
        viewer.wait_frames()
        viewer.xdotool("click", "--repeat", "4", "5", idempotent=False)  # wheel down
        viewer.wait_frames()
        after = crop(viewer.screenshot(os.path.join(self.shots, "after.png")), panel,
                     os.path.join(self.shots, "panel-after.png"))
        self.assertGreater(xs.differing_pixels(before, after), 2000, "the panel did not scroll")
        self.assertEqual(named(viewer.events(), "camera"), [], "the wheel over the panel zoomed")
        # Over the view the wheel zooms.
        viewer.move(*OVER_VIEW)
        viewer.wait_frames()
        viewer.xdotool("click", "5", idempotent=False)
        self.assertEqual(viewer.wait_event("camera")["by"], "zoom")
        self.assertEqual(viewer.quit(), 0)

    def test_undo_with_nothing_to_undo_writes_nothing_and_reset_pose_is_a_reset(self):
        viewer = self.start()
        viewer.wait_event("ready")
        viewer.find_window()
        viewer.key("ctrl+z")
        viewer.key("ctrl+shift+z")
        viewer.key("ctrl+y")
        viewer.wait_frames()
        self.assertEqual([e["event"] for e in viewer.events()], ["ready"])
        viewer.click(*EDIT_MENU)
        viewer.click(*EDIT_RESET_POSE)
        reset = viewer.wait_event("reset")
        self.assertEqual(len(reset["chains"]), 4)
        self.assertEqual(viewer.quit(), 0)


if __name__ == "__main__":
    xs.run_tests()
