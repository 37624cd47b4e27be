#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Keeps po/POTFILES.in honest: every file under src/ and data/ that holds a
# translatable string is listed, every listed file exists, and the list is
# sorted without duplicates.
#
# usage: check-potfiles.py SOURCE_ROOT

import os
import re
import sys

SCANNED_DIRS = ('src', 'data')

# Marks of a translatable string in C and in GtkBuilder files.
MARKERS = re.compile(
    r'(?<![A-Za-z0-9_])(?:N|C|NC)?_\('
    r'|\bg_d(?:c|n|p|pc|pn)?gettext2?\b'
    r'|translatable="yes"'
)

# Files whose formats are translatable by nature, whatever they contain.
ALWAYS_TRANSLATABLE = ('.desktop.in', '.metainfo.xml.in', '.gschema.xml')

SKIPPED_SUFFIXES = ('.png', '.svg', '.jpg', '.gresource', '.compiled', '.css')


def read_potfiles(path):
    entries = []
    with open(path, encoding='utf-8') as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if line and not line.startswith('#'):
                entries.append((number, line))
    return entries


def translatable_files(root):
    found = []
    for top in SCANNED_DIRS:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith('.'))
            for name in sorted(filenames):
                if name.startswith('.') or name.endswith(SKIPPED_SUFFIXES):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root).replace(os.sep, '/')
                if name.endswith(ALWAYS_TRANSLATABLE):
                    found.append(rel)
                    continue
                try:
                    with open(path, encoding='utf-8') as f:
                        text = f.read()
                except (UnicodeDecodeError, OSError):
                    continue
                if MARKERS.search(text):
                    found.append(rel)
    return found


def main(root):
    potfiles = os.path.join(root, 'po', 'POTFILES.in')
    entries = read_potfiles(potfiles)
    listed = [name for _, name in entries]
    problems = []

    for number, name in entries:
        if not os.path.isfile(os.path.join(root, name)):
            problems.append(f'po/POTFILES.in:{number}: {name} does not exist')

    seen = set()
    for number, name in entries:
        if name in seen:
            problems.append(f'po/POTFILES.in:{number}: {name} is listed twice')
        seen.add(name)

    if listed != sorted(listed):
        for (number, name), wanted in zip(entries, sorted(listed)):
            if name != wanted:
                problems.append(f'po/POTFILES.in:{number}: not sorted: {name} where {wanted} belongs')
                break

    for name in translatable_files(root):
        if name not in seen:
            problems.append(f'{name} has translatable strings but is missing from po/POTFILES.in')

    for problem in problems:
        print(problem, file=sys.stderr)
    if not problems:
        print(f'po/POTFILES.in lists all {len(listed)} files with translatable strings, sorted')
    return 1 if problems else 0


if __name__ == '__main__':
    if len(sys.argv) != 2:
        print(f'usage: {sys.argv[0]} SOURCE_ROOT', file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
