"""End-to-end test of live IK in the window under Xvfb: drag the left foot's handle with xdotool by a
known number of pixels, then check from the --trace log that the foot reached the new target, that
the handle followed the cursor, that the knee went where the solver (skelview pose) says it goes,
that the overlay is drawn, and that Ctrl+Z / Ctrl+Shift+Z and double-click undo, redo and reset.
Usage: drag_test.py SKELVIEW_BINARY. Exit code 77 means skipped (a tool is missing)."""

import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xvfb_session as xs  # noqa: E402


def dist(a, b):
    return math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)))


class DragTest(xs.XvfbTestCase):
    def setUp(self):
        super().setUp()
        self.viewer = self.start()
        self.ready = self.viewer.wait_event("ready")
        self.viewer.find_window()

    def chain(self, end):
        for c in self.ready["chains"]:
            if c["end"] == end:
                return c
        self.fail(f"no chain ends at {end}: {self.ready['chains']}")

    def solve_with_cli(self, drag):
        """What `skelview pose` computes for the same target, pose and options."""
        spec = "LeftFoot=%r,%r,%r" % tuple(drag["target"])
        spec += ",hinge" if drag["options"]["hinge"] else ",nohinge"
        args = [self.binary, "pose", "--ik", spec]
        if "anim" in drag:
            args += ["--anim", str(drag["anim"]["index"]), "--time", repr(drag["anim"]["time"])]
        out = subprocess.run(args, capture_output=True, text=True, timeout=xs.EVENT_TIMEOUT,
                             env=dict(os.environ, SDL_VIDEODRIVER="offscreen"))
        self.assertEqual(out.returncode, 0, out.stderr)
        return json.loads(out.stdout)

    def test_drag_left_foot_moves_it_and_the_knee_as_the_solver_says(self):
        foot = self.chain("LeftFoot")
        self.assertEqual([c["end"] for c in self.ready["chains"]].count("LeftHand"), 1)
        x0, y0 = foot["handle_px"]
        dx, dy = 45, -70
        self.viewer.drag(x0, y0, x0 + dx, y0 + dy)
        drag = self.viewer.wait_event("drag_end")
        self.assertEqual(drag["end"], "LeftFoot")
        self.assertEqual(drag["part"], "center")  # the disc drags on the camera-facing plane
        # The handle followed the cursor exactly, and the foot reached the new target.
        self.assertAlmostEqual(drag["handle_px"][0], x0 + dx, delta=1.5)
        self.assertAlmostEqual(drag["handle_px"][1], y0 + dy, delta=1.5)
        self.assertTrue(drag["reached"], drag)
        self.assertLess(dist(drag["effector"], drag["target"]), 1e-4)
        self.assertGreater(dist(drag["target"], foot["target"]), 0.05)
        # The knee moved, and to where the command-line solver puts it for the same target.
        self.assertGreater(dist(drag["mid_after"], drag["mid_before"]), 0.01)
        cli = self.solve_with_cli(drag)
        ik = cli["ik"][0]
        self.assertEqual(ik["case"], drag["case"])
        self.assertLess(dist(ik["mid_after"], drag["mid_after"]), 1e-4, (ik, drag))
        knee = next(j for j in cli["joints"] if j["name"] == "LeftLeg")
        self.assertLess(dist(knee["world"], drag["mid_after"]), 1e-4)

        # The overlay is drawn: the yellow knee circle of the bent leg is on screen.
        shot = self.viewer.screenshot(os.path.join(self.shots, "after_drag.png"))
        yellow = xs.count_pixels(shot, lambda r, g, b: r > 0.8 and g > 0.65 and b < 0.45)
        self.assertGreater(yellow, 150, "no knee-circle (yellow) pixels in the screenshot")

        # Undo puts the target back, redo brings the drag back.
        self.viewer.key("ctrl+z")
        undo = self.viewer.wait_event("undo")
        target = next(c["target"] for c in undo["chains"] if c["end"] == "LeftFoot")
        self.assertLess(dist(target, foot["target"]), 1e-5)
        self.viewer.key("ctrl+shift+z")
        redo = self.viewer.wait_event("redo")
        target = next(c["target"] for c in redo["chains"] if c["end"] == "LeftFoot")
        self.assertLess(dist(target, drag["target"]), 1e-5)

        # Double-clicking the handle resets the target to the effector's unposed position.
        hx, hy = drag["handle_px"]
        self.viewer.double_click(hx, hy)
        reset = self.viewer.wait_event("reset")
        target = next(c["target"] for c in reset["chains"] if c["end"] == "LeftFoot")
        self.assertLess(dist(target, foot["target"]), 1e-5)

        self.assertEqual(self.viewer.quit(), 0)

    def test_menus_follow_the_cursor_after_the_window_moves(self):
        # Without a window manager SDL's idea of the window's position can go stale when the
        # window moves; the panels must still get the cursor where the user sees it.
        viewer = self.viewer
        viewer.move_window(0, 0)
        x0, y0 = self.chain("LeftFoot")["handle_px"]
        viewer.drag(x0, y0, x0 + 30, y0 - 40)
        moved = viewer.wait_event("drag_end")
        viewer.click(70, 10)  # Edit (the click waits for the frame that opens the menu)
        viewer.click(70, 33)  # Edit > Undo
        undo = viewer.wait_event("undo")
        foot = [c for c in undo["chains"] if c["end"] == "LeftFoot"][0]
        self.assertGreater(dist(foot["target"], moved["target"]), 1e-3)
        self.assertLess(dist(foot["target"], self.chain("LeftFoot")["target"]), 1e-4)

    def test_axis_drag_moves_the_target_along_y_only(self):
        hand = self.chain("LeftHand")  # on the right of the screen, clear of the panel
        x0, y0 = hand["handle_px"]
        # Click the disc first: it becomes the active chain and shows its arrows.
        self.viewer.click(x0, y0)
        # The Y arrow points up on screen from the handle; grab it 55 px above the centre.
        self.viewer.drag(x0, y0 - 55, x0 + 30, y0 - 95)
        drag = self.viewer.wait_event("drag_end")
        self.assertEqual(drag["end"], "LeftHand")
        self.assertEqual(drag["part"], "y")
        self.assertAlmostEqual(drag["target"][0], hand["target"][0], delta=1e-5)
        self.assertAlmostEqual(drag["target"][2], hand["target"][2], delta=1e-5)
        self.assertGreater(drag["target"][1], hand["target"][1] + 0.02)


class BodyDragTest(xs.XvfbTestCase):
    """The hips handle drags the whole body while the hands and feet stay on their targets."""

    def test_dragging_the_hips_handle_lowers_the_body_and_keeps_hands_and_feet(self):
        viewer = self.start()
        ready = viewer.wait_event("ready")
        viewer.find_window()
        hips = next(c for c in ready["chains"] if c["label"] == "Hips (body)")
        x0, y0 = hips["handle_px"]
        viewer.drag(x0, y0, x0 + 8, y0 + 60)
        drag = viewer.wait_event("drag_end")
        self.assertEqual(drag["kind"], "body")
        self.assertEqual(drag["end"], "Hips")
        self.assertTrue(drag["reached"], drag)
        self.assertAlmostEqual(drag["handle_px"][1], y0 + 60, delta=1.5)
        self.assertLess(dist(drag["effector"], drag["target"]), 1e-4)
        # The hips went down with the cursor; every hand and foot held the body as a pin.
        self.assertGreater(hips["target"][1] - drag["target"][1], 0.05)
        body = drag["body"]
        self.assertTrue(body["reached"], body)
        pins = {e["joint"]: e for e in body["effectors"] if e["from"] == "ik"}
        self.assertEqual(set(pins), {"LeftFoot", "RightFoot", "LeftHand", "RightHand"})
        for name, pin in pins.items():
            self.assertEqual(pin["kind"], "pin", name)
            self.assertLess(pin["error"], 1e-4, (name, pin))
            self.assertLess(dist(pin["position"], pin["target"]), 1e-4, name)
        viewer.screenshot(os.path.join(self.shots, "hips_dragged.png"))
        # Undo puts the hips handle back where it was.
        viewer.key("ctrl+z")
        undo = viewer.wait_event("undo")
        target = next(c["target"] for c in undo["chains"] if c["end"] == "Hips")
        self.assertLess(abs(target[1] - hips["target"][1]), 0.02)
        self.assertEqual(viewer.quit(), 0)


class ConstraintDragTest(xs.XvfbTestCase):
    """Aim and FABRIK constraints given on the command line get handles that drag like the others."""

    def test_dragging_an_aim_target_turns_the_head_toward_it(self):
        viewer = self.start(["--aim", "Head=0.35,1.75,0.6", "--fabrik",
                             "Spine:RightHand=-0.45,1.2,0.3"])
        ready = viewer.wait_event("ready")
        viewer.find_window()
        labels = [c["label"] for c in ready["chains"]]
        self.assertIn("aim Head", labels)
        self.assertIn("fabrik Spine:RightHand", labels)
        aim = next(c for c in ready["chains"] if c["label"] == "aim Head")
        x0, y0 = aim["handle_px"]
        self.assertGreater(x0, 380, "the aim handle should be clear of the panel")
        viewer.drag(x0, y0, x0 + 40, y0 + 50)
        drag = viewer.wait_event("drag_end")
        self.assertEqual(drag["kind"], "aim")
        self.assertEqual(drag["end"], "Head")
        self.assertTrue(drag["reached"], drag)
        self.assertGreater(dist(drag["target"], aim["target"]), 0.05)
        # The command line aims the head at the same target the same way.
        spec = "Head=%r,%r,%r" % tuple(drag["target"])
        out = subprocess.run([self.binary, "pose", "--aim", spec], capture_output=True, text=True,
                             timeout=xs.EVENT_TIMEOUT,
                             env=dict(os.environ, SDL_VIDEODRIVER="offscreen"))
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertTrue(json.loads(out.stdout)["aim"][0]["reached"])
        self.assertEqual(viewer.quit(), 0)


if __name__ == "__main__":
    xs.run_tests()
