"""Helpers for end-to-end tests of the skelview window: a private Xvfb display, the viewer started
on it with --trace, xdotool input and ImageMagick screenshots. Standard library only."""

import ctypes
import ctypes.util
import json
import os
import shutil
import subprocess
import tempfile
import sys
import time
import unittest
import urllib.parse


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

    def click(self, x, y, button=1):
        """A click as a hand makes it: move, rest, press, hold, release."""
        self.move(x, y)
        time.sleep(0.15)
        self.xdotool("mousedown", str(button))
        time.sleep(0.1)
        self.xdotool("mouseup", str(button))

    def key(self, *keys):
        self.xdotool("key", "--window", self.window, *keys)

    def hold_key(self, key, seconds=0.2):
        """Presses a key for a while: Dear ImGui 1.86 misses a press and release in one frame."""
        self.xdotool("keydown", "--window", self.window, key)
        time.sleep(seconds)
        self.xdotool("keyup", "--window", self.window, key)

    def close_window(self):
        """Asks the window to close as a window manager's close button does: a WM_DELETE_WINDOW
        client message (xdotool 3.2016 has no command for it, so libX11 is called directly)."""
        close_window(self.xvfb.display, int(self.window))

    def drop_file(self, path):
        """Drags a file from outside and drops it on the window (XDND)."""
        return drop_file(self.xvfb.display, int(self.window), path)

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


class _ClientMessage(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("window", ctypes.c_ulong),
                ("message_type", ctypes.c_ulong), ("format", ctypes.c_int),
                ("data", ctypes.c_long * 5), ("pad", ctypes.c_long * 16)]  # XEvent is 24 longs


class _SelectionRequest(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("owner", ctypes.c_ulong),
                ("requestor", ctypes.c_ulong), ("selection", ctypes.c_ulong),
                ("target", ctypes.c_ulong), ("property", ctypes.c_ulong), ("time", ctypes.c_ulong),
                ("pad", ctypes.c_long * 14)]


class _SelectionNotify(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("requestor", ctypes.c_ulong),
                ("selection", ctypes.c_ulong), ("target", ctypes.c_ulong),
                ("property", ctypes.c_ulong), ("time", ctypes.c_ulong), ("pad", ctypes.c_long * 15)]


_CLIENT_MESSAGE, _SELECTION_REQUEST, _SELECTION_NOTIFY = 33, 30, 31


class _X11:
    """The few libX11 calls the tests need, through ctypes (python3-xlib is not installed)."""

    def __init__(self, display_name):
        name = ctypes.util.find_library("X11")
        if not name:
            raise SkipTest("libX11 is not installed")
        x = ctypes.CDLL(name)
        vp, ul = ctypes.c_void_p, ctypes.c_ulong
        x.XOpenDisplay.restype, x.XOpenDisplay.argtypes = vp, [ctypes.c_char_p]
        x.XInternAtom.restype, x.XInternAtom.argtypes = ul, [vp, ctypes.c_char_p, ctypes.c_int]
        x.XSendEvent.argtypes = [vp, ul, ctypes.c_int, ctypes.c_long, vp]
        x.XDefaultRootWindow.restype, x.XDefaultRootWindow.argtypes = ul, [vp]
        x.XCreateSimpleWindow.restype = ul
        x.XCreateSimpleWindow.argtypes = [vp, ul, ctypes.c_int, ctypes.c_int, ctypes.c_uint,
                                          ctypes.c_uint, ctypes.c_uint, ul, ul]
        x.XDestroyWindow.argtypes = [vp, ul]
        x.XSetSelectionOwner.argtypes = [vp, ul, ul, ul]
        x.XChangeProperty.argtypes = [vp, ul, ul, ul, ctypes.c_int, ctypes.c_int, ctypes.c_char_p,
                                      ctypes.c_int]
        x.XPending.argtypes = [vp]
        x.XNextEvent.argtypes = [vp, vp]
        x.XFlush.argtypes = [vp]
        x.XCloseDisplay.argtypes = [vp]
        self.x = x
        self.display = x.XOpenDisplay(display_name.encode())
        if not self.display:
            raise AssertionError(f"cannot open X display {display_name}")

    def atom(self, name):
        return self.x.XInternAtom(self.display, name.encode(), 0)

    def send_client_message(self, window, message_type, *data):
        event = _ClientMessage(type=_CLIENT_MESSAGE, send_event=1, display=self.display,
                               window=window, message_type=self.atom(message_type), format=32)
        for i, value in enumerate(data):
            event.data[i] = value
        if not self.x.XSendEvent(self.display, window, 0, 0, ctypes.byref(event)):
            raise AssertionError(f"XSendEvent {message_type} failed")
        self.x.XFlush(self.display)

    def next_event(self, timeout):
        """The next event for this connection, or None after timeout seconds."""
        deadline = time.time() + timeout
        buffer = (ctypes.c_long * 24)()
        while time.time() < deadline:
            if self.x.XPending(self.display):
                self.x.XNextEvent(self.display, ctypes.byref(buffer))
                return buffer
            time.sleep(0.01)
        return None

    def close(self):
        self.x.XCloseDisplay(self.display)


def close_window(display_name, window):
    """Sends WM_PROTOCOLS/WM_DELETE_WINDOW to a window, the message a close button sends."""
    x11 = _X11(display_name)
    try:
        x11.send_client_message(window, "WM_PROTOCOLS", x11.atom("WM_DELETE_WINDOW"), 0)
    finally:
        x11.close()


def drop_file(display_name, window, path, x=100, y=100, timeout=10):
    """Drops a file onto a window as a file manager does, through the XDND protocol (version 5):
    enter, position, drop, then answer the window's request for the text/uri-list selection.
    Returns True when the window accepted the drop (XdndStatus) and asked for the data."""
    x11 = _X11(display_name)
    source = x11.x.XCreateSimpleWindow(x11.display, x11.x.XDefaultRootWindow(x11.display),
                                       0, 0, 1, 1, 0, 0, 0)
    try:
        uri_list = x11.atom("text/uri-list")
        selection = x11.atom("XdndSelection")
        x11.x.XSetSelectionOwner(x11.display, selection, source, 0)
        x11.send_client_message(window, "XdndEnter", source, 5 << 24, uri_list, 0, 0)
        x11.send_client_message(window, "XdndPosition", source, 0, (x << 16) | y, 0,
                                x11.atom("XdndActionCopy"))
        accepted = asked = False
        deadline = time.time() + timeout
        dropped = False
        while time.time() < deadline:
            event = x11.next_event(0.2)
            if event is None:
                continue
            kind = ctypes.cast(event, ctypes.POINTER(ctypes.c_int))[0]
            if kind == _CLIENT_MESSAGE:
                message = ctypes.cast(event, ctypes.POINTER(_ClientMessage)).contents
                if message.message_type == x11.atom("XdndStatus"):
                    accepted = bool(message.data[1] & 1)
                    if not dropped:
                        x11.send_client_message(window, "XdndDrop", source, 0, 0)
                        dropped = True
                elif message.message_type == x11.atom("XdndFinished"):
                    break
            elif kind == _SELECTION_REQUEST:
                request = ctypes.cast(event, ctypes.POINTER(_SelectionRequest)).contents
                data = ("file://" + urllib.parse.quote(os.path.abspath(path)) + "\r\n").encode()
                x11.x.XChangeProperty(x11.display, request.requestor, request.property,
                                      request.target, 8, 0, data, len(data))
                reply = _SelectionNotify(type=_SELECTION_NOTIFY, send_event=1,
                                         display=x11.display, requestor=request.requestor,
                                         selection=request.selection, target=request.target,
                                         property=request.property, time=request.time)
                x11.x.XSendEvent(x11.display, request.requestor, 0, 0, ctypes.byref(reply))
                x11.x.XFlush(x11.display)
                asked = True
        return accepted and asked
    finally:
        x11.x.XDestroyWindow(x11.display, source)
        x11.close()


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
