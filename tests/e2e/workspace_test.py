"""End-to-end tests of the workspace's manners under Xvfb, driven as a user drives it: an open menu
keeps the keys from the scene and Escape closes it; the wheel over the panel scrolls the panel and
never zooms the view; undo and redo with nothing to undo write nothing, and every reset (the R key,
the panel, Edit > Reset pose) is one `reset` trace event; a bad model on the command line opens
the window with the error in the message log, File > Open works, and quitting exits 2; quitting
or opening another file with edits not exported asks first; an idle frame allocates nothing, with
or without active blend shapes; a blend-shape slider dragged with the mouse reshapes the mesh as
one undoable edit.
Usage: workspace_test.py SKELVIEW_BINARY. Exit code 77 means skipped (a tool is missing)."""

import base64
import json
import os
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xvfb_session as xs  # noqa: E402

# Where the menu bar's menus and the Edit menu's "Reset pose" item are, window coordinates (the
# built-in font, the same at every window size).
FILE_MENU = (20, 10)
EDIT_MENU = (62, 10)
EDIT_RESET_POSE = (80, 89)
# The IK chains list of the side panel with a model of two chains (window 1000x620).
CHAIN_LIST_BOX = (8, 30, 350, 560)
# A point over the side panel's sections, and one over the 3D view right of it (window 1000x620).
OVER_PANEL = (150, 300)
OVER_VIEW = (700, 300)
# File > Open's path field (window 1000x620, the browser centred).
OPEN_PATH_FIELD = (500, 116)
# With the morph quad open (write_morph_quad; no joints, no clips, so the sections above it keep
# their height): the side panel's "Blend shapes" header, the mesh's row under it once open, and
# its first target's ("up") slider row; the slider runs from x 37 to about 233.
BLEND_SHAPES_HEADER = (90, 527)
BLEND_SHAPES_MESH = (80, 550)
BLEND_SHAPES_UP_ROW = 573
# The 3D view right of the panel, below where it shows what undo and redo did and above the
# timeline (window 1000x760): for comparing renders.
VIEW_BOX = (380, 70, 500, 390)


def write_morph_quad(path):
    """A glTF quad (mesh "quad") with targets "up" and "out" at default weights 0.4 and 0.3."""
    floats = [0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0,   # positions
              0, 0, 0.5, 0, 0, 0.5, 0, 0, 0, 0, 0, 0,   # up: the lower edge comes forward
              0.2, 0, 0, 0, 0, 0, 0, 0, 0, 0.2, 0, 0]   # out
    data = struct.pack("<36f", *floats) + struct.pack("<6H", 0, 1, 2, 0, 2, 3)
    accessor = lambda offset, count, kind, component=5126: {  # noqa: E731
        "bufferView": 0, "byteOffset": offset, "componentType": component, "count": count,
        "type": kind}
    accessors = [accessor(0, 4, "VEC3"), accessor(48, 4, "VEC3"), accessor(96, 4, "VEC3"),
                 accessor(144, 6, "SCALAR", 5123)]
    accessors[0].update({"min": [0, 0, 0], "max": [1, 1, 0]})
    doc = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}],
           "nodes": [{"name": "quad_node", "mesh": 0}],
           "meshes": [{"name": "quad", "weights": [0.4, 0.3],
                       "extras": {"targetNames": ["up", "out"]},
                       "primitives": [{"attributes": {"POSITION": 0}, "indices": 3,
                                       "targets": [{"POSITION": 1}, {"POSITION": 2}]}]}],
           "buffers": [{"byteLength": len(data), "uri": "data:application/octet-stream;base64,"
                        + base64.b64encode(data).decode()}],
           "bufferViews": [{"buffer": 0, "byteLength": len(data)}],
           "accessors": accessors}
    with open(path, "w") as f:
        json.dump(doc, f)


def write_straight_legs(path):
    """A glTF skeleton (no mesh) whose two legs are straight at rest: hip, knee and ankle on a
    vertical line, so that a foot target on that line leaves the knee's side to chance."""
    def node(name, translation, children=()):
        n = {"name": name, "translation": translation}
        if children:
            n["children"] = list(children)
        return n
    nodes = [node("Hips", [0, 1.0, 0], [1, 4]),
             node("LeftUpLeg", [0.1, -0.05, 0], [2]), node("LeftLeg", [0, -0.45, 0], [3]),
             node("LeftFoot", [0, -0.42, 0]),
             node("RightUpLeg", [-0.1, -0.05, 0], [5]), node("RightLeg", [0, -0.45, 0], [6]),
             node("RightFoot", [0, -0.42, 0])]
    doc = {"asset": {"version": "2.0"}, "scene": 0, "scenes": [{"nodes": [0]}], "nodes": nodes}
    with open(path, "w") as f:
        json.dump(doc, f)


class WorkspaceTest(xs.XvfbTestCase):
    def test_escape_closes_an_open_menu_and_keys_wait_while_it_is_open(self):
        viewer = self.start()
        viewer.wait_event("ready")
        viewer.find_window()
        viewer.click(*FILE_MENU)  # File menu open
        viewer.key("alt+g")  # would reset every target if it reached the scene
        viewer.key("Escape")  # closes the menu
        viewer.key("alt+g")  # now it reaches the scene
        viewer.wait_event("reset")
        viewer.wait_frames()
        self.assertEqual(len(xs.named(viewer.events(), "reset")), 1, viewer.events())
        self.assertEqual(viewer.quit(), 0)

    def test_wheel_over_the_panel_scrolls_it_and_never_zooms(self):
        viewer = self.start(size="1000x620")
        viewer.wait_event("ready")
        viewer.find_window()
        panel = (8, 30, 350, 560)
        before = xs.crop(viewer.screenshot(os.path.join(self.shots, "before.png")), panel,
                      os.path.join(self.shots, "panel-before.png"))
        viewer.move(*OVER_VIEW)
        viewer.wait_frames()
        # A flick onto the panel and the wheel at once: both arrive before the viewer's next frame,
        # when the panel has not yet seen the cursor over it.
        viewer.xdotool("mousemove", "--window", viewer.window, str(OVER_PANEL[0]),
                       str(OVER_PANEL[1]), "click", "--repeat", "4", "--delay", "0", "5",
                       idempotent=False)
        viewer.wait_frames()
        after = xs.crop(viewer.screenshot(os.path.join(self.shots, "after.png")), panel,
                     os.path.join(self.shots, "panel-after.png"))
        self.assertGreater(xs.differing_pixels(before, after), 2000, "the panel did not scroll")
        self.assertEqual(xs.named(viewer.events(), "camera"), [], "the wheel over the panel zoomed")
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
        self.assertEqual(len(reset["chains"]), 6)  # 4 limbs, hips and chest handles
        self.assertEqual(viewer.quit(), 0)

    def test_a_bad_model_opens_the_window_with_the_error_and_quitting_exits_2(self):
        bad = os.path.join(self.shots, "not-a-model.glb")
        with open(bad, "wb") as f:
            f.write(b"this is not a model" * 10)
        viewer = self.start([bad], size="1000x620")
        failed = viewer.wait_event("load_failed")
        self.assertEqual(failed["path"], bad)
        self.assertIn(bad, failed["error"])
        ready = viewer.wait_event("ready")
        self.assertEqual(ready["model"], "(nothing loaded)")
        self.assertEqual(ready["chains"], [])
        viewer.find_window()
        # The message log is open with the error in red.
        shot = viewer.screenshot(os.path.join(self.shots, "bad-model.png"))
        red = xs.count_pixels(shot, lambda r, g, b: r > 0.85 and 0.3 < g < 0.6 and b < 0.5)
        self.assertGreater(red, 200, "no error text (red) in the window")
        self.assertIn(bad, viewer.output())  # and on stderr, as before
        # File > Open still opens a good file.
        good = os.path.join(self.shots, "good.glb")
        subprocess.run([self.binary, "export", "-o", good], check=True, timeout=xs.EVENT_TIMEOUT)
        viewer.key("ctrl+o")
        viewer.click(*OPEN_PATH_FIELD)
        viewer.key("ctrl+a")
        viewer.type(good)
        viewer.key("Return")
        done = viewer.wait_event("load_done")
        self.assertEqual(done["model"], good)
        self.assertEqual(done["chains"], 6)  # 4 limbs, hips and chest handles
        # Scripts still see the failure of the command line's model.
        self.assertEqual(viewer.quit(), 2)
        self.assertEqual([e["event"] for e in viewer.events()][-1], "exit")

    def drag_left_foot(self, viewer, ready):
        foot = next(c for c in ready["chains"] if c["end"] == "LeftFoot")
        x0, y0 = foot["handle_px"]
        viewer.drag(x0, y0, x0 + 40, y0 - 60)
        return viewer.wait_event("drag_end")

    def test_quitting_or_opening_with_unexported_edits_asks_first(self):
        good = os.path.join(self.shots, "other.glb")
        subprocess.run([self.binary, "export", "-o", good], check=True, timeout=xs.EVENT_TIMEOUT)
        viewer = self.start(size="1000x620")
        ready = viewer.wait_event("ready")
        viewer.find_window()
        # Nothing edited yet would quit at once; after a drag Ctrl+Q asks instead.
        self.drag_left_foot(viewer, ready)
        self.assertIsNone(viewer.quit(discard=False))
        asked = xs.named(viewer.events(), "confirm")[-1]
        self.assertEqual(asked["then"], "quit")
        viewer.screenshot(os.path.join(self.shots, "unsaved-question.png"))
        # The question is modal: a drag across the view behind it does not orbit the camera.
        viewer.drag(*OVER_VIEW, OVER_VIEW[0] + 120, OVER_VIEW[1] + 40)
        viewer.wait_frames()
        self.assertEqual(xs.named(viewer.events(), "camera"), [])
        viewer.key("Escape")  # cancel: the viewer keeps working on the model
        viewer.wait_frames()
        viewer.alive()
        viewer.drag(*OVER_VIEW, OVER_VIEW[0] + 120, OVER_VIEW[1] + 40)
        self.assertEqual(viewer.wait_event("camera")["by"], "orbit")
        # Dropping another file asks too; its Discard button opens the file.
        self.assertTrue(viewer.drop_file(good), "the window did not take the drop")
        asked = viewer.wait_event("confirm")
        self.assertEqual(asked["then"], "open")
        self.assertEqual(asked["path"], good)
        self.assertEqual(xs.named(viewer.events(), "load_started"), [])
        viewer.click(*asked["discard"])
        self.assertEqual(viewer.wait_event("discard")["then"], "open")
        self.assertEqual(viewer.wait_event("load_done")["model"], good)
        # The new model has no edits: quitting does not ask.
        asked_before = len(xs.named(viewer.events(), "confirm"))
        self.assertEqual(viewer.quit(discard=False), 0)
        self.assertEqual(len(xs.named(viewer.events(), "confirm")), asked_before)

    def test_exporting_the_edits_means_quitting_does_not_ask(self):
        viewer = self.start(size="1000x620")
        ready = viewer.wait_event("ready")
        viewer.find_window()
        self.drag_left_foot(viewer, ready)
        viewer.key("ctrl+e")  # the dialog proposes a file next to the model (here: the cwd)
        viewer.key("Return")
        exported = viewer.wait_event("export")
        self.assertTrue(exported["ok"], exported)
        self.assertTrue(os.path.isabs(exported["path"]), exported["path"])
        self.assertTrue(exported["path"].endswith("skelview-character-skelview.glb"))
        self.assertTrue(os.path.exists(exported["path"]))
        asked_before = len(xs.named(viewer.events(), "confirm"))
        self.assertEqual(viewer.quit(discard=False), 0)
        self.assertEqual(len(xs.named(viewer.events(), "confirm")), asked_before)
        # The message says where the file went, in full (stdout is read once the viewer is gone).
        self.assertIn("exported " + exported["path"], viewer.output())

    def assert_idle_frames_allocate_nothing(self, viewer):
        """Quits the viewer and checks its exit event: over 20 idle frames, none allocated."""
        self.assertEqual(viewer.quit(), 0)
        idle = xs.named(viewer.events(), "exit")[0]["idle_allocations"]
        self.assertGreater(idle["frames"], 20, idle)
        self.assertEqual(idle["max"], 0, idle)
        self.assertEqual(idle["total"], 0, idle)

    def test_an_idle_frame_allocates_nothing(self):
        # Everything drawn that can be: bones, axes, knee circles, shells, limits, the weights of
        # a selected joint (its panel open), the timeline with its keys.
        viewer = self.start(["--show", "mesh,grid,bones,axes,handles,knees,shells,limits,"
                             "weights=LeftUpLeg"], size="1000x620")
        viewer.wait_event("ready")
        viewer.find_window()
        viewer.move(*OVER_VIEW)
        viewer.wait_frames(60)  # idle: no input, nothing playing
        self.assert_idle_frames_allocate_nothing(viewer)

    def test_an_idle_frame_with_active_blend_shapes_allocates_nothing(self):
        # A quad whose two morph targets both have non-zero default weights: every frame hands
        # the weights to the GPU model, which must neither reblend nor allocate.
        path = os.path.join(self.shots, "morph_quad.gltf")
        write_morph_quad(path)
        viewer = self.start([path], size="1000x620")
        viewer.wait_event("ready")
        viewer.find_window()
        viewer.move(*OVER_VIEW)
        viewer.wait_frames(60)
        self.assert_idle_frames_allocate_nothing(viewer)

    def test_a_chain_straight_at_rest_is_a_warning_and_its_idle_frames_allocate_nothing(self):
        # The left foot's target up its straight leg: the knee's side is the solver's guess.
        path = os.path.join(self.shots, "straight_legs.gltf")
        write_straight_legs(path)
        viewer = self.start([path, "--ik", "LeftFoot=0.1,0.5,0"], size="1000x620")
        viewer.wait_event("ready")
        viewer.find_window()
        viewer.move(*OVER_VIEW)
        viewer.wait_frames(60)
        # The chain's status, in the IK chains list, in the warning colour (amber), not green.
        panel = xs.crop(viewer.screenshot(os.path.join(self.shots, "straight.png")),
                        CHAIN_LIST_BOX, os.path.join(self.shots, "straight-list.png"))
        amber = xs.count_pixels(panel, lambda r, g, b: r > 0.9 and 0.7 < g < 0.9 and b < 0.5)
        self.assertGreater(amber, 40, "no status in the warning colour: see " + panel)
        self.assert_idle_frames_allocate_nothing(viewer)

    def test_a_blend_shape_slider_reshapes_the_mesh_and_undo_takes_it_back(self):
        path = os.path.join(self.shots, "morph_quad.gltf")
        write_morph_quad(path)
        viewer = self.start([path], size="1000x760")
        viewer.wait_event("ready")
        viewer.find_window()
        viewer.click(*BLEND_SHAPES_HEADER)
        viewer.click(*BLEND_SHAPES_MESH)
        view = lambda name: xs.crop(  # noqa: E731
            viewer.screenshot(os.path.join(self.shots, name + ".png")), VIEW_BOX,
            os.path.join(self.shots, name + "-view.png"))
        before = view("before")
        # Dragging "up" past the slider's right end sets it to 1: one undoable edit.
        viewer.drag(60, BLEND_SHAPES_UP_ROW, 340, BLEND_SHAPES_UP_ROW)
        moved = view("moved")
        self.assertGreater(xs.differing_pixels(before, moved), 2000,
                           "the quad did not change shape")
        viewer.move(*OVER_VIEW)
        viewer.key("ctrl+z")
        self.assertEqual(viewer.wait_event("undo")["morphs"], [])
        self.assertEqual(xs.differing_pixels(before, view("undone")), 0)
        viewer.key("ctrl+shift+z")
        redone = viewer.wait_event("redo")["morphs"]
        self.assertEqual(redone, [{"mesh": 0, "mesh_name": "quad", "target": 0,
                                   "target_name": "up", "weight": 1.0}])
        self.assertEqual(xs.differing_pixels(moved, view("redone")), 0)
        # A hand-set weight is an edit: quitting asks first.
        self.assertIsNone(viewer.quit(discard=False))
        self.assertEqual(xs.named(viewer.events(), "confirm")[-1]["then"], "quit")

    def test_f1_and_question_mark_show_the_help_and_escape_closes_it(self):
        viewer = self.start(size="1000x620")
        viewer.wait_event("ready")
        viewer.find_window()
        middle = (400, 150, 400, 300)  # right of the panel, where the help is centred

        def shot(name):
            return xs.crop(viewer.screenshot(os.path.join(self.shots, name + ".png")), middle,
                        os.path.join(self.shots, name + "-middle.png"))

        plain = shot("plain")
        for key in ("F1", "question"):
            viewer.key(key)
            helped = shot("help-" + key)
            self.assertGreater(xs.differing_pixels(plain, helped), 20000, f"{key} showed no help")
            viewer.key("Escape")
            closed = shot("closed-" + key)
            self.assertLess(xs.differing_pixels(plain, closed), 2000, "Escape left the help open")
        self.assertEqual(viewer.quit(), 0)

    def test_a_bad_argument_still_exits_2_without_a_window(self):
        proc = subprocess.run([self.binary, "--size", "0x0"], env=self.xvfb.env(),
                              capture_output=True, text=True, timeout=xs.EVENT_TIMEOUT)
        self.assertEqual(proc.returncode, 2, proc.stdout + proc.stderr)
        self.assertIn("--size", proc.stderr)


if __name__ == "__main__":
    xs.run_tests()
