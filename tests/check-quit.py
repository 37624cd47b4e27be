#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Starts the application with a session whose agent (the scripted fake agent,
# ignoring end of input and SIGTERM) is started through a script that does not
# exec it and leaves a helper of its own behind that ignores SIGTERM, then ends the application each way a person or a system
# does, and counts what is left of the agent afterwards: nothing may be.
#
#   SIGTERM       the application quits as with Ctrl+Q
#   app.quit      what Ctrl+Q and the menu's Quit activate (here over D-Bus)
#   SIGKILL       the application cannot stop anything: the agent's direct
#                 child (the script) must die with it all the same
#
# usage: check-quit.py PALAVER FAKE_AGENT   (needs a display, a session bus and
#        PALAVER_SCENARIO_DIR)

import os
import signal
import subprocess
import sys
import tempfile

from palaver_cli import PATIENCE, wait_for

APP_ID = 'io.github.palaverapp.Palaver'
WRAPPER = '''#!/bin/sh
echo $$ > "{dir}/script.pid"
(trap '' TERM; exec sleep 3600) &
echo $! > "{dir}/leftover.pid"
# the agent a child of this script, not exec'd, with the script's standard
# input (an asynchronous command would get /dev/null)
exec 4<&0
"{agent}" ignore-eof.json "$@" <&4 4<&- &
echo $! > "{dir}/agent.pid"
wait $!
'''


def stat_of(pid):
    try:
        with open(f'/proc/{pid}/stat') as f:
            text = f.read()
    except OSError:
        return None
    fields = text[text.rindex(')') + 2:].split()
    return fields[0], int(fields[2]), int(fields[1])   # state, process group, parent


def runs(pid):
    stat = stat_of(pid)
    return stat is not None and stat[0] not in 'ZX'


def read_pid(path, app):
    wait_for(os.path.basename(path), lambda: os.path.exists(path) and
             open(path).read().strip().isdigit(),
             folders=(os.path.dirname(path),), processes=(app.pid,))
    return int(open(path).read().strip())


def start(palaver, agent_program, work, agent_args=('--agent', 'demo')):
    for name in ('script.pid', 'leftover.pid', 'agent.pid'):
        if os.path.exists(os.path.join(work, name)):
            os.unlink(os.path.join(work, name))
    env = dict(os.environ)
    env['PALAVER_DEMO_AGENT'] = os.path.join(work, 'agent.sh')
    env['HOME'] = work
    for var, sub in (('XDG_CONFIG_HOME', 'config'), ('XDG_DATA_HOME', 'data'),
                     ('XDG_CACHE_HOME', 'cache'), ('XDG_STATE_HOME', 'state')):
        env[var] = os.path.join(work, sub)
    # the app is the one under test, not the test's own warnings policy
    env.pop('G_DEBUG', None)
    folder = os.path.join(work, 'project')
    os.makedirs(folder, exist_ok=True)
    app = subprocess.Popen([palaver, '--new', *agent_args, folder], env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    script = read_pid(os.path.join(work, 'script.pid'), app)
    leftover = read_pid(os.path.join(work, 'leftover.pid'), app)
    agent = read_pid(os.path.join(work, 'agent.pid'), app)
    return app, [script, agent, leftover]


def kill_all(pids):
    for pid in pids:
        if runs(pid):
            os.kill(pid, signal.SIGKILL)


def quit_over_dbus(app):
    subprocess.run(['gdbus', 'call', '--session', '--dest', APP_ID,
                    '--object-path', '/' + APP_ID.replace('.', '/'),
                    '--method', 'org.gtk.Actions.Activate', 'quit', '[]', '{}'],
                   check=True, stdout=subprocess.DEVNULL, timeout=PATIENCE)


def main(palaver, agent_program):
    problems = []
    with tempfile.TemporaryDirectory(prefix='palaver-quit-') as work:
        with open(os.path.join(work, 'agent.sh'), 'w') as f:
            f.write(WRAPPER.format(dir=work, agent=agent_program))
        os.chmod(os.path.join(work, 'agent.sh'), 0o755)

        # the last one without --agent: the default agent, once detected
        # (the application must not quit while it looks for agents)
        for way, end, args in (('SIGTERM', lambda app: app.send_signal(signal.SIGTERM), ('--agent', 'demo')),
                               ('app.quit', quit_over_dbus, ('--agent', 'demo')),
                               ('SIGTERM, default agent', lambda app: app.send_signal(signal.SIGTERM), ())):
            app, pids = start(palaver, agent_program, work, args)
            end(app)
            try:
                app.wait(timeout=PATIENCE)
            except subprocess.TimeoutExpired:
                app.kill()
                problems.append(f'{way}: the application did not quit')
            left = [pid for pid in pids if runs(pid)]
            if left:
                problems.append(f'{way}: left running of script, agent, helper {pids}: {left}')
            print(f'{way}: {len(left)} of the agent\'s 3 processes left', flush=True)
            kill_all(left)

        app, pids = start(palaver, agent_program, work)
        app.kill()
        app.wait()
        try:
            wait_for('the script to die with the application', lambda: not runs(pids[0]),
                     processes=(pids[0],))
            print('SIGKILL: the direct child died with the application', flush=True)
        except AssertionError as error:
            problems.append(f'SIGKILL: {error}')
        kill_all(pids)

    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1], sys.argv[2]))
