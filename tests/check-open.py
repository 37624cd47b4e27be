#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# palaver --open SESSION-ID [--agent NAME] with two agent profiles (the
# scripted fake agent under two names) that both have a stored session of
# the same id:
#
#   --open ID              ambiguous: a clear error naming both agents, exit 1
#   --open ID --agent N    N's session is opened (its agent alone is asked to
#                          load it), by the profile's name or id
#   --open ID --agent X    an agent without that session: a clear error
#   --open OTHER           an id only one agent has still opens without --agent
#
# Each run has a session bus of its own (dbus-run-session), so that it is the
# primary instance whatever else runs, and settings of its own (keyfile).
#
# usage: check-open.py PALAVER FAKE_AGENT   (needs a display and
#        PALAVER_SCENARIO_DIR)

import os
import signal
import subprocess
import sys
import tempfile
import time

# How long the application may take to start or open a session: a bound for
# a hang, not a pace (every wait below ends as soon as its event came).
PATIENCE = 60


def wait_for(what, condition):
    deadline = time.monotonic() + PATIENCE
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f'timed out waiting for {what}')
        time.sleep(0.02)


def gvariant_string(text):
    return "'" + text.replace('\\', '\\\\').replace("'", "\\'") + "'"


def write_settings(work, fake_agent):
    project = os.path.join(work, 'project')
    os.makedirs(project, exist_ok=True)

    def agent(agent_id, name):
        record = os.path.join(work, agent_id + '.jsonl')
        args = ', '.join(gvariant_string(a) for a in ('basic.json', '--record', record))
        return (f"{{'id': <{gvariant_string(agent_id)}>, 'name': <{gvariant_string(name)}>, "
                f"'command': <{gvariant_string(fake_agent)}>, 'args': <[{args}]>}}")

    def session(session_id, agent_id):
        return (f"{{'id': <{gvariant_string(session_id)}>, "
                f"'agent': <{gvariant_string(agent_id)}>, "
                f"'cwd': <{gvariant_string(project)}>}}")

    settings = os.path.join(work, 'config', 'glib-2.0', 'settings')
    os.makedirs(settings, exist_ok=True)
    with open(os.path.join(settings, 'keyfile'), 'w') as f:
        f.write('[io/github/palaverapp/Palaver]\n')
        f.write(f"agents=[{agent('one', 'First Fake')}, {agent('two', 'Second Fake')}]\n")
        f.write(f"sessions=[{session('shared', 'one')}, {session('shared', 'two')}, "
                f"{session('alone', 'one')}]\n")


def environment(work):
    env = dict(os.environ)
    env['HOME'] = work
    env['GSETTINGS_BACKEND'] = 'keyfile'
    for var, sub in (('XDG_CONFIG_HOME', 'config'), ('XDG_DATA_HOME', 'data'),
                     ('XDG_CACHE_HOME', 'cache'), ('XDG_STATE_HOME', 'state')):
        env[var] = os.path.join(work, sub)
    # the app is the one under test, not the test's own warnings policy
    env.pop('G_DEBUG', None)
    return env


def refused(palaver, work, args, expected):
    """The command line is refused with @expected on stderr."""
    run = subprocess.run(['dbus-run-session', '--', palaver, *args], env=environment(work),
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         timeout=PATIENCE)
    problems = []
    if run.returncode != 1:
        problems.append(f'{args}: exit status {run.returncode}, not 1')
    for text in expected:
        if text not in run.stderr:
            problems.append(f'{args}: “{text}” not in the error output: {run.stderr!r}')
    print(f'{" ".join(args)}: refused ({run.returncode})', flush=True)
    return problems


def loads(record):
    """The sessionIds the agent was asked to load."""
    if not os.path.exists(record):
        return []
    found = []
    with open(record) as f:
        for line in f:
            if '"session/load"' in line:
                found.append(line)
    return found


def opened(palaver, work, args, agent_id, session_id, other_id):
    """The application opens the session with @agent_id's agent; the other
    agent is not asked to load anything."""
    for name in ('one.jsonl', 'two.jsonl'):
        if os.path.exists(os.path.join(work, name)):
            os.unlink(os.path.join(work, name))
    pid_file = os.path.join(work, 'palaver.pid')
    if os.path.exists(pid_file):
        os.unlink(pid_file)
    # the shell becomes the application: its pid is the one to end, so that
    # the application quits (and writes its settings) before its bus goes
    app = subprocess.Popen(['dbus-run-session', '--', 'sh', '-c', 'echo $$ > "$0"; exec "$@"',
                            pid_file, palaver, *args], env=environment(work),
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                           start_new_session=True)
    record = os.path.join(work, agent_id + '.jsonl')
    problems = []
    try:
        wait_for(f'{agent_id} to load {session_id}',
                 lambda: loads(record) or app.poll() is not None)
        if app.poll() is not None:
            problems.append(f'{args}: the application quit: {app.stderr.read()!r}')
        elif f'"sessionId":"{session_id}"' not in loads(record)[0].replace(' ', ''):
            problems.append(f'{args}: {agent_id} loaded another session: {loads(record)[0]!r}')
        if loads(os.path.join(work, other_id + '.jsonl')):
            problems.append(f'{args}: {other_id} was asked to load a session too')
    finally:
        if app.poll() is None:
            os.kill(int(open(pid_file).read()), signal.SIGTERM)
        try:
            app.wait(timeout=PATIENCE)
        except subprocess.TimeoutExpired:
            os.killpg(app.pid, signal.SIGKILL)
            app.wait()
    print(f'{" ".join(args)}: {agent_id} loaded {session_id}', flush=True)
    return problems


def main(palaver, fake_agent):
    problems = []
    with tempfile.TemporaryDirectory(prefix='palaver-open-') as work:
        write_settings(work, fake_agent)
        problems += refused(palaver, work, ['--open', 'shared'],
                            ['“shared”', 'First Fake', 'Second Fake', '--agent'])
        problems += refused(palaver, work, ['--open', 'shared', '--agent', 'nobody'],
                            ['“nobody”', '“shared”', 'First Fake', 'Second Fake'])
        problems += refused(palaver, work, ['--agent', 'one'], ['--open'])
        problems += opened(palaver, work, ['--open', 'shared', '--agent', 'Second Fake'],
                           'two', 'shared', 'one')
        problems += opened(palaver, work, ['--open', 'shared', '--agent', 'one'],
                           'one', 'shared', 'two')
        problems += opened(palaver, work, ['--open', 'alone'], 'one', 'alone', 'two')

    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1], sys.argv[2]))
