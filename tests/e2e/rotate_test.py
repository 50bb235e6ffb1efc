"""End-to-end tests of posing in the window under Xvfb, driven as a user drives them: select a bone,
R and the mouse turn it about the view axis (Blender's modal rotate), typed digits give degrees, X
constrains to an axis, Escape puts the pose back exactly, Alt+R clears the rotation; and the pole
marker of a leg is a handle: dragging it moves the pole and the knee follows as the solver says.
Usage: rotate_test.py SKELVIEW_BINARY. Exit code 77 means skipped (a tool is missing)."""

import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xvfb_session as xs  # noqa: E402


def dist(a, b):
    return math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)))


def qmul(a, b):
    """Quaternion product, [x, y, z, w] as the trace writes them."""
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return [aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz]


def qinv(q):
    return [-q[0], -q[1], -q[2], q[3]]


def turn_degrees(before, after):
    """The angle of the turn from one rotation to the other, degrees."""
    d = qmul(after, qinv(before))
    return math.degrees(2.0 * math.acos(min(1.0, abs(d[3]))))


class RotateTest(xs.XvfbTestCase):
    def select(self, viewer, ready, joint, child):
        bones = ready["bones_px"]
        head, tail = bones[joint], bones[child]
        viewer.click(head[0] + 0.4 * (tail[0] - head[0]), head[1] + 0.4 * (tail[1] - head[1]))
        self.assertEqual(viewer.wait_event("select")["joint"], joint)
        return head

    def sweep(self, viewer, head, radius=110, degrees=90, steps=9):
        """Moves the cursor counterclockwise about `head` on screen, from its right."""
        for i in range(1, steps + 1):
            a = math.radians(degrees * i / steps)
            viewer.move(head[0] + radius * math.cos(a), head[1] - radius * math.sin(a))
        viewer.wait_frames()

    def start_rotate(self, viewer, head, radius=110):
        viewer.move(head[0] + radius, head[1])
        viewer.wait_frames()
        viewer.key("r")

    def test_r_turns_the_selected_bone_and_escape_enter_and_alt_r_do_what_they_say(self):
        viewer = self.start(["--no-settings", "--show", "mesh,grid,bones"], size="1000x700")
        ready = viewer.wait_event("ready")
        viewer.find_window()
        head = self.select(viewer, ready, "LeftUpLeg", "LeftLeg")

        # R and a quarter turn of the mouse about the hip, then Escape: the pose goes back exactly.
        self.start_rotate(viewer, head)
        self.sweep(viewer, head)
        viewer.screenshot(os.path.join(self.shots, "rotating.png"))
        viewer.key("Escape")
        cancel = viewer.wait_event("rotate_cancel")
        self.assertEqual(cancel["joint"], "LeftUpLeg")
        self.assertEqual(cancel["rotation"], cancel["before"])
        self.assertIsNone(cancel["offset"])
        rest = cancel["rotation"]

        # R, the mouse, then typed 30 and Enter: 30 degrees about the view axis, whatever the mouse.
        self.start_rotate(viewer, head)
        self.sweep(viewer, head, degrees=60, steps=6)
        viewer.key("3")
        viewer.key("0")
        viewer.screenshot(os.path.join(self.shots, "typed.png"))
        viewer.key("Return")
        end = viewer.wait_event("rotate_end")
        self.assertEqual(end["joint"], "LeftUpLeg")
        self.assertEqual(end["axis"], "view")
        self.assertEqual(end["degrees"], 30)
        self.assertEqual(end["before"], rest)
        self.assertAlmostEqual(turn_degrees(rest, end["rotation"]), 30.0, delta=0.05)
        self.assertIsNotNone(end["offset"])
        # The view axis: toward the viewer, from the camera's yaw and pitch.
        yaw, pitch = math.radians(ready["camera"]["yaw"]), math.radians(ready["camera"]["pitch"])
        toward = [math.cos(pitch) * math.sin(yaw), math.sin(pitch), math.cos(pitch) * math.cos(yaw)]
        self.assertGreater(sum(a * b for a, b in zip(end["axis_vector"], toward)), 0.999,
                           (end["axis_vector"], toward))

        # The mouse alone: a quarter turn counterclockwise on screen, then a click confirms.
        self.start_rotate(viewer, head)
        self.sweep(viewer, head)
        viewer.click(head[0], head[1] - 110)
        mouse = viewer.wait_event("rotate_end")
        self.assertEqual(mouse["axis"], "view")
        self.assertAlmostEqual(mouse["degrees"], 90.0, delta=3.0)
        self.assertAlmostEqual(turn_degrees(end["rotation"], mouse["rotation"]), mouse["degrees"],
                               delta=0.05)

        # X constrains to the global X axis (twice: the bone's own); typed -45 with a minus.
        self.start_rotate(viewer, head)
        viewer.key("x")
        viewer.key("minus")
        viewer.key("4")
        viewer.key("5")
        viewer.key("Return")
        about_x = viewer.wait_event("rotate_end")
        self.assertEqual(about_x["axis"], "x")
        self.assertEqual(about_x["degrees"], -45)
        self.assertLess(dist(about_x["axis_vector"], [1, 0, 0]), 1e-6)
        self.start_rotate(viewer, head)
        viewer.key("x")
        viewer.key("x")
        viewer.key("1")
        viewer.key("0")
        viewer.key("Return")
        local_x = viewer.wait_event("rotate_end")
        self.assertEqual(local_x["axis"], "local_x")
        self.assertAlmostEqual(turn_degrees(about_x["rotation"], local_x["rotation"]), 10.0,
                               delta=0.05)

        # Undo takes the last turn back; Alt+R clears the rotation: the pose as it was.
        viewer.key("ctrl+z")
        viewer.wait_event("undo")
        viewer.key("alt+r")
        clear = viewer.wait_event("rotate_clear")
        self.assertEqual(clear["joint"], "LeftUpLeg")
        self.assertIsNone(clear["offset"])
        self.assertLess(dist(clear["rotation"], rest), 1e-6)
        self.assertEqual(viewer.quit(), 0)

    def test_the_rotate_gizmo_turns_the_bone_by_the_ring_dragged(self):
        viewer = self.start(["--no-settings", "--show", "mesh,grid,bones"], size="1000x700")
        ready = viewer.wait_event("ready")
        viewer.find_window()
        self.select(viewer, ready, "LeftUpLeg", "LeftLeg")
        viewer.key("1")  # the front view: +Z toward the viewer
        viewer.wait_event("camera")
        viewer.key("shift+r")
        gizmo = viewer.wait_event("rotate_gizmo")
        self.assertEqual(gizmo["mode"], "global")
        self.assertEqual(gizmo["joint"], "LeftUpLeg")
        cx, cy = gizmo["center_px"]
        r, big = gizmo["radius_px"], gizmo["view_radius_px"]
        viewer.move(cx + big, cy)
        viewer.wait_frames()
        viewer.screenshot(os.path.join(self.shots, "gizmo_hover.png"))
        # The white ring, a quarter turn counterclockwise: about the view.
        viewer.drag(cx + big, cy, cx, cy - big, steps=16)
        view = viewer.wait_event("rotate_end")
        self.assertEqual(view["by"], "gizmo")
        self.assertEqual(view["axis"], "view")
        self.assertAlmostEqual(view["degrees"], 90.0, delta=3.0)
        self.assertLess(dist(view["axis_vector"], [0, 0, 1]), 1e-3)
        # The blue ring (Z, facing the viewer), a quarter turn clockwise: -90 about Z.
        c, s = r * math.cos(math.radians(45)), r * math.sin(math.radians(45))
        viewer.drag(cx + c, cy - s, cx + c, cy + s, steps=16)
        about_z = viewer.wait_event("rotate_end")
        self.assertEqual(about_z["axis"], "z")
        self.assertAlmostEqual(about_z["degrees"], -90.0, delta=3.0)
        self.assertAlmostEqual(turn_degrees(view["rotation"], about_z["rotation"]), 90.0,
                               delta=3.0)
        viewer.key("shift+r")
        self.assertEqual(viewer.wait_event("rotate_gizmo")["mode"], "local")
        viewer.key("shift+r")
        self.assertEqual(viewer.wait_event("rotate_gizmo")["mode"], "off")
        self.assertEqual(viewer.quit(), 0)

    def test_dragging_the_pole_marker_moves_the_pole_and_the_knee_follows(self):
        target = "0.09,0.25,0.12"
        pole = "0.09,0.5,0.6"
        viewer = self.start(["--no-settings", "--ik", f"LeftFoot={target},pole={pole},nohinge"],
                            size="1000x700")
        ready = viewer.wait_event("ready")
        viewer.find_window()
        chains = {c["end"]: c for c in ready["chains"]}
        self.assertIsNone(chains["RightFoot"]["pole_px"])
        x0, y0 = chains["LeftFoot"]["pole_px"]
        # Hovering rings the marker.
        viewer.move(x0, y0)
        viewer.wait_frames()
        viewer.screenshot(os.path.join(self.shots, "pole_hover.png"))
        dx, dy = 90, 30
        viewer.drag(x0, y0, x0 + dx, y0 + dy)
        drag = viewer.wait_event("drag_end")
        self.assertEqual(drag["part"], "pole")
        self.assertEqual(drag["end"], "LeftFoot")
        # The marker followed the cursor, on the camera-facing plane.
        self.assertAlmostEqual(drag["pole_px"][0], x0 + dx, delta=1.5)
        self.assertAlmostEqual(drag["pole_px"][1], y0 + dy, delta=1.5)
        new_pole = drag["options"]["pole"]
        self.assertGreater(dist(new_pole, [float(v) for v in pole.split(",")]), 0.05)
        # The knee went where the command-line solver puts it for the new pole, and it moved.
        def knee(pole_spec):
            args = [self.binary, "pose", "--ik", f"LeftFoot={target},pole={pole_spec},nohinge"]
            if "anim" in drag:
                args += ["--anim", str(drag["anim"]["index"]), "--time", repr(drag["anim"]["time"])]
            out = subprocess.run(
                args, capture_output=True, text=True, timeout=xs.EVENT_TIMEOUT,
                env=dict(os.environ, SDL_VIDEODRIVER="offscreen"))
            self.assertEqual(out.returncode, 0, out.stderr)
            return json.loads(out.stdout)["ik"][0]["mid_after"]
        before = knee(pole)
        after = knee("%r,%r,%r" % tuple(new_pole))
        self.assertLess(dist(drag["mid_after"], after), 1e-4, (drag, after))
        self.assertGreater(dist(after, before), 0.01)
        # Undo puts the pole back.
        viewer.key("ctrl+z")
        viewer.wait_event("undo")
        viewer.drag(x0, y0, x0 - 40, y0)  # the marker is where it was: it can be grabbed there
        again = viewer.wait_event("drag_end")
        self.assertEqual(again["part"], "pole")
        self.assertAlmostEqual(again["pole_px"][0], x0 - 40, delta=1.5)
        self.assertEqual(viewer.quit(), 0)


if __name__ == "__main__":
    xs.run_tests()
