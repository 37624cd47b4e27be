#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Every GSettings key must explain itself: a non-empty summary and description,
# and the schema list must name the gettext domain they are translated in.
#
# usage: check-gschema.py SCHEMA.gschema.xml

import sys
import xml.etree.ElementTree as ET


def main(path):
    root = ET.parse(path).getroot()
    problems = []

    if root.get('gettext-domain') != 'palaver':
        problems.append('<schemalist> must have gettext-domain="palaver"')

    keys = 0
    for schema in root.iter('schema'):
        schema_id = schema.get('id')
        for key in schema.iter('key'):
            keys += 1
            name = key.get('name')
            for field in ('summary', 'description'):
                elements = key.findall(field)
                if len(elements) != 1:
                    problems.append(f'{schema_id}: key “{name}” needs exactly one <{field}>, has {len(elements)}')
                elif not (elements[0].text or '').strip():
                    problems.append(f'{schema_id}: key “{name}” has an empty <{field}>')

    if keys == 0:
        problems.append('no keys found')

    for problem in problems:
        print(f'{path}: {problem}', file=sys.stderr)
    if not problems:
        print(f'{keys} keys, each with a summary and a description')
    return 1 if problems else 0


if __name__ == '__main__':
    if len(sys.argv) != 2:
        print(f'usage: {sys.argv[0]} SCHEMA', file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
