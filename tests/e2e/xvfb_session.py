"""Helpers for end-to-end tests of the skelview window: a private Xvfb display, the viewer started
on it with --trace, xdotool input that is retried and focus-checked, waits on trace events and
rendered frames instead of fixed sleeps, the viewer's log and trace printed when a test fails."""

import ctypes
import ctypes.util
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.parse

# Deadlines, in seconds. They bound how long a broken run takes to fail, not how long a good one
# takes: every wait returns as soon as its condition holds. Generous because the tests also run
# under AddressSanitizer on loaded machines, where one frame can take a second.
EVENT_TIMEOUT = 90.0
XDOTOOL_TIMEOUT = 30.0
FRAME_TIMEOUT = 60.0
# Frames to let pass after an input before the next one: the viewer reads its X events at the start
# of a frame and Dear ImGui decides hover and capture from the previous frame's cursor, so one frame
# can miss an input sent while it ran. Three completed frames always include one that started after
# the input arrived, with a frame to spare.
SETTLE_FRAMES = 3
# The shortest key hold: Dear ImGui 1.86 misses a press and release that fall within one frame.
MIN_HOLD_SECONDS = 0.05


class SkipTest(Exception):
    """Raised when a tool the test needs (Xvfb, xdotool, import) is not installed."""


class E2eTimeout(AssertionError):
    """A wait ran past its deadline (a failure of the test, not an error of the helpers)."""


def require_tools(*names):
    missing = [n for n in names if shutil.which(n) is None]
    if missing:
        raise SkipTest("missing tools: " + ", ".join(missing))


def wait_until(condition, timeout, what, interval=0.05, alive=None):
    """Polls condition() until it returns something true, which is returned. Raises E2eTimeout
    naming `what` after `timeout` seconds, and AssertionError at once when alive() raises."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if alive is not None:
            alive()
        if time.monotonic() >= deadline:
            raise E2eTimeout(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(interval)
        interval = min(interval * 1.5, 0.5)


# xdotool's messages when it could not reach the display: nothing was sent, so a retry is safe
# even for an input that must not arrive twice.
_NOTHING_SENT = ("Can't open display", "Failed creating new xdo instance")


def run_xdotool(env, args, idempotent, timeout=XDOTOOL_TIMEOUT, log=None):
    """Runs `xdotool ARGS` and returns its stdout. A failed run is retried with a growing pause
    until `timeout` seconds have passed: any failure when the command can be repeated without harm
    (`idempotent`: lookups, absolute moves, releases), else only a failure to reach the display (a
    press must never arrive twice). Raises AssertionError with every attempt's exit and message."""
    deadline = time.monotonic() + timeout
    attempts = []
    pause = 0.05
    while True:
        if log is not None:
            log("xdotool " + " ".join(args))
        try:
            proc = subprocess.run(["xdotool", *args], env=env, capture_output=True, text=True,
                                  timeout=max(deadline - time.monotonic(), 1.0))
            if proc.returncode == 0:
                return proc.stdout
            message = proc.stderr.strip().replace("\n", " | ") or "(no message)"
            attempts.append(f"exit {proc.returncode}: {message}")
            retry = idempotent or any(s in proc.stderr for s in _NOTHING_SENT)
        except subprocess.TimeoutExpired:
            attempts.append("no answer (killed)")
            retry = idempotent
        if not retry or time.monotonic() + pause > deadline:
            why = "" if retry else " (not retried: the input may have been delivered)"
            raise AssertionError(
                f"xdotool {' '.join(args)} failed {len(attempts)} time(s) in "
                f"{timeout - max(deadline - time.monotonic(), 0):.1f} s{why}:\n    "
                + "\n    ".join(attempts[-5:]))
        time.sleep(pause)
        pause = min(pause * 2, 1.0)


class Xvfb:
    """An Xvfb server on a free display number, stopped on exit. Keys start repeating only after a
    minute held (Xvfb's default, 660 ms, is shorter than a held key can take on a loaded machine,
    and each repeat would act again). XAutoRepeatOff does not reach xdotool's XTEST keyboard."""

    def __init__(self, width=1400, height=1000, dpi=None):
        require_tools("Xvfb")
        read_fd, write_fd = os.pipe()
        self.proc = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write_fd), "-screen", "0", f"{width}x{height}x24",
             "-nolisten", "tcp", "-ardelay", "60000", "-arinterval", "60000"]
            + (["-dpi", str(dpi)] if dpi else []),
            pass_fds=(write_fd,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write_fd)
        number = b""
        deadline = time.monotonic() + 60
        while not number.endswith(b"\n") and time.monotonic() < deadline:
            ready, _, _ = select.select([read_fd], [], [], 0.5)
            if not ready:
                continue
            chunk = os.read(read_fd, 16)
            if not chunk:
                break
            number += chunk
        os.close(read_fd)
        if not number.strip():
            self.proc.kill()
            self.proc.wait()
            raise RuntimeError("Xvfb did not report a display number")
        self.display = ":" + number.decode().strip()
        self.config_dir = tempfile.mkdtemp(prefix="skelview-config-")
        self._env = dict(os.environ)
        self._env.pop("WAYLAND_DISPLAY", None)
        self._env.update(DISPLAY=self.display, SDL_VIDEODRIVER="x11",
                         # Keep the recent-files list of the tests out of the user's configuration.
                         XDG_CONFIG_HOME=self.config_dir)
        if dpi:
            # Xvfb's RandR outputs have no physical size; SDL then takes the DPI from the core
            # protocol's screen size, which -dpi sets (a real monitor reports it through RandR).
            self._env["SDL_VIDEO_X11_XRANDR"] = "0"

    def env(self):
        return dict(self._env)

    def close(self, remove_files=True):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        if remove_files:
            shutil.rmtree(self.config_dir, ignore_errors=True)

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
        self.command = [binary, *args, "--trace", self.trace_path, "--size", size]
        self.screenshots = []
        self.window = None
        self.killed = False
        self._frames = None
        self._consumed = {}  # event name -> how many of them wait_event has returned
        self._t0 = time.monotonic()
        self._actions = []
        self._log = open(self.log_path, "w")
        self.proc = subprocess.Popen(self.command, env=xvfb.env(), cwd=self.dir, stdout=self._log,
                                     stderr=subprocess.STDOUT)
        self.note("started pid %d on %s" % (self.proc.pid, xvfb.display))

    # --- what the viewer said ------------------------------------------------------------------

    def note(self, text):
        """Records a step for the failure report."""
        self._actions.append("%7.2f s  %s" % (time.monotonic() - self._t0, text))

    def events(self):
        """The trace's events so far; a line still being written is left for the next call."""
        try:
            with open(self.trace_path) as f:
                text = f.read()
        except FileNotFoundError:
            return []
        return [json.loads(line) for line in text.split("\n")[:-1] if line.strip()]

    def alive(self):
        """Raises AssertionError when the viewer has exited."""
        if self.proc.poll() is not None:
            raise AssertionError(f"skelview exited with code {self.proc.returncode}")

    def wait_event(self, name, timeout=EVENT_TIMEOUT):
        """The next `name` event of the trace: the first call returns the first one, the next
        call the second, and so on, waiting until it is written."""
        index = self._consumed.get(name, 0)
        self.note(f"wait for event '{name}' #{index + 1}")

        def found():
            matching = [e for e in self.events() if e.get("event") == name]
            return matching[index] if len(matching) > index else None

        def alive():
            if self.proc.poll() is not None and not found():
                raise AssertionError(f"skelview exited with code {self.proc.returncode} before "
                                     f"event '{name}' #{index + 1}")

        event = wait_until(found, timeout, f"event '{name}' #{index + 1} in the trace",
                           alive=alive)
        self._consumed[name] = index + 1
        return event

    def output(self):
        """The viewer's stdout and stderr so far, interleaved."""
        if not self._log.closed:
            self._log.flush()
        with open(self.log_path, errors="replace") as f:
            return f.read()

    def report(self):
        """What a failing test prints: the viewer's command, exit, steps, output and trace."""
        code = self.proc.poll()
        state = ("still running when the test ended (killed)" if code is None or self.killed
                 else f"exit code {code}")
        lines = [f"--- skelview: {' '.join(self.command)}",
                 f"    display {self.xvfb.display}, window {self.window}, {state}",
                 "--- steps (last 60):"]
        lines += ["    " + a for a in self._actions[-60:]]
        lines.append(f"--- viewer stdout+stderr ({self.log_path}):")
        lines.append(_clip(self.output()) or "    (empty)")
        lines.append(f"--- trace ({self.trace_path}):")
        try:
            with open(self.trace_path, errors="replace") as f:
                lines.append(_clip(f.read()) or "    (empty)")
        except FileNotFoundError:
            lines.append("    (no trace file)")
        if self.screenshots:
            lines.append("--- screenshots taken: " + ", ".join(self.screenshots))
        written = [os.path.join(self.dir, f) for f in sorted(os.listdir(self.dir))
                   if f not in ("trace.jsonl", "viewer.log")]
        if written:  # F12's screenshots, exports
            lines.append("--- files the viewer wrote: " + ", ".join(written))
        return "\n".join(lines)

    # --- the window ----------------------------------------------------------------------------

    def find_window(self, timeout=EVENT_TIMEOUT):
        """The viewer's window id once it is mapped (viewable), as a decimal string."""
        # By its class: the title names the open file ("hero.glb* — skelview").
        def lookup():
            self.alive()
            proc = subprocess.run(["xdotool", "search", "--onlyvisible", "--class", "^skelview$"],
                                  env=self.xvfb.env(), capture_output=True, text=True, timeout=30)
            ids = proc.stdout.split()  # exit 1 and nothing printed while there is none yet
            return ids[0] if ids else None

        self.note("look for the window")
        self.window = wait_until(lookup, timeout, "the skelview window to be mapped")
        self._frames = _FrameWatcher(self.xvfb.display, int(self.window))
        wait_until(self._frames.viewable, timeout, f"window {self.window} to be viewable",
                   alive=self.alive)
        self.note(f"window {self.window}")
        return self.window

    def wait_frames(self, count=SETTLE_FRAMES, timeout=FRAME_TIMEOUT):
        """Returns once the viewer has drawn `count` frames after this call."""
        self.note(f"wait for {count} frame(s)")
        self._frames.wait(count, timeout, self.alive)

    def position(self):
        """The window's top-left corner on the screen."""
        return self._frames.position()

    def focus(self):
        """Gives the window the keyboard focus (there is no window manager to do it)."""
        if self._frames.focus() == int(self.window):
            return
        self.xdotool("windowfocus", "--sync", self.window)
        wait_until(lambda: self._frames.focus() == int(self.window), XDOTOOL_TIMEOUT,
                   f"the keyboard focus on window {self.window}", alive=self.alive)

    def move_window(self, x, y):
        self.xdotool("windowmove", self.window, str(x), str(y))
        wait_until(lambda: self.position() == (x, y), XDOTOOL_TIMEOUT,
                   f"the window at ({x}, {y})", alive=self.alive)
        self.wait_frames()

    # --- input ---------------------------------------------------------------------------------

    def xdotool(self, *args, idempotent=True):
        return run_xdotool(self.xvfb.env(), args, idempotent, log=self.note)

    def move(self, x, y):
        """Puts the pointer at window pixel (x, y)."""
        self.xdotool("mousemove", "--window", self.window, str(int(round(x))), str(int(round(y))))

    def press(self, button=1):
        self.xdotool("mousedown", str(button), idempotent=False)

    def release(self, button=1):
        self.xdotool("mouseup", str(button))  # the viewer ignores a release of a released button

    def drag(self, x0, y0, x1, y1, button=1, steps=12, modifiers=()):
        """Presses at (x0, y0), moves in steps to (x1, y1) and releases, as a hand would: the
        viewer has seen the pointer before the press, the press before the moves and the last
        move before the release. (It follows the moves from their events, in order, so the steps
        need not be a frame apart.)"""
        if modifiers:
            self.focus()
        for m in modifiers:
            self.xdotool("keydown", m, idempotent=False)
        self.move(x0, y0)
        self.wait_frames()
        self.press(button)
        self.wait_frames()
        for i in range(1, steps + 1):
            self.move(x0 + (x1 - x0) * i / steps, y0 + (y1 - y0) * i / steps)
        self.wait_frames()
        self.release(button)
        for m in reversed(modifiers):
            self.xdotool("keyup", m)
        if modifiers:
            self.wait_frames()

    def click(self, x, y, button=1):
        """A click as a hand makes it: move, rest, press, hold, release; each step seen by the
        viewer before the next, and the frame after the release drawn."""
        self.move(x, y)
        self.wait_frames()
        self.press(button)
        self.wait_frames()
        self.release(button)
        self.wait_frames()

    def double_click(self, x, y, button=1):
        """Two clicks: SDL makes them a double click when it reads the second within 500 ms of
        the first, so they are sent back to back, to arrive together however slow the frames."""
        self.move(x, y)
        self.wait_frames()
        self.xdotool("click", "--repeat", "2", "--delay", "0", str(button), idempotent=False)

    def key(self, keys):
        """Presses a key combination (xdotool syntax, e.g. "ctrl+shift+z") on the focused window,
        holds it until the viewer has drawn frames with it down, and releases it."""
        self.focus()
        self.xdotool("keydown", keys, idempotent=False)
        start = time.monotonic()
        self.wait_frames()
        time.sleep(max(0.0, MIN_HOLD_SECONDS - (time.monotonic() - start)))
        self.xdotool("keyup", keys)

    def type(self, text):
        """Types text into the focused window (the characters arrive as text input, which the
        viewer queues, so they need no hold)."""
        self.focus()
        self.xdotool("type", "--delay", "20", text, idempotent=False)
        self.wait_frames()

    def quit(self, timeout=EVENT_TIMEOUT, discard=True):
        """Ctrl+Q; returns the viewer's exit code. The key is released after the viewer is gone, so
        the release cannot meet a destroyed window. When the viewer asks first (edits not
        exported: a `confirm` event), `discard` answers D (discard and quit); without it the
        question is left open and None is returned."""
        self.focus()
        asked_before = len([e for e in self.events() if e.get("event") == "confirm"])
        self.xdotool("keydown", "ctrl+q", idempotent=False)
        released = False
        try:
            def exited_or_asked():
                if self.proc.poll() is not None:
                    return "exited"
                asked = [e for e in self.events() if e.get("event") == "confirm"]
                return "asked" if len(asked) > asked_before else None

            if wait_until(exited_or_asked, timeout, "exit or the unsaved-edits question") == "asked":
                self._consumed["confirm"] = asked_before + 1
                self.xdotool("keyup", "ctrl+q")
                released = True
                if not discard:
                    return None
                self.note("discard the edits (D)")
                self.xdotool("keydown", "d", idempotent=False)
                try:
                    return self.wait_exit(timeout)
                finally:
                    self.xdotool("keyup", "d")
            return self.wait_exit(timeout)
        finally:
            if not released:
                self.xdotool("keyup", "ctrl+q")

    def close_window(self):
        """Asks the window to close as a window manager's close button does: a WM_DELETE_WINDOW
        client message (xdotool 3.2016 has no command for it, so libX11 is called directly)."""
        self.note("WM_DELETE_WINDOW")
        close_window(self.xvfb.display, int(self.window))

    def drop_file(self, path):
        """Drags a file from outside and drops it on the window (XDND)."""
        self.note(f"drop {path}")
        return drop_file(self.xvfb.display, int(self.window), path)

    def screenshot(self, path, settle=True):
        """Saves what the window shows into `path` and returns it: with `settle`, once the viewer
        has drawn SETTLE_FRAMES frames after the call, so it shows the state the last event
        reported. Retried while `import` fails."""
        require_tools("import")
        if settle:
            self.wait_frames()
        self.note(f"screenshot {path}")
        attempts = []

        def take():
            try:
                proc = subprocess.run(["import", "-display", self.xvfb.display, "-window",
                                       self.window, path], capture_output=True, text=True,
                                      timeout=XDOTOOL_TIMEOUT)
            except subprocess.TimeoutExpired:
                attempts.append(f"import gave no answer in {XDOTOOL_TIMEOUT:g} s")
                return False
            if proc.returncode != 0:
                attempts.append(proc.stderr.strip())
                self.alive()
            return proc.returncode == 0

        try:
            wait_until(take, XDOTOOL_TIMEOUT, f"a screenshot of window {self.window}")
        except E2eTimeout as e:
            raise AssertionError(f"{e}: " + " | ".join(attempts[-3:])) from None
        self.screenshots.append(path)
        return path

    def wait_exit(self, timeout=EVENT_TIMEOUT):
        self.note("wait for exit")
        try:
            code = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            raise E2eTimeout(f"skelview did not quit within {timeout:g} s") from None
        self.note(f"exited with code {code}")
        return code

    def close(self):
        if self.proc.poll() is None:
            self.killed = True
            self.proc.kill()
            self.proc.wait()
        if self._frames is not None:
            self._frames.close()
            self._frames = None
        self._log.close()


def _clip(text, limit=40000):
    """The text indented, its middle cut when it is very long."""
    if len(text) > limit:
        text = text[:limit // 4] + "\n[... cut ...]\n" + text[-3 * limit // 4:]
    return "\n".join("    " + line for line in text.rstrip("\n").split("\n")) if text else ""


# --- libX11 through ctypes (python3-xlib is not installed) ----------------------------------------

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


class _DamageNotify(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong), ("send_event", ctypes.c_int),
                ("display", ctypes.c_void_p), ("drawable", ctypes.c_ulong),
                ("damage", ctypes.c_ulong), ("level", ctypes.c_int), ("more", ctypes.c_int),
                ("timestamp", ctypes.c_ulong),
                ("area_x", ctypes.c_short), ("area_y", ctypes.c_short),
                ("area_width", ctypes.c_ushort), ("area_height", ctypes.c_ushort),
                ("geometry_x", ctypes.c_short), ("geometry_y", ctypes.c_short),
                ("geometry_width", ctypes.c_ushort), ("geometry_height", ctypes.c_ushort)]


class _WindowAttributes(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int), ("width", ctypes.c_int),
                ("height", ctypes.c_int), ("border_width", ctypes.c_int), ("depth", ctypes.c_int),
                ("visual", ctypes.c_void_p), ("root", ctypes.c_ulong), ("class_", ctypes.c_int),
                ("bit_gravity", ctypes.c_int), ("win_gravity", ctypes.c_int),
                ("backing_store", ctypes.c_int), ("backing_planes", ctypes.c_ulong),
                ("backing_pixel", ctypes.c_ulong), ("save_under", ctypes.c_int),
                ("colormap", ctypes.c_ulong), ("map_installed", ctypes.c_int),
                ("map_state", ctypes.c_int), ("all_event_masks", ctypes.c_long),
                ("your_event_mask", ctypes.c_long), ("do_not_propagate_mask", ctypes.c_long),
                ("override_redirect", ctypes.c_int), ("screen", ctypes.c_void_p)]


_CLIENT_MESSAGE, _SELECTION_REQUEST, _SELECTION_NOTIFY = 33, 30, 31
_IS_VIEWABLE = 2
_DAMAGE_REPORT_RAW_RECTANGLES = 0

# Xlib's default error handler ends the process; a request on a window the viewer has just destroyed
# must be a failed check instead. The last error code is kept for the caller.
class _ErrorEvent(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("display", ctypes.c_void_p),
                ("resourceid", ctypes.c_ulong), ("serial", ctypes.c_ulong),
                ("error_code", ctypes.c_ubyte), ("request_code", ctypes.c_ubyte),
                ("minor_code", ctypes.c_ubyte)]


_ERROR_HANDLER_TYPE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p,
                                       ctypes.POINTER(_ErrorEvent))
_last_x_error = [0]


@_ERROR_HANDLER_TYPE
def _record_x_error(display, event):
    _last_x_error[0] = event.contents.error_code
    return 0


class _X11:
    """The few libX11 calls the tests need."""

    _lib = None

    def __init__(self, display_name):
        if _X11._lib is None:
            name = ctypes.util.find_library("X11")
            if not name:
                raise SkipTest("libX11 is not installed")
            _X11._lib = _declare_x11(ctypes.CDLL(name))
            _X11._lib.XSetErrorHandler(_record_x_error)
        x = self.x = _X11._lib
        self.display = x.XOpenDisplay(display_name.encode())
        if not self.display:
            raise AssertionError(f"cannot open X display {display_name}")

    def atom(self, name):
        return self.x.XInternAtom(self.display, name.encode(), 0)

    def sync(self):
        self.x.XSync(self.display, 0)

    def send_client_message(self, window, message_type, *data):
        event = _ClientMessage(type=_CLIENT_MESSAGE, send_event=1, display=self.display,
                               window=window, message_type=self.atom(message_type), format=32)
        for i, value in enumerate(data):
            event.data[i] = value
        _last_x_error[0] = 0
        if not self.x.XSendEvent(self.display, window, 0, 0, ctypes.byref(event)):
            raise AssertionError(f"XSendEvent {message_type} failed")
        self.sync()
        if _last_x_error[0]:
            raise AssertionError(f"XSendEvent {message_type} to window {window}: X error "
                                 f"{_last_x_error[0]}")

    def next_event(self, timeout):
        """The next event for this connection, or None after timeout seconds."""
        deadline = time.monotonic() + timeout
        buffer = (ctypes.c_long * 24)()
        fd = self.x.XConnectionNumber(self.display)
        while True:
            if self.x.XPending(self.display):
                self.x.XNextEvent(self.display, ctypes.byref(buffer))
                return buffer
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            select.select([fd], [], [], min(left, 0.1))

    def close(self):
        self.x.XCloseDisplay(self.display)


def _declare_x11(x):
    vp, ul, i = ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int
    x.XOpenDisplay.restype, x.XOpenDisplay.argtypes = vp, [ctypes.c_char_p]
    x.XSetErrorHandler.restype, x.XSetErrorHandler.argtypes = vp, [_ERROR_HANDLER_TYPE]
    x.XInternAtom.restype, x.XInternAtom.argtypes = ul, [vp, ctypes.c_char_p, i]
    x.XSendEvent.argtypes = [vp, ul, i, ctypes.c_long, vp]
    x.XDefaultRootWindow.restype, x.XDefaultRootWindow.argtypes = ul, [vp]
    x.XCreateSimpleWindow.restype = ul
    x.XCreateSimpleWindow.argtypes = [vp, ul, i, i, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint,
                                      ul, ul]
    x.XDestroyWindow.argtypes = [vp, ul]
    x.XSetSelectionOwner.argtypes = [vp, ul, ul, ul]
    x.XChangeProperty.argtypes = [vp, ul, ul, ul, i, i, ctypes.c_char_p, i]
    x.XPending.argtypes = [vp]
    x.XNextEvent.argtypes = [vp, vp]
    x.XFlush.argtypes = [vp]
    x.XSync.argtypes = [vp, i]
    x.XConnectionNumber.argtypes = [vp]
    x.XCloseDisplay.argtypes = [vp]
    x.XGetInputFocus.argtypes = [vp, ctypes.POINTER(ul), ctypes.POINTER(i)]
    x.XGetWindowAttributes.argtypes = [vp, ul, ctypes.POINTER(_WindowAttributes)]
    x.XTranslateCoordinates.argtypes = [vp, ul, ul, i, i, ctypes.POINTER(i), ctypes.POINTER(i),
                                        ctypes.POINTER(ul)]
    return x


class _FrameWatcher(_X11):
    """Counts the frames a window draws, through the X DAMAGE extension: each frame the viewer
    swaps puts the whole window's image, which the server reports as damage to the window. Also
    answers questions about the window (viewable, position, focus) on the same connection."""

    _damage_lib = None
    _warned = False

    def __init__(self, display_name, window):
        super().__init__(display_name)
        self.window = window
        self.damage = None
        if _FrameWatcher._damage_lib is None:
            name = ctypes.util.find_library("Xdamage")
            lib = ctypes.CDLL(name) if name else False
            if lib:
                vp, ul = ctypes.c_void_p, ctypes.c_ulong
                lib.XDamageQueryExtension.argtypes = [vp, ctypes.POINTER(ctypes.c_int),
                                                      ctypes.POINTER(ctypes.c_int)]
                lib.XDamageCreate.restype = ul
                lib.XDamageCreate.argtypes = [vp, ul, ctypes.c_int]
                lib.XDamageDestroy.argtypes = [vp, ul]
            _FrameWatcher._damage_lib = lib
        self.damage = _FrameWatcher._damage_lib
        event_base, error_base = ctypes.c_int(), ctypes.c_int()
        if self.damage and not self.damage.XDamageQueryExtension(
                self.display, ctypes.byref(event_base), ctypes.byref(error_base)):
            self.damage = None
        self.damage_notify = event_base.value  # XDamageNotify is the extension's first event
        if not self.damage and not _FrameWatcher._warned:
            _FrameWatcher._warned = True
            print("xvfb_session: libXdamage (Debian package libxdamage1) or the DAMAGE extension "
                  "is missing; waiting 0.25 s per frame instead of watching the frames",
                  file=sys.stderr)

    def viewable(self):
        attributes = _WindowAttributes()
        _last_x_error[0] = 0
        ok = self.x.XGetWindowAttributes(self.display, self.window, ctypes.byref(attributes))
        return bool(ok) and not _last_x_error[0] and attributes.map_state == _IS_VIEWABLE

    def position(self):
        x, y, child = ctypes.c_int(), ctypes.c_int(), ctypes.c_ulong()
        root = self.x.XDefaultRootWindow(self.display)
        self.x.XTranslateCoordinates(self.display, self.window, root, 0, 0, ctypes.byref(x),
                                     ctypes.byref(y), ctypes.byref(child))
        return x.value, y.value

    def focus(self):
        window, revert = ctypes.c_ulong(), ctypes.c_int()
        self.x.XGetInputFocus(self.display, ctypes.byref(window), ctypes.byref(revert))
        return window.value

    def wait(self, count, timeout, alive):
        """Returns once `count` frames were drawn after the call; calls alive() while waiting,
        which raises when the viewer is gone."""
        if not self.damage:
            end = time.monotonic() + 0.25 * count
            while time.monotonic() < end:
                alive()
                time.sleep(0.05)
            return
        _last_x_error[0] = 0
        damage = self.damage.XDamageCreate(self.display, self.window,
                                           _DAMAGE_REPORT_RAW_RECTANGLES)
        self.sync()  # from here on every drawing to the window is reported
        try:
            if _last_x_error[0]:
                alive()
                raise AssertionError(f"cannot watch window {self.window} (X error "
                                     f"{_last_x_error[0]})")
            seen = 0
            deadline = time.monotonic() + timeout
            while seen < count:
                event = self.next_event(min(0.2, max(deadline - time.monotonic(), 0.0)))
                if event is None:
                    alive()
                    if time.monotonic() >= deadline:
                        raise E2eTimeout(f"the window drew {seen} of {count} frames in "
                                         f"{timeout:g} s")
                    continue
                if ctypes.cast(event, ctypes.POINTER(ctypes.c_int))[0] != self.damage_notify:
                    continue
                notify = ctypes.cast(event, ctypes.POINTER(_DamageNotify)).contents
                # A frame covers the window; smaller damage (an expose, a cursor) is not one.
                if (2 * notify.area_width * notify.area_height
                        >= notify.geometry_width * notify.geometry_height):
                    seen += 1
        finally:
            self.damage.XDamageDestroy(self.display, damage)  # an error once the window is gone
            self.sync()
            while self.x.XPending(self.display):  # leave no reports for the next wait
                self.next_event(0)


def close_window(display_name, window):
    """Sends WM_PROTOCOLS/WM_DELETE_WINDOW to a window, the message a close button sends."""
    x11 = _X11(display_name)
    try:
        x11.send_client_message(window, "WM_PROTOCOLS", x11.atom("WM_DELETE_WINDOW"), 0)
    finally:
        x11.close()


def drop_file(display_name, window, path, x=100, y=100, timeout=EVENT_TIMEOUT):
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
        deadline = time.monotonic() + timeout
        dropped = False
        while time.monotonic() < deadline:
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


# --- shared models --------------------------------------------------------------------------------

def shared_models_dir():
    """Where the shared third-party test models are: $SKELVIEW_MODELS, else ../shared/models beside
    the checkout (as tests/test_paths.h finds them)."""
    return os.environ.get("SKELVIEW_MODELS") or os.path.normpath(os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "models"))


def shared_model(relative):
    """The path of a shared model, or "" when it is not there (the test then skips, naming it)."""
    path = os.path.join(shared_models_dir(), relative)
    return path if os.path.isfile(path) else ""


# --- images ---------------------------------------------------------------------------------------

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


def count_pixels(path, condition):
    """How many pixels of an image satisfy condition(r, g, b), channels 0..1. (ImageMagick's -fx
    does the same per pixel but takes a minute on a loaded machine.)"""
    require_tools("convert")
    data = subprocess.run(["convert", path, "-depth", "8", "rgb:-"], check=True,
                          capture_output=True).stdout
    return sum(1 for r, g, b in zip(data[0::3], data[1::3], data[2::3])
               if condition(r / 255.0, g / 255.0, b / 255.0))


def named(events, name):
    """The trace events called `name`, in order."""
    return [e for e in events if e["event"] == name]


def crop(path, box, out):
    """Writes the box (x, y, w, h) of an image to `out` and returns `out`."""
    x, y, w, h = box
    subprocess.run(["convert", path, "-crop", f"{w}x{h}+{x}+{y}", "+repage", out], check=True)
    return out


def differing_pixels(a, b, fuzz="10%"):
    """How many pixels differ between two images of the same size by more than `fuzz`."""
    proc = subprocess.run(["compare", "-metric", "AE", "-fuzz", fuzz, a, b, "null:"],
                          capture_output=True, text=True)
    if proc.returncode not in (0, 1):  # 1: the images differ; 2: compare failed
        raise AssertionError(f"compare {a} {b}: {proc.stderr.strip()}")
    return float(proc.stderr.split()[0])


# --- test cases -----------------------------------------------------------------------------------

class XvfbTestCase(unittest.TestCase):
    """A test with its own Xvfb display (skipped when the tools are missing); `BINARY` is the
    skelview executable, set by run_tests(). When the test fails, its viewers' output, trace and
    screenshots are printed (and their files kept); when it passes, its temporary files go."""

    BINARY = None

    @property
    def binary(self):
        return XvfbTestCase.BINARY

    def run(self, result=None):
        self._viewers = []
        self._temp_dirs = []
        problems_before = (len(result.failures) + len(result.errors)) if result else 0
        outcome = super().run(result)
        failed = result is not None and len(result.failures) + len(result.errors) > problems_before
        if failed or os.environ.get("SKELVIEW_E2E_REPORT"):  # set it to see a passing test's steps
            self._print_report("failed" if failed else "passed")
        if not failed:
            for path in self._temp_dirs + [v.dir for v in self._viewers]:
                shutil.rmtree(path, ignore_errors=True)
        return outcome

    def _print_report(self, outcome):
        out = [f"\n===== {self.id()} {outcome}: what the viewer did ====="]
        if not self._viewers:
            out.append("(no viewer was started)")
        for viewer in self._viewers:
            out.append(viewer.report())
        for path in self._temp_dirs:
            files = sorted(os.listdir(path)) if os.path.isdir(path) else []
            out.append(f"--- test files in {path}: " + (", ".join(files) or "(none)"))
        out.append(f"===== end of {self.id()} =====\n")
        sys.stderr.write("\n".join(out) + "\n")
        sys.stderr.flush()

    def setUp(self):
        try:
            require_tools("Xvfb", "xdotool", "import", "convert", "compare")
        except SkipTest as e:
            raise unittest.SkipTest(str(e))
        self.xvfb = Xvfb()
        self.addCleanup(self.xvfb.close, remove_files=False)
        self._temp_dirs.append(self.xvfb.config_dir)
        self.shots = tempfile.mkdtemp(prefix="skelview-shots-")
        self._temp_dirs.append(self.shots)

    def start(self, args=(), size="900x700"):
        """skelview in a window on this test's display, closed at the end of the test."""
        viewer = Viewer(XvfbTestCase.BINARY, self.xvfb, args=args, size=size)
        self._viewers.append(viewer)
        self.addCleanup(viewer.close)
        return viewer


def run_tests():
    """Runs the calling module's tests: `script.py SKELVIEW_BINARY [unittest args]`. Exit code 1
    on a failure, 77 (CTest's skip) when every test was skipped."""
    XvfbTestCase.BINARY = os.path.abspath(sys.argv.pop(1))
    result = unittest.main(exit=False, verbosity=2).result
    if not result.wasSuccessful():
        sys.exit(1)
    if result.skipped and result.testsRun == len(result.skipped):
        sys.exit(77)
