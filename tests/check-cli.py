#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The command line on a stored history (a transcript store filled with
# fill-transcripts, settings of its own):
#
#   --search TEXT          the matching sessions, newest first, one a line
#                          (AGENT:ID, time, agent, title), each matching
#                          message's snippet on a line of its own below;
#                          thoughts only with --thoughts
#   --export SESSION       the Markdown on the standard output
#   --export AGENT:ID FILE the same, written to FILE
#   --export ... --format jsonl   the stored updates, one a line
#   ambiguous, unknown and empty names, a format that does not exist, an
#   empty search: a clear error, exit 1
#
# --export and --search run without a display and without a session bus:
# they open no window and leave any running instance alone.
#
#   --new --agent NAME FOLDER --prompt TEXT   the agent starts a session
#                          there and is sent TEXT (this one needs a display)
#
# usage: check-cli.py PALAVER FILL_TRANSCRIPTS FAKE_AGENT EXPORT_DIR
#        (needs a display and PALAVER_SCENARIO_DIR)

import json
import os
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True
from palaver_cli import (PATIENCE, Running, environment, fake_agent_profile,  # noqa: E402
                         session_entry, wait_for, write_keyfile)


def headless(work):
    """The environment of a run with neither a display nor a session bus."""
    env = environment(work)
    for var in ('DISPLAY', 'WAYLAND_DISPLAY', 'DBUS_SESSION_BUS_ADDRESS'):
        env.pop(var, None)
    return env


def run(palaver, work, args):
    return subprocess.run([palaver, *args], env=headless(work), cwd=work, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=PATIENCE)


class Check:
    def __init__(self):
        self.problems = []

    def expect(self, condition, what):
        if not condition:
            self.problems.append(what)
        return condition

    def succeeds(self, palaver, work, args):
        result = run(palaver, work, args)
        self.expect(result.returncode == 0,
                    f'{args}: exit status {result.returncode}, stderr {result.stderr!r}')
        print(f'{" ".join(args)}: {result.returncode}', flush=True)
        return result

    def refused(self, palaver, work, args, expected):
        result = run(palaver, work, args)
        self.expect(result.returncode == 1, f'{args}: exit status {result.returncode}, not 1')
        self.expect(result.stdout == '', f'{args}: wrote {result.stdout!r}')
        for text in expected:
            self.expect(text in result.stderr,
                        f'{args}: “{text}” not in the error output {result.stderr!r}')
        print(f'{" ".join(args)}: refused ({result.returncode})', flush=True)


def fill(fill_transcripts, work, *sessions):
    """Records (agent, session, JSON Lines file) triples in the store."""
    database = os.path.join(work, 'data', 'palaver', 'transcripts.db')
    os.makedirs(os.path.dirname(database), exist_ok=True)
    args = [a for triple in sessions for a in triple]
    subprocess.run([fill_transcripts, database, *args], check=True, timeout=PATIENCE)


def body(markdown):
    """What follows the header of an exported session (whose "Started" line
    says when it was recorded)."""
    return markdown.split('\n## ', 1)[1]


def check_search(check, palaver, work):
    result = check.succeeds(palaver, work, ['--search', 'login'])
    lines = result.stdout.splitlines()
    sessions = [line.split('\t') for line in lines if not line.startswith('\t')]
    check.expect([s[0] for s in sessions] == ['one:s-2', 'one:s-1'],
                 f'--search login: sessions {sessions!r}, not s-2 then s-1')
    check.expect(all(len(s) == 4 for s in sessions), f'--search login: fields {sessions!r}')
    check.expect(sessions and sessions[-1][2:] == ['First Fake', 'Fix the login bug'],
                 f'--search login: {sessions[-1:]!r} does not name the agent and the title')
    snippets = [line[1:] for line in lines if line.startswith('\t')]
    check.expect(len(snippets) >= 3 and all('login' in s.lower() for s in snippets),
                 f'--search login: snippets {snippets!r}')
    check.expect('\033' not in result.stdout, '--search: bold in output that is no terminal')
    # the first session's snippets come right after it
    check.expect(lines[0].startswith('one:s-2\t') and lines[1].startswith('\t'),
                 f'--search login: {lines[:2]!r}')

    result = check.succeeds(palaver, work, ['--search', 'should'])
    check.expect(result.stdout == '', f'--search should: found a thought {result.stdout!r}')
    check.expect('“should”' in result.stderr, f'--search should: {result.stderr!r}')
    result = check.succeeds(palaver, work, ['--search', 'should', '--thoughts'])
    check.expect(result.stdout.startswith('one:s-1\t') and 'should' in result.stdout,
                 f'--search should --thoughts: {result.stdout!r}')

    check.refused(palaver, work, ['--search', ' ?! '], ['word'])
    check.refused(palaver, work, ['--search', 'login', '--format', 'jsonl'], ['--search'])


TEXT_CHUNKS = ('user_message_chunk', 'agent_message_chunk', 'agent_thought_chunk')


def plain_chunk(update):
    """The message id of a text chunk with nothing more to it, else None
    (a text chunk without an id gives '')"""
    if not isinstance(update, dict) or update.get('sessionUpdate') not in TEXT_CHUNKS:
        return None
    content = update.get('content')
    message_id = update.get('messageId')
    if len(update) != (3 if 'messageId' in update else 2) or \
            (message_id is not None and not isinstance(message_id, str)):
        return None
    if not isinstance(content, dict) or len(content) != 2 or content.get('type') != 'text' or \
            not isinstance(content.get('text'), str):
        return None
    return message_id or ''


def as_stored(updates):
    """The entries the store keeps of @updates: text chunks of one message
    in a row as one chunk with all their text"""
    stored = []
    for update in updates:
        last = stored[-1] if stored else None
        key = plain_chunk(update)
        if key is not None and last is not None and plain_chunk(last) == key and \
                last['sessionUpdate'] == update['sessionUpdate']:
            last['content'] = {'type': 'text', 'text': last['content']['text'] + update['content']['text']}
            continue
        stored.append(json.loads(json.dumps(update)))
    return stored


def check_export(check, palaver, work, export_dir):
    with open(os.path.join(export_dir, 'every-kind.md')) as f:
        golden = f.read()
    with open(os.path.join(export_dir, 'every-kind.jsonl')) as f:
        updates = [line for line in f.read().splitlines() if line]

    result = check.succeeds(palaver, work, ['--export', 's-1'])
    check.expect(result.stdout.startswith('# Fix the login bug\n\n- Agent: First Fake\n'),
                 f'--export s-1: header {result.stdout[:200]!r}')
    check.expect(f'- Folder: `{work}/project`' in result.stdout,
                 f'--export s-1: no folder in {result.stdout[:300]!r}')
    check.expect(body(result.stdout) == body(golden).replace('## Fake Agent', '## First Fake'),
                 f'--export s-1: {result.stdout!r}')

    target = os.path.join(work, 'exported.md')
    check.succeeds(palaver, work, ['--export', 'First Fake:s-1', 'exported.md'])
    check.expect(os.path.exists(target) and open(target).read() == result.stdout,
                 '--export First Fake:s-1 exported.md: not the same as on the standard output')

    result = check.succeeds(palaver, work, ['--export', 's-1', '--format', 'jsonl'])
    exported = result.stdout.splitlines()
    parsed = []
    for line in updates:
        try:
            parsed.append(json.loads(line))
        except ValueError:
            pass
    check.expect([json.loads(line) for line in exported] == as_stored(parsed),
                 f'--export s-1 --format jsonl: {exported!r}')

    # a session removed from the list keeps its history
    result = check.succeeds(palaver, work, ['--export', 'one:removed'])
    check.expect('Left behind' in result.stdout, f'--export one:removed: {result.stdout!r}')

    check.refused(palaver, work, ['--export', 'shared'],
                  ['“shared”', 'First Fake', 'Second Fake', '--agent'])
    check.refused(palaver, work, ['--export', 'shared', '--agent', 'two'], ['No history'])
    check.refused(palaver, work, ['--export', 'nowhere'], ['“nowhere”', 'AGENT:ID'])
    check.refused(palaver, work, ['--export', 's-1', '--format', 'html'], ['“html”'])
    check.refused(palaver, work, ['--export', 's-1', 'a.md', 'b.md'], ['one file'])
    check.refused(palaver, work, ['--export', 's-1', os.path.join(work, 'no', 'such', 'dir.md')],
                  ['dir.md'])
    check.refused(palaver, work, ['--export', 's-1', '--search', 'login'], ['--export'])
    check.refused(palaver, work, ['--format', 'jsonl'], ['--export'])


def prompts(record):
    """The texts of the prompts the agent was sent."""
    if not os.path.exists(record):
        return []
    found = []
    with open(record) as f:
        for line in f:
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if message.get('method') == 'session/prompt':
                found += [block.get('text') for block in message['params']['prompt']]
    return found


def check_new_prompt(check, palaver, work):
    project = os.path.join(work, 'project')
    record = os.path.join(work, 'two.jsonl')
    args = ['--new', '--agent', 'Second Fake', project, '--prompt', 'hello from the command line']
    with Running(palaver, work, args) as app:
        wait_for('the prompt', lambda: prompts(record) or app.poll() is not None,
                 folders=(work,), processes=(app.pid,))
        check.expect(prompts(record) == ['hello from the command line'],
                     f'{args}: the agent was sent {prompts(record)!r}; '
                     f'{app.stderr.read() if app.poll() is not None else ""}')
    print(f'{" ".join(args)}: {prompts(record)!r}', flush=True)

    check.refused(palaver, work, ['--prompt', 'alone'], ['--new'])
    check.refused(palaver, work, ['--new', '--prompt', ' '], ['empty'])


def main(palaver, fill_transcripts, fake_agent, export_dir):
    check = Check()
    with tempfile.TemporaryDirectory(prefix='palaver-cli-') as work:
        project = os.path.join(work, 'project')
        os.makedirs(project)
        write_keyfile(work,
                      [fake_agent_profile(work, fake_agent, 'one', 'First Fake'),
                       fake_agent_profile(work, fake_agent, 'two', 'Second Fake')],
                      [session_entry('s-1', 'one', project, 'Fix the login bug'),
                       session_entry('s-2', 'one', project, 'Second look'),
                       session_entry('shared', 'one', project),
                       session_entry('shared', 'two', project)])

        # nothing stored yet: nothing found, and no database made
        result = check.succeeds(palaver, work, ['--search', 'login'])
        check.expect(result.stdout == '', f'--search with no history: {result.stdout!r}')
        check.expect(not os.path.exists(os.path.join(work, 'data', 'palaver')),
                     '--search made a database')
        check.refused(palaver, work, ['--export', 's-1'], ['No history'])

        second = os.path.join(work, 'second.jsonl')
        with open(second, 'w') as f:
            f.write('[{"type":"text","text":"Is the login fixed?"}]\n')
            f.write('{"sessionUpdate":"agent_message_chunk",'
                    '"content":{"type":"text","text":"Yes: login works."}}\n')
        removed = os.path.join(work, 'removed.jsonl')
        with open(removed, 'w') as f:
            f.write('{"sessionUpdate":"agent_message_chunk",'
                    '"content":{"type":"text","text":"Left behind."}}\n')
        fill(fill_transcripts, work, ('one', 's-1', os.path.join(export_dir, 'every-kind.jsonl')),
             ('one', 'shared', removed), ('one', 'removed', removed))
        # later: the newer session
        fill(fill_transcripts, work, ('one', 's-2', second))

        check_search(check, palaver, work)
        check_export(check, palaver, work, export_dir)
        check_new_prompt(check, palaver, work)

    for problem in check.problems:
        print(problem, file=sys.stderr)
    return 1 if check.problems else 0


if __name__ == '__main__':
    sys.exit(main(*sys.argv[1:5]))
