#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Installs the build tree into a temporary DESTDIR and checks that everything a
# desktop needs lands where it belongs, and that no post-install script ran
# (they write into the real prefix and must be skipped when DESTDIR is set).
#
# usage: check-install.py BUILD_ROOT

import json
import os
import subprocess
import sys
import tempfile

APP_ID = 'io.github.palaverapp.Palaver'

# Relative to the prefix.
EXPECTED = [
    '{bindir}/palaver',
    '{libexecdir}/palaver-demo-agent',
    '{datadir}/applications/' + APP_ID + '.desktop',
    '{datadir}/metainfo/' + APP_ID + '.metainfo.xml',
    '{datadir}/glib-2.0/schemas/' + APP_ID + '.gschema.xml',
    '{datadir}/icons/hicolor/scalable/apps/' + APP_ID + '.svg',
    '{datadir}/icons/hicolor/symbolic/apps/' + APP_ID + '-symbolic.svg',
    '{datadir}/dbus-1/services/' + APP_ID + '.service',
    '{localedir}/de/LC_MESSAGES/palaver.mo',
    '{localedir}/zh_CN/LC_MESSAGES/palaver.mo',
]
EXECUTABLES = ['{bindir}/palaver', '{libexecdir}/palaver-demo-agent']

# What the post-install scripts would have made.
NOT_EXPECTED = [
    '{datadir}/glib-2.0/schemas/gschemas.compiled',
    '{datadir}/icons/hicolor/icon-theme.cache',
    '{datadir}/applications/mimeinfo.cache',
]


def build_options(build_root):
    result = subprocess.run(['meson', 'introspect', '--buildoptions', build_root],
                            check=True, capture_output=True, text=True)
    return {option['name']: option['value'] for option in json.loads(result.stdout)}


def main(build_root):
    options = build_options(build_root)
    prefix = options['prefix']

    def under_prefix(name):
        value = options[name]
        return value if os.path.isabs(value) else os.path.join(prefix, value)

    dirs = {name: under_prefix(name) for name in ('bindir', 'libexecdir', 'datadir', 'localedir')}
    problems = []

    with tempfile.TemporaryDirectory(prefix='palaver-install-') as destdir:
        env = dict(os.environ)
        env.pop('DESTDIR', None)
        result = subprocess.run(['meson', 'install', '-C', build_root,
                                 '--destdir', destdir, '--no-rebuild'],
                                capture_output=True, text=True, env=env)
        if result.returncode != 0:
            print(result.stdout, result.stderr, sep='\n', file=sys.stderr)
            print('meson install failed', file=sys.stderr)
            return 1
        if 'Running custom install script' in result.stdout:
            problems.append('a custom install script ran although DESTDIR was set:\n' + result.stdout)

        def staged(template):
            return os.path.join(destdir, template.format(**dirs).lstrip('/'))

        for template in EXPECTED:
            if not os.path.isfile(staged(template)):
                problems.append(f'not installed: {template.format(**dirs)}')
        for template in EXECUTABLES:
            path = staged(template)
            if os.path.isfile(path) and not os.access(path, os.X_OK):
                problems.append(f'not executable: {template.format(**dirs)}')
        for template in NOT_EXPECTED:
            if os.path.exists(staged(template)):
                problems.append(f'a post-install script wrote {template.format(**dirs)}')

        service = staged('{datadir}/dbus-1/services/' + APP_ID + '.service')
        if os.path.isfile(service):
            with open(service, encoding='utf-8') as f:
                text = f.read()
            wanted = f'Exec={dirs["bindir"]}/palaver --gapplication-service'
            if f'Name={APP_ID}\n' not in text or wanted not in text:
                problems.append(f'the D-Bus service file does not start {dirs["bindir"]}/palaver '
                                f'as a GApplication service:\n{text}')

    for problem in problems:
        print(problem, file=sys.stderr)
    if not problems:
        print(f'all {len(EXPECTED)} files installed under {prefix}, no post-install script ran')
    return 1 if problems else 0


if __name__ == '__main__':
    if len(sys.argv) != 2:
        print(f'usage: {sys.argv[0]} BUILD_ROOT', file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
