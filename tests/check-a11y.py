#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The application as a screen reader sees it, driven by the keyboard alone
# (xdotool), read through AT-SPI (pyatspi):
#
#   Ctrl+N, Return        New Session starts a session with the agent shown;
#                         the focus goes to the prompt
#   hello, Return         the agent asks for a permission: the request takes
#                         the focus, named after what it asks
#   Tab, Return           Tab reaches Allow; Return answers; the tool call
#                         row says it completed
#   Ctrl+N, Return, …     a second session; its request answered with Alt+1
#   Alt+Down              back to the first session: its chat shows again
#
# and at each step, every control shown has a name (and no name holds
# a mnemonic's underscore).
#
# The test runs the application on its own session bus (the accessibility
# bus is found there), with accessibility on (the suite turns it off for
# the widget tests). Every wait is for an AT-SPI event, the tree looked at
# again after each; PATIENCE bounds a hang, it sets no pace.
#
# usage: check-a11y.py PALAVER FAKE_AGENT   (needs a display, xdotool,
#        the system's python3 with pyatspi, and PALAVER_SCENARIO_DIR;
#        without pyatspi or at-spi2-core, it exits 77: skipped)

import os
import signal
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True

if 'DBUS_SESSION_BUS_ADDRESS' not in os.environ or os.environ.get('PALAVER_A11Y_BUS') != '1':
    # a session bus of the test's own, where the app and the test meet
    os.environ['PALAVER_A11Y_BUS'] = '1'
    os.execvp('dbus-run-session', ['dbus-run-session', '--', sys.executable] + sys.argv)

# the test's own process: accessibility on
os.environ.pop('NO_AT_BRIDGE', None)
os.environ.pop('GTK_A11Y', None)
# the accessibility library warns of what GTK 4.8 does not offer (a cache of
# its objects): not fatal here, the test is of the application
os.environ.pop('G_DEBUG', None)


def hold_display():
    """A connection to the display given to the test, open until the test
    ends. An X server with no client left resets itself, and a client
    connecting while it does is turned away ("cannot open display"): the
    accessibility library opens the display and closes it again when it
    starts, just before the application connects. With a client always
    there, the server never resets under the test."""
    import ctypes
    import ctypes.util

    if not os.environ.get('DISPLAY'):
        sys.exit('check-a11y: no DISPLAY: run under an X server (xvfb-run)')
    xlib = ctypes.CDLL(ctypes.util.find_library('X11') or 'libX11.so.6')
    xlib.XOpenDisplay.restype = ctypes.c_void_p
    xlib.XOpenDisplay.argtypes = [ctypes.c_char_p]
    display = xlib.XOpenDisplay(None)
    if not display:
        sys.exit(f'check-a11y: cannot open the display {os.environ["DISPLAY"]}')
    return display


DISPLAY_HELD = hold_display()

try:
    import gi  # noqa: E402
    gi.require_version('Atspi', '2.0')
    from gi.repository import Atspi, GLib  # noqa: E402
    import pyatspi  # noqa: E402
except (ImportError, ValueError) as error:
    # not an error of the application: the machine lacks what the test needs
    print(f'SKIP: no AT-SPI for Python (python3-pyatspi): {error}', flush=True)
    sys.exit(77)


def a11y_bus_activatable():
    """Whether the session bus can start the accessibility bus (at-spi2-core)"""
    from gi.repository import Gio

    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    names = bus.call_sync('org.freedesktop.DBus', '/org/freedesktop/DBus', 'org.freedesktop.DBus',
                          'ListActivatableNames', None, GLib.VariantType.new('(as)'),
                          Gio.DBusCallFlags.NONE, -1, None).unpack()[0]
    return 'org.a11y.Bus' in names


if not a11y_bus_activatable():
    print('SKIP: the session bus cannot start the accessibility bus (at-spi2-core)', flush=True)
    sys.exit(77)

from palaver_cli import PATIENCE, environment, fake_agent_profile, write_keyfile  # noqa: E402

# roles a person acts on: each must have a name
CONTROLS = {
    pyatspi.ROLE_PUSH_BUTTON, pyatspi.ROLE_TOGGLE_BUTTON, pyatspi.ROLE_CHECK_BOX,
    pyatspi.ROLE_RADIO_BUTTON, pyatspi.ROLE_COMBO_BOX, pyatspi.ROLE_ENTRY,
    pyatspi.ROLE_PASSWORD_TEXT, pyatspi.ROLE_SPIN_BUTTON, pyatspi.ROLE_SLIDER,
    pyatspi.ROLE_MENU_ITEM, pyatspi.ROLE_LINK,
}


class App:
    def __init__(self, palaver, work):
        env = environment(work)
        env.pop('GTK_A11Y', None)
        env.pop('NO_AT_BRIDGE', None)
        self.process = subprocess.Popen([palaver], env=env, cwd=os.path.join(work, 'project'),
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                        text=True)
        self.focus = None
        self.loop = GLib.MainLoop()
        self.condition = None
        self.timed_out = False
        self.exited = False
        self.listener = Atspi.EventListener.new(self._event)
        for kind in ('object:state-changed:focused', 'object:children-changed',
                     'object:property-change:accessible-name', 'object:state-changed:showing',
                     'window:activate', 'object:text-changed'):
            self.listener.register(kind)

    def _event(self, event):
        if event.type.startswith("object:state-changed:focused") and event.detail1 == 1:
            self.focus = event.source
        if self.condition is not None and self._check():
            self.loop.quit()

    def _check(self):
        try:
            return self.condition()
        except GLib.Error:
            # an object went while it was looked at: look again at the next event
            return False

    def wait(self, what, condition):
        """Until @condition holds, looked at after every AT-SPI event."""
        self.condition = condition
        if self._check():
            self.condition = None
            return
        self.timed_out = False

        def timeout():
            self.timed_out = True
            self.loop.quit()
            return GLib.SOURCE_REMOVE

        def exited(pid, status):
            self.exited = True
            self.loop.quit()

        source = GLib.timeout_add_seconds(PATIENCE, timeout)
        watch = GLib.child_watch_add(GLib.PRIORITY_DEFAULT, self.process.pid, exited)
        self.loop.run()
        if not self.timed_out:
            GLib.source_remove(source)
        if not self.exited:
            GLib.source_remove(watch)
        self.condition = None
        if self.exited:
            raise AssertionError(f'the application ended while waiting for {what}')
        if self.timed_out:
            dump(self.accessible())
            raise AssertionError(f'timed out waiting for {what}; focus: {describe(self.focus)}')

    def accessible(self):
        desktop = pyatspi.Registry.getDesktop(0)
        for app in desktop:
            if app is not None and app.get_process_id() == self.process.pid:
                # GTK 4.8 keeps no cache on the bus for the library to follow
                # well: what is read is read anew
                app.clear_cache()
                return app
        return None

    def quit(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(timeout=PATIENCE)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def describe(obj):
    if obj is None:
        return 'nothing'
    try:
        return f'{obj.getRoleName()} “{obj.name}”'
    except GLib.Error:
        return 'a gone object'


def dump(obj, depth=0):
    """@obj's tree, on the standard output: what was there when a wait failed"""
    if obj is None or depth > 40:
        return
    try:
        states = [pyatspi.stateToString(s) for s in obj.getState().getStates()]
        print(f'{"  " * depth}{obj.getRoleName()} “{obj.name}” {" ".join(states)}', flush=True)
        children = list(obj)
    except GLib.Error:
        return
    for child in children:
        dump(child, depth + 1)


def keys(*names):
    subprocess.run(['xdotool', 'key', '--clearmodifiers', *names], check=True)


def type_text(text):
    subprocess.run(['xdotool', 'type', '--delay', '20', text], check=True)


def walk(obj):
    """@obj and what is under it on screen"""
    if obj is None:
        return
    yield obj
    try:
        states = obj.getState()
        if not states.contains(pyatspi.STATE_VISIBLE) and obj.getRole() != pyatspi.ROLE_APPLICATION:
            return
        children = list(obj)
    except GLib.Error:
        return
    for child in children:
        yield from walk(child)


def nameless(app):
    """The controls on screen without a name, or with a mnemonic's
    underscore in it"""
    bad = []
    checked = 0
    for obj in walk(app):
        try:
            states = obj.getState()
            if not states.contains(pyatspi.STATE_VISIBLE):
                continue
            role = obj.getRole()
            # GTK 4.8 says a scrolled window takes the focus: the list or
            # text in it is what is named
            if role == pyatspi.ROLE_SCROLL_PANE:
                continue
            # a row of a list not shown yet (a closed drop-down's) is empty:
            # nothing in it to name
            if role == pyatspi.ROLE_LIST_ITEM and obj.childCount == 0:
                continue
            focusable = states.contains(pyatspi.STATE_FOCUSABLE)
            if role not in CONTROLS and not focusable:
                continue
            checked += 1
            name = obj.name or ''
            if name.strip() == '' or name.startswith('_') or ' _' in name:
                bad.append(f'{obj.getRoleName()} “{name}” in {describe(obj.parent)}')
        except GLib.Error:
            continue
    return bad, checked


def find(app, predicate):
    for obj in walk(app):
        try:
            if obj.getState().contains(pyatspi.STATE_VISIBLE) and predicate(obj):
                return obj
        except GLib.Error:
            continue
    return None


def named(prefix):
    return lambda obj: (obj.name or '').startswith(prefix)


def focused_is(app, prefix):
    """Whether the focus is on an object whose name starts with @prefix: the
    one the last focus event named, or (a window that just came may take
    the focus before it is known on the bus) one in the tree"""
    focus = app.focus
    try:
        if focus is not None and (focus.name or '').startswith(prefix) and \
                focus.getState().contains(pyatspi.STATE_FOCUSED):
            return True
    except GLib.Error:
        pass
    found = find(app.accessible(), lambda o: o.getState().contains(pyatspi.STATE_FOCUSED) and
                 (o.name or '').startswith(prefix))
    if found is not None:
        app.focus = found
    return found is not None


def text_of(obj):
    try:
        text = obj.queryText()
        return text.getText(0, -1)
    except (NotImplementedError, GLib.Error):
        return None


def main():
    palaver, fake_agent = sys.argv[1], sys.argv[2]
    problems = []

    with tempfile.TemporaryDirectory(prefix='palaver-a11y-') as work:
        os.makedirs(os.path.join(work, 'project'))
        write_keyfile(work, [fake_agent_profile(work, fake_agent, 'fake', 'Fake Agent',
                                                'permission.json')], [], default_agent='fake')
        app = App(palaver, work)
        try:
            def check_names(step):
                bad, checked = nameless(app.accessible())
                if bad:
                    problems.append(f'{step}: controls without a usable name: {", ".join(bad)}')
                if checked == 0:
                    problems.append(f'{step}: no control found')
                print(f'{step}: {checked} controls, {len(bad)} without a name', flush=True)

            app.wait('the window', lambda: find(app.accessible(), named('Palaver')) is not None
                     if app.accessible() is not None else False)
            app.wait('the window to take the focus', lambda: app.focus is not None)
            check_names('the window')

            # a new session, with the agent the dialog shows
            keys('ctrl+n')
            app.wait('New Session’s Start', lambda: focused_is(app, 'Start'))
            check_names('New Session')
            keys('Return')
            app.wait('the prompt', lambda: focused_is(app, 'Prompt'))
            check_names('a new session')

            # a prompt: the permission request takes the focus
            type_text('hello')
            keys('Return')
            app.wait('the permission request to take the focus',
                     lambda: focused_is(app, 'The agent asks for permission'))
            print(f'focus: {describe(app.focus)}', flush=True)
            check_names('a permission request')

            # Tab reaches Allow; Return answers
            keys('Tab')
            app.wait('Allow', lambda: focused_is(app, 'Allow'))
            keys('Return')
            app.wait('the tool call to complete',
                     lambda: find(app.accessible(),
                                  lambda o: (o.name or '').startswith('Tool call: Write file, Completed'))
                     is not None)
            app.wait('the request to say its answer',
                     lambda: find(app.accessible(), lambda o: 'Answered: Allow' in (o.name or ''))
                     is not None)
            for who in ('You', 'Agent'):
                if find(app.accessible(), lambda o: o.name == who) is None:
                    problems.append(f'no message named “{who}”')
            check_names('an answered request')

            # a second session; its request answered with Alt+1
            keys('ctrl+n')
            app.wait('New Session’s Start', lambda: focused_is(app, 'Start'))
            keys('Return')
            app.wait('the prompt of the second session', lambda: focused_is(app, 'Prompt'))
            type_text('again')
            keys('Return')
            app.wait('the second request to take the focus',
                     lambda: focused_is(app, 'The agent asks for permission'))
            keys('alt+1')
            app.wait('the second request to say its answer',
                     lambda: find(app.accessible(), lambda o: 'Answered: Allow' in (o.name or ''))
                     is not None and find(app.accessible(),
                                          lambda o: o.name == 'You' and
                                          any(text_of(c) == 'again' for c in walk(o)))
                     is not None)
            check_names('the second session')

            # back to the first (the sessions are listed newest first)
            keys('alt+Down')
            app.wait('the first session’s chat',
                     lambda: find(app.accessible(),
                                  lambda o: o.name == 'You' and
                                  any(text_of(c) == 'hello' for c in walk(o))) is not None)
            # and to the latest message of it, then the prompt
            keys('alt+End')
            app.wait('the latest message', lambda: focused_is(app, 'The agent asks for permission'))
            keys('ctrl+l')
            app.wait('the prompt', lambda: focused_is(app, 'Prompt'))
            check_names('the first session again')
        except AssertionError:
            app.quit()
            print(app.process.stderr.read(), flush=True)
            raise
        finally:
            app.quit()

    for problem in problems:
        print(f'FAIL: {problem}', flush=True)
    print(f'{0 if problems else 1} passed, {1 if problems else 0} failed', flush=True)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
