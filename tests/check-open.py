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
#   --open AGENT:ID        as --open ID --agent AGENT
#   --open UNKNOWN         an id no listed session has: a clear error, exit 1
#
# Each run has a session bus of its own (dbus-run-session), so that it is the
# primary instance whatever else runs, and settings of its own (keyfile).
#
# usage: check-open.py PALAVER FAKE_AGENT   (needs a display and
#        PALAVER_SCENARIO_DIR)

import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
from palaver_cli import (PATIENCE, Running, environment, fake_agent_profile,  # noqa: E402
                         session_entry, wait_for, write_keyfile)


def write_settings(work, fake_agent):
    project = os.path.join(work, 'project')
    os.makedirs(project, exist_ok=True)
    write_keyfile(work,
                  [fake_agent_profile(work, fake_agent, 'one', 'First Fake'),
                   fake_agent_profile(work, fake_agent, 'two', 'Second Fake')],
                  [session_entry('shared', 'one', project), session_entry('shared', 'two', project),
                   session_entry('alone', 'one', project)])


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
    record = os.path.join(work, agent_id + '.jsonl')
    problems = []
    with Running(palaver, work, args) as app:
        wait_for(f'{agent_id} to load {session_id}',
                 lambda: loads(record) or app.poll() is not None,
                 folders=(work,), processes=(app.pid,))
        if app.poll() is not None:
            problems.append(f'{args}: the application quit: {app.stderr.read()!r}')
        elif f'"sessionId":"{session_id}"' not in loads(record)[0].replace(' ', ''):
            problems.append(f'{args}: {agent_id} loaded another session: {loads(record)[0]!r}')
        if loads(os.path.join(work, other_id + '.jsonl')):
            problems.append(f'{args}: {other_id} was asked to load a session too')
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
        problems += opened(palaver, work, ['--open', 'Second Fake:shared'], 'two', 'shared', 'one')
        problems += refused(palaver, work, ['--open', 'nowhere'], ['“nowhere”', 'AGENT:ID'])

    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1], sys.argv[2]))
