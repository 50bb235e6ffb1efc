"""Helpers for end-to-end tests of the skelview window: a private Xvfb display, the viewer started
on it with --trace, xdotool input and ImageMagick screenshots. Standard library only."""

import json
import os
import shutil
import subprocess
import tempfile
import sys
import time
import unittest


class SkipTest(Exception):
    """Raised when a tool the test needs (Xvfb, xdotool, import) is not installed."""


def require_tools(*names):
    missing = [n for n in names if shutil.which(n) is None]
    if missing:
        raise SkipTest("missing tools: " + ", ".join(missing))


class Xvfb:
    """An Xvfb server on a free display number, stopped on exit."""

    def __init__(self, width=1400, height=1000):
        require_tools("Xvfb")
        read_fd, write_fd = os.pipe()
        self.proc = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", f"{width}x{height}x24",
             "-nolisten", "tcp"],
            pass_fds=(write_fd,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write_fd)
        number = b""
        deadline = time.time() + 20
        while not number.endswith(b"\n") and time.time() < deadline:
            chunk = os.read(read_fd, 16)
            if not chunk:
                break
            number += chunk
        os.close(read_fd)
        if not number.strip():
            self.proc.kill()
            raise RuntimeError("Xvfb did not report a display number")
        self.display = ":" + number.decode().strip()

    def env(self):
        env = dict(os.environ)
        env["DISPLAY"] = self.display
        env.pop("SDL_VIDEODRIVER", None)
        env.pop("WAYLAND_DISPLAY", None)
        env["SDL_VIDEODRIVER"] = "x11"
        # Keep the recent-files list of the tests out of the user's configuration.
        env["XDG_CONFIG_HOME"] = tempfile.mkdtemp(prefix="skelview-config-")
        return env

    def close(self):
        self.proc.terminate()
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Viewer:
    """skelview running in a window on an Xvfb display, followed through its --trace file."""

    def __init__(self, binary, xvfb, args=(), size="900x700"):
        self.xvfb = xvfb
        self.dir = tempfile.mkdtemp(prefix="skelview-e2e-")
        self.trace_path = os.path.join(self.dir, "trace.jsonl")
        self.log_path = os.path.join(self.dir, "viewer.log")
        self.log = open(self.log_path, "w")
        self.proc = subprocess.Popen(
            [binary, *args, "--trace", self.trace_path, "--size", size],
            env=xvfb.env(), cwd=self.dir, stdout=self.log, stderr=subprocess.STDOUT)
        self.window = None

    def events(self):
        if not os.path.exists(self.trace_path):
            return []
        with open(self.trace_path) as f:
            return [json.loads(line) for line in f if line.strip()]

    def wait_event(self, name, count=1, timeout=60):
        deadline = time.time() + timeout
        while time.time() < deadline:
            found = [e for e in self.events() if e.get("event") == name]
            if len(found) >= count:
                return found[count - 1]
            if self.proc.poll() is not None:
                raise AssertionError(f"skelview exited ({self.proc.returncode}) before '{name}':\n"
                                     + self.output())
            time.sleep(0.05)
        raise AssertionError(f"no '{name}' event within {timeout} s:\n" + self.output())

    def output(self):
        self.log.flush()
        with open(self.log_path) as f:
            return f.read()

    def xdotool(self, *args):
        return subprocess.run(["xdotool", *args], env=self.xvfb.env(), check=True,
                              capture_output=True, text=True).stdout

    def find_window(self):
        deadline = time.time() + 20
        while time.time() < deadline:
            out = subprocess.run(["xdotool", "search", "--name", "^skelview$"],
                                 env=self.xvfb.env(), capture_output=True, text=True).stdout
            ids = out.split()
            if ids:
                self.window = ids[0]
                return self.window
            time.sleep(0.1)
        raise AssertionError("the skelview window did not appear")

    def move(self, x, y):
        self.xdotool("mousemove", "--window", self.window, str(int(x)), str(int(y)))

    def drag(self, x0, y0, x1, y1, button=1, steps=12, modifiers=()):
        """Presses at (x0, y0), moves in steps to (x1, y1) and releases, as a hand would."""
        for m in modifiers:
            self.xdotool("keydown", m)
        self.move(x0, y0)
        time.sleep(0.15)
        self.xdotool("mousedown", str(button))
        time.sleep(0.1)
        for i in range(1, steps + 1):
            self.move(x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)
            time.sleep(0.03)
        time.sleep(0.15)
        self.xdotool("mouseup", str(button))
        for m in modifiers:
            self.xdotool("keyup", m)

    def key(self, *keys):
        self.xdotool("key", "--window", self.window, *keys)

    def hold_key(self, key, seconds=0.2):
        """Presses a key for a while: Dear ImGui 1.86 misses a press and release in one frame."""
        self.xdotool("keydown", "--window", self.window, key)
        time.sleep(seconds)
        self.xdotool("keyup", "--window", self.window, key)

    def screenshot(self, path):
        require_tools("import")
        subprocess.run(["import", "-display", self.xvfb.display, "-window", self.window, path],
                       check=True, capture_output=True)
        return path

    def wait_exit(self, timeout=20):
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise AssertionError("skelview did not quit:\n" + self.output())

    def close(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.log.close()


def image_stats(path):
    """Mean and standard deviation of an image's grey levels (0..1), via ImageMagick."""
    require_tools("convert")
    out = subprocess.run(
        ["convert", path, "-colorspace", "gray", "-format", "%[fx:mean] %[fx:standard_deviation]",
         "info:"], check=True, capture_output=True, text=True).stdout.split()
    return float(out[0]), float(out[1])


def pixel(path, x, y):
    """(r, g, b) 0..255 of one pixel, via ImageMagick."""
    out = subprocess.run(
        ["convert", path, "-format", f"%[fx:int(255*p{{{x},{y}}}.r)] %[fx:int(255*p{{{x},{y}}}.g)] "
         f"%[fx:int(255*p{{{x},{y}}}.b)]", "info:"],
        check=True, capture_output=True, text=True).stdout.split()
    return tuple(int(v) for v in out)


def brightest_near(path, x, y, half=12):
    """Largest grey level (0..255) in a square of 2*half+1 pixels around (x, y)."""
    require_tools("convert")
    x0, y0 = max(int(x) - half, 0), max(int(y) - half, 0)
    out = subprocess.run(
        ["convert", path, "-crop", f"{2 * half + 1}x{2 * half + 1}+{x0}+{y0}", "+repage",
         "-colorspace", "gray", "-format", "%[fx:int(255*maxima)]", "info:"],
        check=True, capture_output=True, text=True).stdout
    return int(out.split()[0])


class XvfbTestCase(unittest.TestCase):
    """A test with its own Xvfb display (skipped when the tools are missing); `BINARY` is the
    skelview executable, set by run_tests()."""

    BINARY = None

    @property
    def binary(self):
        return XvfbTestCase.BINARY

    def setUp(self):
        try:
            require_tools("Xvfb", "xdotool", "import", "convert")
        except SkipTest as e:
            raise unittest.SkipTest(str(e))
        self.xvfb = Xvfb()
        self.addCleanup(self.xvfb.close)
        self.shots = tempfile.mkdtemp(prefix="skelview-shots-")

    def start(self, args=(), size="900x700"):
        """skelview in a window on this test's display, closed at the end of the test."""
        viewer = Viewer(XvfbTestCase.BINARY, self.xvfb, args=args, size=size)
        self.addCleanup(viewer.close)
        return viewer


def run_tests():
    """Runs the calling module's tests: `script.py SKELVIEW_BINARY`. Exit code 1 on a failure,
    77 (CTest's skip) when every test was skipped."""
    XvfbTestCase.BINARY = os.path.abspath(sys.argv.pop(1))
    result = unittest.main(exit=False, verbosity=2).result
    if not result.wasSuccessful():
        sys.exit(1)
    if result.skipped and result.testsRun == len(result.skipped):
        sys.exit(77)
