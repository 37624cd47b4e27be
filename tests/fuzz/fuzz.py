#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Seed corpora for the fuzz targets, and a short fuzzing run of one of them.

usage: fuzz.py seeds TARGET DIR [FUZZER]
           write the seed corpus of TARGET into DIR (the settings target
           writes its own: give its FUZZER program)
       fuzz.py run TARGET FUZZER [LIBFUZZER-ARGS...]
           fuzz from the seed corpus in a directory of its own (nothing is
           written next to the sources), e.g. with -runs=2000; on a failure
           the input that did it is shown and kept

The seeds come from the fake agent's scenarios (tests/scenarios/*.json: what
they make the agent write becomes connection input, their session/update
payloads reducer input, both wrapped as server-sent events SSE input) and
from the small files in tests/fuzz/seeds/TARGET/.
"""
import base64
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCENARIOS = os.path.join(HERE, '..', 'scenarios')
CHECKED_IN = os.path.join(HERE, 'seeds')
TARGETS = ('connection', 'session-update', 'mcp-import', 'sse-parser', 'settings')

SESSION_ID = 'fake-session-1'
REPEAT_CAP = 64  # a {"$repeat"} string is cut to this: seeds stay small


def expand(value, i=0, cycle=0):
    """A scenario value with its placeholders filled in, as the fake agent would."""
    if isinstance(value, dict):
        if set(value) == {'$repeat', 'count'}:
            return str(value['$repeat']) * min(int(value['count']), REPEAT_CAP)
        return {expand(k, i, cycle): expand(v, i, cycle) for k, v in value.items()}
    if isinstance(value, list):
        return [expand(v, i, cycle) for v in value]
    if isinstance(value, str):
        if value in ('${session_id}', '${new_session_id}'):
            return SESSION_ID
        if value.startswith('${params'):
            return None
        return value.replace('${i}', str(i)).replace('${cycle}', str(cycle))
    return value


def handler_calls(handler):
    """The step lists of a handler, one per call."""
    if isinstance(handler, dict):
        return handler.get('calls', [])
    return [handler]


def agent_output(scenario):
    """What the scenario makes the agent write to stdout, as lines: the answer
    to initialize first (the client's request 1), then every other step."""
    lines = []
    next_id = [2]
    request_id = [0]
    string_ids = scenario.get('string_ids', False)

    def message(obj):
        return json.dumps(obj, separators=(',', ':'), ensure_ascii=False)

    def step_lines(step, answer_id):
        op = step.get('op')
        if op == 'result':
            yield message({'jsonrpc': '2.0', 'id': answer_id, 'result': expand(step.get('result'))})
        elif op == 'error':
            error = {'code': step.get('code', -32603), 'message': step.get('message', '')}
            if 'data' in step:
                error['data'] = expand(step['data'])
            yield message({'jsonrpc': '2.0', 'id': answer_id, 'error': error})
        elif op == 'notify':
            note = {'jsonrpc': '2.0', 'method': step.get('method')}
            if 'params' in step:
                note['params'] = expand(step['params'])
            yield message(note)
        elif op == 'update':
            yield message({'jsonrpc': '2.0', 'method': 'session/update',
                           'params': {'sessionId': SESSION_ID, 'update': expand(step.get('update'))}})
        elif op == 'updates':
            templates = step.get('templates', [])
            for i in range(min(int(step.get('count', 0)), 2 * len(templates))):
                update = expand(templates[i % len(templates)], i, i // len(templates))
                yield message({'jsonrpc': '2.0', 'method': 'session/update',
                               'params': {'sessionId': SESSION_ID, 'update': update}})
        elif op == 'request':
            rid = f'r{request_id[0]}' if string_ids else request_id[0]
            request_id[0] += 1
            request = {'jsonrpc': '2.0', 'id': rid, 'method': step.get('method')}
            if 'params' in step:
                request['params'] = expand(step['params'])
            yield message(request)
        elif op == 'raw':
            yield str(step.get('line', ''))

    for step in scenario.get('on_start', []):
        lines += step_lines(step, None)
    handlers = scenario.get('handlers', {})
    for name in ['initialize'] + sorted(set(handlers) - {'initialize'}):
        for steps in handler_calls(handlers.get(name, [])):
            answer_id = 1 if name == 'initialize' else next_id[0]
            if name != 'initialize':
                next_id[0] += 1
            for step in steps:
                lines += step_lines(step, answer_id)
            if name == 'initialize':
                break  # initialize is called once
    return lines


def scenario_outputs():
    for name in sorted(os.listdir(SCENARIOS)):
        if name.endswith('.json'):
            with open(os.path.join(SCENARIOS, name), encoding='utf-8') as f:
                yield name[:-len('.json')], agent_output(json.load(f))


def sse_stream(lines):
    """Agent messages as the events of an MCP server's event stream."""
    out = ['retry: 3000', '']
    for n, line in enumerate(lines):
        out += [f'id: {n}', 'event: message', f'data: {line}', '']
    return '\r\n'.join(out) if len(lines) % 2 else '\n'.join(out)


def write(directory, name, data):
    with open(os.path.join(directory, name), 'wb') as f:
        f.write(data if isinstance(data, bytes) else data.encode('utf-8'))


def write_seeds(target, directory, fuzzer=None):
    os.makedirs(directory, exist_ok=True)
    checked_in = os.path.join(CHECKED_IN, target)
    if target == 'settings':
        # the settings seeds are serialized GVariants: the fuzzer writes them
        env = dict(os.environ, PALAVER_FUZZ_WRITE_SEEDS=directory)
        subprocess.run([fuzzer], env=env, check=True)
    if target == 'sse-parser':
        # first byte: the size limit (even: the default), second: the cutting
        header = b'\x00\x07'
        for name, lines in scenario_outputs():
            if lines:
                write(directory, name + '.sse', header + sse_stream(lines).encode('utf-8'))
        if os.path.isdir(checked_in):
            for name in sorted(os.listdir(checked_in)):
                with open(os.path.join(checked_in, name), 'rb') as f:
                    write(directory, name, header + f.read())
        return
    for name, lines in scenario_outputs():
        if target == 'connection' and lines:
            write(directory, name + '.jsonl', '\n'.join(lines) + '\n')
        elif target == 'session-update':
            updates = [line for line in lines if '"session/update"' in line]
            params = [json.dumps(json.loads(u)['params'], ensure_ascii=False) for u in updates]
            if params:
                write(directory, name + '.jsonl', '\n'.join(params) + '\n')
    if os.path.isdir(checked_in):
        for name in sorted(os.listdir(checked_in)):
            shutil.copy(os.path.join(checked_in, name), os.path.join(directory, name))


def run(target, fuzzer, args):
    work = tempfile.mkdtemp(prefix=f'palaver-fuzz-{target}-')
    corpus = os.path.join(work, 'corpus')
    write_seeds(target, corpus, fuzzer)
    print(f'{len(os.listdir(corpus))} seeds for {target} in {corpus}', flush=True)
    command = [fuzzer, *args, '-seed=1', '-print_final_stats=1',
               f'-artifact_prefix={work}/', corpus]
    print(' '.join(command), flush=True)
    status = subprocess.run(command).returncode
    if status == 0:
        shutil.rmtree(work)
        return 0
    for name in sorted(os.listdir(work)):
        path = os.path.join(work, name)
        if os.path.isfile(path):
            with open(path, 'rb') as f:
                data = f.read()
            print(f'failing input {path} ({len(data)} bytes), base64:')
            print(base64.b64encode(data[:65536]).decode('ascii'))
    print(f'kept {work}; run "{fuzzer} FILE" to replay an input', flush=True)
    return status


def main(argv):
    if len(argv) >= 3 and argv[0] == 'seeds' and argv[1] in TARGETS:
        if argv[1] == 'settings' and len(argv) < 4:
            sys.exit('fuzz.py seeds settings DIR FUZZER: the settings fuzzer writes its seeds')
        write_seeds(argv[1], argv[2], argv[3] if len(argv) > 3 else None)
        return 0
    if len(argv) >= 3 and argv[0] == 'run' and argv[1] in TARGETS:
        return run(argv[1], argv[2], argv[3:])
    sys.exit(__doc__)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
