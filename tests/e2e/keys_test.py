"""End-to-end test of keyed IK targets in the window under Xvfb: drag the left foot's target, press
I at time 0, move the playhead, drag it again (a keyed target is keyed where it is moved), press I;
the trace's key_set events name the chain and the times, the target between the keys is between
their positions (a key set there and deleted with X reports it), Ctrl+Z undoes a key, and the
timeline shows the keys as diamonds in the chain's lane (a screenshot is kept).
Usage: keys_test.py SKELVIEW_BINARY. Exit code 77 means skipped (a tool is missing)."""

import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xvfb_session as xs  # noqa: E402


def dist(a, b):
    return math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b)))


class KeysTest(xs.XvfbTestCase):
    def test_keys_set_with_i_interpolate_and_show_on_the_timeline(self):
        # A pinned foot target (it stays where it is when the playhead moves), on the walk.
        viewer = self.start(["--anim", "0", "--ik", "LeftFoot=0.2,0.3,0.1"])
        ready = viewer.wait_event("ready")
        viewer.find_window()
        events = viewer.events()
        self.assertEqual(events[0]["event"], "ready")
        index = next(i for i, c in enumerate(ready["chains"]) if c["end"] == "LeftFoot")
        x0, y0 = ready["chains"][index]["handle_px"]

        # Drag the target, key it at time 0.
        viewer.drag(x0, y0, x0 + 40, y0 - 50)
        first = viewer.wait_event("drag_end")
        self.assertEqual(first["end"], "LeftFoot")
        viewer.key("i")
        key0 = viewer.wait_event("key_set")
        self.assertEqual(key0["chain"], index)
        self.assertEqual(key0["end"], "LeftFoot")
        self.assertEqual(key0["time"], 0)
        self.assertEqual(key0["keys"], [0])
        self.assertLess(dist(key0["target"], first["target"]), 1e-5)

        # Half a second on (15 frames of the 30 fps walk): the one key holds the target there.
        for _ in range(15):
            viewer.key("Right")
        viewer.wait_frames()
        # Drag again: a keyed target is keyed where it is moved (traced as key_set), then I.
        x1, y1 = first["handle_px"]
        viewer.drag(x1, y1, x1 - 60, y1 + 40)
        second = viewer.wait_event("drag_end")
        self.assertGreater(dist(second["target"], first["target"]), 0.05)
        moved = viewer.wait_event("key_set")
        self.assertAlmostEqual(moved["time"], 0.5, places=3)
        self.assertEqual(len(moved["keys"]), 2)
        viewer.key("i")
        key1 = viewer.wait_event("key_set")
        self.assertAlmostEqual(key1["time"], 0.5, places=3)
        self.assertEqual(len(key1["keys"]), 2)
        self.assertLess(dist(key1["target"], second["target"]), 1e-5)
        a, b = first["target"], second["target"]

        shot = viewer.screenshot(os.path.join(self.shots, "keyed_timeline.png"))
        # The keys' diamonds (orange, the active chain's) on the timeline at the bottom (of the
        # 900x700 window), where nothing else is orange without a loop range.
        strip = xs.crop(shot, (0, 540, 900, 160), os.path.join(self.shots, "timeline_strip.png"))
        orange = xs.count_pixels(strip, lambda r, g, b_: r > 0.9 and 0.45 < g < 0.62 and b_ < 0.35)
        self.assertGreater(orange, 20, "no key diamonds (orange) in the screenshot")

        # Between the keys (8 frames back: t = 0.2667) the target is between their positions: a
        # key set there reports it, and deleting that key (X) gives the curve through the two.
        for _ in range(7):
            viewer.key("Left")
        viewer.wait_frames()
        viewer.key("i")
        middle = viewer.wait_event("key_set")
        self.assertEqual(len(middle["keys"]), 3)
        viewer.key("x")
        deleted = viewer.wait_event("key_deleted")
        self.assertAlmostEqual(deleted["time"], middle["time"], places=4)
        self.assertEqual(len(deleted["keys"]), 2)
        between = deleted["target"]
        for k in range(3):
            self.assertGreaterEqual(between[k], min(a[k], b[k]) - 1e-5)
            self.assertLessEqual(between[k], max(a[k], b[k]) + 1e-5)
        self.assertGreater(dist(between, a), 0.01)
        self.assertGreater(dist(between, b), 0.01)
        self.assertLess(dist(between, middle["target"]), 1e-5)

        # Undo brings the deleted key back; undo again takes it away.
        viewer.key("ctrl+z")
        viewer.wait_event("undo")
        self.assertEqual(viewer.quit(), 0)


if __name__ == "__main__":
    xs.run_tests()
