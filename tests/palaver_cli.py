# SPDX-License-Identifier: GPL-3.0-or-later
#
# What the checks of the command line share: waiting on an event, settings
# of their own in a work folder, GVariant text.

import ctypes
import ctypes.util
import os
import select
import signal
import subprocess
import time

# How long the application may take to start or open a session: a bound for
# a hang, not a pace (every wait ends as soon as its event came).
PATIENCE = 60


_libc = ctypes.CDLL(ctypes.util.find_library('c') or 'libc.so.6', use_errno=True)
_IN_MODIFY, _IN_CLOSE_WRITE, _IN_MOVED_TO, _IN_CREATE = 0x2, 0x8, 0x80, 0x100
_IN_NONBLOCK, _IN_CLOEXEC = os.O_NONBLOCK, os.O_CLOEXEC


def wait_for(what, condition, folders=(), processes=()):
    """Waits until condition() holds, looking again only when something
    happened: a file written in one of @folders (inotify) or the end of one
    of @processes (pids, through pidfds). PATIENCE bounds a hang only."""
    if not folders and not processes:
        raise ValueError(f'waiting for {what}: nothing would say it came')
    watch = _libc.inotify_init1(_IN_NONBLOCK | _IN_CLOEXEC)
    if watch < 0:
        raise OSError(ctypes.get_errno(), 'inotify_init1')
    ends = []
    try:
        for folder in folders:
            if _libc.inotify_add_watch(watch, os.fsencode(folder),
                                       _IN_MODIFY | _IN_CLOSE_WRITE | _IN_MOVED_TO | _IN_CREATE) < 0:
                raise OSError(ctypes.get_errno(), f'inotify_add_watch {folder}')
        for pid in processes:
            try:
                ends.append(os.pidfd_open(pid))
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + PATIENCE
        while not condition():
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f'timed out waiting for {what}')
            ready, _, _ = select.select([watch] + ends, [], [], left)
            if watch in ready:
                try:
                    while os.read(watch, 65536):
                        pass
                except BlockingIOError:
                    pass
            for end in ready:
                if end != watch:
                    # ended: once is enough to look again
                    ends.remove(end)
                    os.close(end)
    finally:
        for end in ends:
            os.close(end)
        os.close(watch)


def gvariant_string(text):
    return "'" + text.replace('\\', '\\\\').replace("'", "\\'") + "'"


def environment(work):
    """The environment of a run with its settings, data and caches in @work."""
    env = dict(os.environ)
    env['HOME'] = work
    env['GSETTINGS_BACKEND'] = 'keyfile'
    for var, sub in (('XDG_CONFIG_HOME', 'config'), ('XDG_DATA_HOME', 'data'),
                     ('XDG_CACHE_HOME', 'cache'), ('XDG_STATE_HOME', 'state')):
        env[var] = os.path.join(work, sub)
    # the app is the one under test, not the test's own warnings policy
    env.pop('G_DEBUG', None)
    return env


def write_keyfile(work, agents, sessions, default_agent=None):
    """Settings in @work with @agents and @sessions, lists of GVariant texts,
    and @default_agent, the id New Session preselects."""
    settings = os.path.join(work, 'config', 'glib-2.0', 'settings')
    os.makedirs(settings, exist_ok=True)
    with open(os.path.join(settings, 'keyfile'), 'w') as f:
        f.write('[io/github/palaverapp/Palaver]\n')
        f.write(f"agents=[{', '.join(agents)}]\n")
        f.write(f"sessions=[{', '.join(sessions)}]\n")
        if default_agent is not None:
            f.write(f"default-agent={gvariant_string(default_agent)}\n")


def fake_agent_profile(work, fake_agent, agent_id, name, scenario='basic.json'):
    """A profile running the fake agent, which records its traffic in
    @work/@agent_id.jsonl."""
    record = os.path.join(work, agent_id + '.jsonl')
    args = ', '.join(gvariant_string(a) for a in (scenario, '--record', record))
    return (f"{{'id': <{gvariant_string(agent_id)}>, 'name': <{gvariant_string(name)}>, "
            f"'command': <{gvariant_string(fake_agent)}>, 'args': <[{args}]>}}")


def session_entry(session_id, agent_id, cwd, title=None):
    entry = (f"{{'id': <{gvariant_string(session_id)}>, "
             f"'agent': <{gvariant_string(agent_id)}>, "
             f"'cwd': <{gvariant_string(cwd)}>")
    if title is not None:
        entry += f", 'title': <{gvariant_string(title)}>"
    return entry + '}'


class Running:
    """The application run with @args on a session bus of its own (so that it
    is the primary instance whatever else runs), until the end of the
    with-block; then it is asked to quit as a signal does, so that it writes
    its settings before its bus goes."""

    def __init__(self, palaver, work, args):
        self.work = work
        self.pid_file = os.path.join(work, 'palaver.pid')
        if os.path.exists(self.pid_file):
            os.unlink(self.pid_file)
        # the shell becomes the application: its pid is the one to end
        self.process = subprocess.Popen(
            ['dbus-run-session', '--', 'sh', '-c', 'echo $$ > "$0"; exec "$@"',
             self.pid_file, palaver, *args], env=environment(work),
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True)

    def __enter__(self):
        return self.process

    def __exit__(self, *exc):
        if self.process.poll() is None:
            wait_for('the pid of the application', lambda: os.path.exists(self.pid_file)
                     and open(self.pid_file).read().strip() != '',
                     folders=(self.work,), processes=(self.process.pid,))
            os.kill(int(open(self.pid_file).read()), signal.SIGTERM)
        try:
            self.process.wait(timeout=PATIENCE)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        return False
