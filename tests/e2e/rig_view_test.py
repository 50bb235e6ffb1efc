"""End-to-end tests of reading a rig in the window under Xvfb, driven with the mouse and keys as a
user drives them: clicking a solid bone selects the joint that owns it and "." frames it; the axis
gizmo in the corner turns the view to look along the clicked axis (and to the other side when the
view already looks along it); the legend appears when asked for.
Usage: rig_view_test.py SKELVIEW_BINARY. Exit code 77 means skipped (a tool is missing)."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xvfb_session as xs  # noqa: E402


class RigViewTest(xs.XvfbTestCase):
    def test_clicking_a_bone_selects_it_and_period_frames_it(self):
        viewer = self.start(["--no-settings", "--show", "mesh,grid,bones"], size="1000x700")
        ready = viewer.wait_event("ready")
        viewer.find_window()
        bones = ready["bones_px"]
        # Two fifths down the left thigh, from its head (the hip) to the knee.
        hip, knee = bones["LeftUpLeg"], bones["LeftLeg"]
        x = hip[0] + 0.4 * (knee[0] - hip[0])
        y = hip[1] + 0.4 * (knee[1] - hip[1])
        viewer.click(x, y)
        self.assertEqual(viewer.wait_event("select")["joint"], "LeftUpLeg")
        viewer.key("period")
        framed = viewer.wait_event("camera")
        self.assertEqual(framed["by"], "frame")
        self.assertLess(framed["distance"], 0.6 * ready["camera"]["distance"],
                        "framing one bone comes closer than framing the whole character")
        # Clicking empty space selects nothing.
        viewer.click(980, 680)
        self.assertIsNone(viewer.wait_event("select")["joint"])
        self.assertEqual(viewer.quit(), 0)

    def test_the_axis_gizmo_looks_along_the_clicked_axis(self):
        viewer = self.start(["--no-settings"], size="1000x700")
        ready = viewer.wait_event("ready")
        viewer.find_window()
        gizmo = ready["axis_gizmo"]
        cx, cy = gizmo["center"]
        radius = gizmo["radius"]
        viewer.key("1")  # front: +X points right, +Y up, so their knobs are known
        front = viewer.wait_event("camera")
        self.assertEqual((front["yaw"], front["pitch"]), (0, 0))
        viewer.click(cx + radius, cy)  # +X: look from the right
        right = viewer.wait_event("camera")
        self.assertEqual(right["by"], "view")
        self.assertAlmostEqual(right["yaw"], 90, places=3)
        self.assertAlmostEqual(right["pitch"], 0, places=3)
        # Now looking along X: +X sits in the middle, nearest the camera; clicking it again turns
        # to the other side.
        viewer.click(cx, cy)
        left = viewer.wait_event("camera")
        self.assertAlmostEqual(left["yaw"], -90, places=3)
        viewer.key("1")
        viewer.wait_event("camera")
        viewer.click(cx, cy - radius)  # +Y: look from the top
        top = viewer.wait_event("camera")
        self.assertAlmostEqual(top["pitch"], 90, places=3)
        # The gizmo took the clicks: none of them orbited the camera.
        self.assertEqual([e["by"] for e in xs.named(viewer.events(), "camera")
                          if e["by"] == "orbit"], [])
        self.assertEqual(viewer.quit(), 0)

    def test_the_legend_is_drawn_when_asked_for(self):
        shots = []
        for show in ("mesh,grid,bones", "mesh,grid,bones,legend"):
            viewer = self.start(["--no-settings", "--show", show], size="1000x700")
            ready = viewer.wait_event("ready")
            self.assertEqual(ready["display"]["legend"], show.endswith("legend"))
            viewer.find_window()
            shots.append(viewer.screenshot(os.path.join(self.shots, show + ".png")))
            self.assertEqual(viewer.quit(), 0)
        # The legend sits at the view's bottom-left, above the timeline (the status line, whose
        # timings change, is left out).
        crops = [xs.crop(s, (350, 300, 400, 300), s + ".legend.png") for s in shots]
        self.assertGreater(xs.differing_pixels(crops[0], crops[1]), 500, "no legend drawn")

if __name__ == "__main__":
    xs.run_tests()
