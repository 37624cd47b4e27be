#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Checks the Flatpak manifest: flatpak-builder reads it without a single
# warning, and it says what the application needs (id, command, sandbox
# permissions, modules). Skipped (exit 77) when flatpak-builder is missing;
# build-aux/setup.sh test installs it.
#
# usage: check-flatpak-manifest.py MANIFEST.json

import json
import os
import shutil
import subprocess
import sys
import tempfile

APP_ID = 'io.github.palaverapp.Palaver'
COMMAND = 'palaver'
FINISH_ARGS = [
    '--share=network',
    '--share=ipc',
    '--socket=wayland',
    '--socket=fallback-x11',
    '--device=dri',
    '--filesystem=home',
    '--talk-name=org.freedesktop.Flatpak',
]
SKIP = 77


def check(manifest, problems):
    app_id = manifest.get('id', manifest.get('app-id'))
    if app_id != APP_ID:
        problems.append(f'the id is {app_id!r}, not {APP_ID!r}')
    if manifest.get('command') != COMMAND:
        problems.append(f'the command is {manifest.get("command")!r}, not {COMMAND!r}')
    if manifest.get('runtime') != 'org.gnome.Platform':
        problems.append(f'the runtime is {manifest.get("runtime")!r}, not org.gnome.Platform')
    if manifest.get('sdk') != 'org.gnome.Sdk':
        problems.append(f'the SDK is {manifest.get("sdk")!r}, not org.gnome.Sdk')

    finish_args = manifest.get('finish-args', [])
    for arg in FINISH_ARGS:
        if arg not in finish_args:
            problems.append(f'finish-args lacks {arg}')
    for arg in finish_args:
        if arg not in FINISH_ARGS:
            problems.append(f'finish-args has {arg}, which the application does not need')

    modules = [m for m in manifest.get('modules', []) if isinstance(m, dict)]
    names = [m.get('name') for m in modules]
    if names[-1:] != ['palaver']:
        problems.append(f'the last module must be palaver, the modules are {names}')
        return
    if 'md4c' not in names:
        problems.append('no md4c module')
    # the terminal of a sign-in; the GNOME runtime has no VTE
    if 'vte' not in names:
        problems.append('no vte module')
    else:
        vte = modules[names.index('vte')]
        if '-Dgtk4=true' not in vte.get('config-opts', []):
            problems.append('the vte module does not build for GTK 4')

    app = modules[-1]
    if app.get('buildsystem') != 'meson':
        problems.append('the palaver module does not build with meson')
    if app.get('builddir') is not True:
        problems.append('the palaver module does not build in a separate builddir')
    if app.get('run-tests') is not True:
        problems.append('the palaver module does not run its tests')
    if '-Dsdk_agent_tests=disabled' not in app.get('config-opts', []):
        problems.append('the palaver module does not disable the tests that need the network')
    sources = app.get('sources', [])
    if not any(s.get('type') == 'dir' and s.get('path') == '..' for s in sources):
        problems.append('the palaver module does not build the source tree it lives in')


def main(path):
    problems = []

    # The file itself must be strict JSON, not just what json-glib tolerates.
    with open(path, encoding='utf-8') as f:
        try:
            json.load(f)
        except json.JSONDecodeError as e:
            print(f'{path}: not valid JSON: {e}', file=sys.stderr)
            return 1

    builder = shutil.which('flatpak-builder')
    if builder is None:
        print('flatpak-builder is not installed; skipping')
        return SKIP

    # flatpak-builder makes its state directory (.flatpak-builder) in the
    # current directory: keep it out of the source tree.
    with tempfile.TemporaryDirectory(prefix='palaver-flatpak-') as tmp:
        result = subprocess.run([builder, '--show-manifest', os.path.abspath(path)],
                                cwd=tmp, capture_output=True, text=True)
    if result.returncode != 0:
        problems.append(f'flatpak-builder --show-manifest failed ({result.returncode})')
    if result.stderr.strip():
        problems.append('flatpak-builder complained:\n' + result.stderr.rstrip())

    try:
        manifest = json.loads(result.stdout)
    except json.JSONDecodeError as e:
        problems.append(f'flatpak-builder --show-manifest printed no JSON: {e}')
    else:
        check(manifest, problems)

    for problem in problems:
        print(f'{path}: {problem}', file=sys.stderr)
    if not problems:
        print(f'{path}: flatpak-builder reads it cleanly; id, command, finish-args and modules as expected')
    return 1 if problems else 0


if __name__ == '__main__':
    if len(sys.argv) != 2:
        print(f'usage: {sys.argv[0]} MANIFEST', file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
