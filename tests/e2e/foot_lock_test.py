"""End-to-end test of the foot lock in the window under Xvfb, on the built-in character's walk:
Animation > Lock feet locks the planted feet (a foot_lock event with the numbers before and after:
the skate drops), the timeline shows each foot's contacts as bars in its lane (screenshot), a
drag of a bar's end moves it and a click and X deletes one (contact_edited events; the lock is
planned again from the edited contacts, so the numbers change), Ctrl+Z gives the contact back,
a mesh ground chosen with the Ground section's Browse... is read in the background and the lock
planned again on it (a `ground` event with its triangles), a broken file is a message and the
mesh stays the ground (`ground_failed`), and turning the lock off restores the source.
Usage: foot_lock_test.py SKELVIEW_BINARY. Exit code 77 means skipped (a tool is missing)."""

import json
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xvfb_session as xs  # noqa: E402


def lane_x(lane, t):
    return lane["x0"] + (lane["x1"] - lane["x0"]) * t / lane["duration"]


class FootLockTest(xs.XvfbTestCase):
    def shot(self, viewer, name):
        """A screenshot, also copied into $SKELVIEW_E2E_SHOTS when set (to look at)."""
        path = os.path.join(self.shots, name)
        viewer.screenshot(path)
        if os.environ.get("SKELVIEW_E2E_SHOTS"):
            shutil.copy(path, os.environ["SKELVIEW_E2E_SHOTS"])
        return path

    def click_lock_feet(self, viewer, ready):
        """Animation > Lock feet: the menu's second item."""
        mx, my = ready["ui"]["animation_menu_px"]
        font = ready["ui"]["font_px"]
        viewer.click(mx, my)
        viewer.wait_frames()
        viewer.click(mx + 20, 2 * my + font * 0.5 + 4 + (font + 4))

    def ground_ui(self, viewer, key):
        """The last ground_ui event once it places `key` (where the Ground section's controls
        are, written when they move)."""
        viewer.wait_frames()

        def placed():
            events = xs.named(viewer.events(), "ground_ui")
            return events[-1] if events and events[-1][key] is not None else None

        return xs.wait_until(placed, xs.EVENT_TIMEOUT, f"ground_ui with {key}",
                             alive=viewer.alive)

    def choose_mesh_kind(self, viewer):
        """Scrolls the side panel to its end (the Ground section), picks Mesh file in the kind
        box; returns where Browse... is."""
        viewer.move(150, 400)
        viewer.wait_frames()
        viewer.xdotool("click", "--repeat", "30", "--delay", "10", "5", idempotent=False)
        kind = self.ground_ui(viewer, "kind_px")
        viewer.click(*kind["kind_px"])
        item = self.ground_ui(viewer, "mesh_item_px")
        viewer.click(*item["mesh_item_px"])
        return self.ground_ui(viewer, "browse_px")["browse_px"]

    def browse_ground(self, viewer, browse, path):
        """Browse... and the file's path typed into the browser (its path field has the focus)."""
        viewer.click(*browse)
        viewer.wait_frames()
        viewer.key("ctrl+a")
        viewer.type(path)
        viewer.key("Return")

    def test_lock_feet_edit_contacts_and_undo(self):
        viewer = self.start(["--anim", "0"], size="1100x760")
        ready = viewer.wait_event("ready")
        viewer.find_window()
        self.click_lock_feet(viewer, ready)
        lock = viewer.wait_event("foot_lock")
        self.assertTrue(lock["on"])
        self.assertTrue(lock["locked"])
        self.assertEqual(lock["ground"], "plane")
        feet = lock["feet"]
        self.assertEqual([f["joint"] for f in feet], ["LeftFoot", "RightFoot"])
        for foot in feet:
            self.assertGreaterEqual(len(foot["contacts"]), 1, foot["joint"])  # every step
            self.assertIsNotNone(foot["lane"], f"{foot['joint']}'s lane is not on the timeline")
        before, after = lock["before"], lock["after"]
        # The built-in walk slides a little (about 1.7 mm per step); locked, well under 1 mm.
        self.assertGreater(before["max_skate_mm"], 1.0)
        self.assertLess(after["max_skate_mm"], 0.1)
        self.assertLess(after["mean_skate_mm"], before["mean_skate_mm"])
        self.assertLess(lock["knee_jump_deg"], 5.0)
        for c in feet[0]["contacts"]:
            self.assertGreaterEqual(c["locked_skate_mm"], 0.0)
        time.sleep(0.5)
        self.shot(viewer, "foot-lock-timeline.png")

        # Drag the left foot's first contact's end 4 frames (of 30 fps) earlier.
        lane = feet[0]["lane"]
        first = feet[0]["contacts"][0]
        y = 0.5 * (lane["top"] + lane["bottom"])
        x_end = lane_x(lane, first["end"])
        viewer.drag(x_end, y, lane_x(lane, first["end"] - 4 / 30), y)
        moved = viewer.wait_event("contact_edited")
        self.assertEqual(moved["what"], "end")
        self.assertEqual(moved["foot"], "LeftFoot")
        self.assertEqual(moved["index"], 0)
        self.assertAlmostEqual(moved["start"], first["start"], places=4)
        self.assertAlmostEqual(moved["end"], first["end"] - 4 / 30, delta=1.5 / 30)
        self.assertTrue(moved["locked"])
        self.assertAlmostEqual(moved["feet"][0]["contacts"][0]["end"], moved["end"], places=4)
        # The source's skate over the shorter contact is less: the numbers come from the edit.
        self.assertLess(moved["feet"][0]["contacts"][0]["skate_mm"], first["skate_mm"])

        # Click the right foot's first contact and delete it with X.
        right = moved["feet"][1]
        rlane = right["lane"]
        count = len(right["contacts"])
        c = right["contacts"][0]
        viewer.click(lane_x(rlane, 0.5 * (c["start"] + c["end"])),
                     0.5 * (rlane["top"] + rlane["bottom"]))
        viewer.wait_frames()
        viewer.key("x")
        deleted = viewer.wait_event("contact_edited")
        self.assertEqual(deleted["what"], "delete")
        self.assertEqual(deleted["foot"], "RightFoot")
        self.assertAlmostEqual(deleted["start"], c["start"], places=4)
        self.assertEqual(len(deleted["feet"][1]["contacts"]), count - 1)
        self.assertNotEqual(deleted["after"], moved["after"])  # planned again without it
        time.sleep(0.5)
        self.shot(viewer, "foot-lock-edited.png")

        # Undo gives the contact back.
        viewer.key("ctrl+z")
        viewer.wait_event("undo")

        # A mesh ground chosen with the Ground section's Browse...: read in the background, the
        # lock planned again on it; then a broken file: a message, and the mesh stays the ground.
        # (In the viewer's folder, so that a short relative path is typed.)
        hill = "hill.glb"
        subprocess.run([os.environ["SKELVIEW_GROUND_WRITER"], os.path.join(viewer.dir, hill),
                        "10"], check=True)
        browse = self.choose_mesh_kind(viewer)
        self.browse_ground(viewer, browse, hill)
        mesh = viewer.wait_event("ground")
        self.assertEqual(mesh["ground"], hill)
        self.assertEqual(mesh["triangles"], 2 * 16 * 16)
        self.assertTrue(mesh["locked"])
        # The walk, authored on flat ground, sinks into the 10-degree hill and floats over it;
        # locked, its planted feet stand on it.
        self.assertGreater(max(mesh["before"]["penetration_mm"], mesh["before"]["float_mm"]),
                           20.0)
        self.assertLess(max(mesh["after"]["penetration_mm"], mesh["after"]["float_mm"]), 5.0)
        self.assertNotEqual(mesh["after"], deleted["after"])
        self.shot(viewer, "foot-lock-mesh-ground.png")
        broken = "broken-ground.glb"
        with open(os.path.join(viewer.dir, broken), "wb") as f:
            f.write(b"glTF\x02\x00\x00\x00 this is not a ground")
        self.browse_ground(viewer, browse, broken)
        failed = viewer.wait_event("ground_failed")
        self.assertEqual(failed["file"], broken)
        self.assertIn("broken-ground.glb", failed["message"])
        self.assertEqual(failed["ground"], hill)  # the ground in effect stays
        xs.wait_until(lambda: "Ground: " in viewer.output(), xs.EVENT_TIMEOUT,
                      "the message in the log", alive=viewer.alive)
        self.assertIn("broken-ground.glb", viewer.output())

        # Turning the lock off leaves the source's numbers only, on the ground that stayed.
        self.click_lock_feet(viewer, ready)
        off = viewer.wait_event("foot_lock")
        self.assertFalse(off["on"])
        self.assertIsNone(off["after"])
        self.assertEqual(off["ground"], hill)
        self.assertEqual(len(off["feet"][1]["contacts"]), count)
        self.assertEqual(viewer.quit(), 0)

    def test_a_session_opens_locked_on_a_ramp(self):
        # The lock and the ground are saved in sessions: one that has them opens locked on them.
        session = os.path.join(self.shots, "ramp.skelview")
        with open(session, "w") as f:
            json.dump({"skelview_session": 1, "model": None,
                       "animation": {"clip": "Walk", "time": 0.25},
                       "foot_lock": {"on": True, "ground": "ramp,degrees=12", "clip_index": -1,
                                     "contacts": []}}, f)
        viewer = self.start(["--session", session], size="1100x760")
        lock = viewer.wait_event("foot_lock")
        self.assertTrue(lock["on"])
        self.assertEqual(lock["ground"], "ramp,degrees=12")
        # On the ramp the source's planted feet sink in (uphill) or float (downhill); locked,
        # they stand on it.
        before, after = lock["before"], lock["after"]
        self.assertGreater(max(before["penetration_mm"], before["float_mm"]), 20.0)
        self.assertLess(max(after["penetration_mm"], after["float_mm"]), 5.0)
        viewer.wait_event("ready")
        viewer.find_window()
        time.sleep(0.5)
        self.shot(viewer, "foot-lock-ramp.png")
        self.assertEqual(viewer.quit(), 0)

    def test_a_session_with_a_mesh_ground_reads_it_in_the_background(self):
        # Its mesh is read as a chosen one is (the import worker), the lock planned once it is in:
        # the first foot_lock event already stands the feet on the mesh.
        hill = os.path.join(self.shots, "hill.glb")
        subprocess.run([os.environ["SKELVIEW_GROUND_WRITER"], hill, "10"], check=True)
        session = os.path.join(self.shots, "hill.skelview")
        with open(session, "w") as f:
            json.dump({"skelview_session": 1, "model": None,
                       "animation": {"clip": "Walk", "time": 0.25},
                       "foot_lock": {"on": True, "ground": hill, "clip_index": -1,
                                     "contacts": []}}, f)
        viewer = self.start(["--session", session], size="1100x760")
        lock = viewer.wait_event("foot_lock")
        self.assertTrue(lock["on"])
        self.assertEqual(lock["ground"], hill)
        before, after = lock["before"], lock["after"]
        self.assertGreater(max(before["penetration_mm"], before["float_mm"]), 20.0)
        self.assertLess(max(after["penetration_mm"], after["float_mm"]), 5.0)
        viewer.wait_event("ready")
        viewer.find_window()
        self.assertEqual(viewer.quit(), 0)
        # Planned again as part of opening it: no edits of the user's to ask about on quitting.
        self.assertEqual(xs.named(viewer.events(), "confirm"), [])


if __name__ == "__main__":
    xs.run_tests()
