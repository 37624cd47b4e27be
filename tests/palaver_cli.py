# SPDX-License-Identifier: GPL-3.0-or-later
#
# What the checks of the command line share: waiting on an event, settings
# of their own in a work folder, GVariant text.

import os
import signal
import subprocess
import time

# How long the application may take to start or open a session: a bound for
# a hang, not a pace (every wait ends as soon as its event came).
PATIENCE = 60


def wait_for(what, condition):
    deadline = time.monotonic() + PATIENCE
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f'timed out waiting for {what}')
        time.sleep(0.02)


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
                     and open(self.pid_file).read().strip() != '')
            os.kill(int(open(self.pid_file).read()), signal.SIGTERM)
        try:
            self.process.wait(timeout=PATIENCE)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
        return False
