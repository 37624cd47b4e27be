#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Checks the translations:
#  - every po/*.po compiles with msgfmt --check --check-format;
#  - xgettext extracts the template without a warning, and no message ends
#    in a cut-off format directive (a G_GSIZE_FORMAT glued to the string);
#  - every message of the current template (extracted from po/POTFILES.in with
#    the same xgettext keywords as meson's glib preset) is translated, and not
#    fuzzy, in each of the languages we ship complete (de, zh_CN).
#
# usage: check-po.py SOURCE_ROOT

import ast
import os
import subprocess
import sys
import tempfile

COMPLETE_LANGUAGES = ('de', 'zh_CN')

# The keywords and flags of meson's i18n.gettext(preset: 'glib').
XGETTEXT_GLIB_ARGS = [
    '--from-code=UTF-8',
    '--add-comments',
    '--keyword=_',
    '--keyword=N_',
    '--keyword=C_:1c,2',
    '--keyword=NC_:1c,2',
    '--keyword=g_dcgettext:2',
    '--keyword=g_dngettext:2,3',
    '--keyword=g_dpgettext2:2c,3',
    '--flag=N_:1:pass-c-format',
    '--flag=C_:2:pass-c-format',
    '--flag=NC_:2:pass-c-format',
    '--flag=g_dngettext:2:pass-c-format',
    '--flag=g_strdup_printf:1:c-format',
    '--flag=g_string_printf:2:c-format',
    '--flag=g_string_append_printf:2:c-format',
    '--flag=g_error_new:3:c-format',
    '--flag=g_set_error:4:c-format',
    '--flag=g_markup_printf_escaped:1:c-format',
    '--flag=g_log:3:c-format',
    '--flag=g_print:1:c-format',
    '--flag=g_printerr:1:c-format',
    '--flag=g_printf:1:c-format',
    '--flag=g_fprintf:2:c-format',
    '--flag=g_sprintf:2:c-format',
    '--flag=g_snprintf:3:c-format',
]


class Entry:
    def __init__(self):
        self.msgctxt = None
        self.msgid = None
        self.msgid_plural = None
        self.msgstr = {}
        self.fuzzy = False

    @property
    def key(self):
        return (self.msgctxt, self.msgid)

    @property
    def translated(self):
        return (not self.fuzzy and bool(self.msgstr)
                and all(text != '' for text in self.msgstr.values()))

    def describe(self):
        text = repr(self.msgid)
        if self.msgctxt is not None:
            text = f'{self.msgctxt!r} | {text}'
        return text


def parse_po(path):
    """Returns the entries of a PO file (obsolete ones and the header left out)."""
    entries = []
    entry = Entry()
    field = None

    def finish():
        nonlocal entry, field
        if entry.msgid is not None and entry.msgid != '':
            entries.append(entry)
        entry = Entry()
        field = None

    with open(path, encoding='utf-8') as f:
        for number, raw in enumerate(f, 1):
            line = raw.strip()
            if not line:
                finish()
                continue
            if line.startswith('#~'):
                continue
            if line.startswith('#,'):
                if entry.msgid is not None:
                    finish()
                entry.fuzzy = 'fuzzy' in [flag.strip() for flag in line[2:].split(',')]
                continue
            if line.startswith('#'):
                if entry.msgid is not None:
                    finish()
                continue

            keyword, _, rest = line.partition(' ')
            if line.startswith('"'):
                if field is None:
                    raise ValueError(f'{path}:{number}: string outside of a message')
                value = ast.literal_eval(line)
            else:
                value = ast.literal_eval(rest.strip())
                if keyword == 'msgctxt':
                    if entry.msgid is not None:
                        finish()
                    field = ('msgctxt', None)
                elif keyword == 'msgid':
                    if entry.msgid is not None:
                        finish()
                    field = ('msgid', None)
                elif keyword == 'msgid_plural':
                    field = ('msgid_plural', None)
                elif keyword == 'msgstr':
                    field = ('msgstr', 0)
                elif keyword.startswith('msgstr[') and keyword.endswith(']'):
                    field = ('msgstr', int(keyword[7:-1]))
                else:
                    raise ValueError(f'{path}:{number}: unknown keyword {keyword}')
                if field[0] == 'msgstr':
                    entry.msgstr[field[1]] = ''
                else:
                    setattr(entry, field[0], '')

            if field[0] == 'msgstr':
                entry.msgstr[field[1]] += value
            else:
                setattr(entry, field[0], getattr(entry, field[0]) + value)
    finish()
    return entries


def extract_template(root, pot):
    with open(os.path.join(root, 'po', 'POTFILES.in'), encoding='utf-8') as f:
        files = [line.strip() for line in f
                 if line.strip() and not line.strip().startswith('#')]
    with tempfile.NamedTemporaryFile('w', suffix='.list', delete=False) as lst:
        lst.write('\n'.join(files) + '\n')
    try:
        result = subprocess.run(['xgettext', *XGETTEXT_GLIB_ARGS,
                                 '--package-name=palaver',
                                 '--directory', root,
                                 '--files-from', lst.name,
                                 '--output', pot],
                                capture_output=True, text=True)
    finally:
        os.unlink(lst.name)
    if result.returncode != 0:
        raise RuntimeError('xgettext failed:\n' + result.stderr)
    # A warning is a string that will not be translated at run time, such as
    # a format macro (G_GSIZE_FORMAT) glued into the msgid.
    return [line for line in result.stderr.splitlines() if line.strip()]


def main(root):
    po_dir = os.path.join(root, 'po')
    problems = []

    po_files = sorted(name for name in os.listdir(po_dir) if name.endswith('.po'))
    for name in po_files:
        result = subprocess.run(['msgfmt', '--check', '--check-format',
                                 '-o', os.devnull, os.path.join(po_dir, name)],
                                capture_output=True, text=True)
        if result.returncode != 0:
            problems.append(f'po/{name}: msgfmt --check failed:\n{result.stderr}')

    with tempfile.TemporaryDirectory() as tmp:
        pot = os.path.join(tmp, 'palaver.pot')
        for warning in extract_template(root, pot):
            problems.append(f'xgettext: {warning}')
        if os.path.exists(pot):
            template = parse_po(pot)
        else:
            template = []  # xgettext writes nothing when there is nothing to translate

    for entry in template:
        for text in (entry.msgid, entry.msgid_plural):
            trailing = len(text or '') - len((text or '').rstrip('%'))
            if trailing % 2 == 1:
                problems.append(f'{entry.describe()} ends in the middle of a format directive: '
                                f'a format macro glued to a translatable string is never '
                                f'translated; format the number into a %s first')

    for lang in COMPLETE_LANGUAGES:
        path = os.path.join(po_dir, lang + '.po')
        if not os.path.exists(path):
            problems.append(f'po/{lang}.po is missing')
            continue
        translations = {entry.key: entry for entry in parse_po(path)}
        missing = []
        for entry in template:
            found = translations.get(entry.key)
            if found is None:
                missing.append(f'  {entry.describe()}: not in po/{lang}.po')
            elif found.fuzzy:
                missing.append(f'  {entry.describe()}: fuzzy')
            elif not found.translated:
                missing.append(f'  {entry.describe()}: untranslated')
            elif (entry.msgid_plural is None) != (found.msgid_plural is None):
                missing.append(f'  {entry.describe()}: plural form does not match the template')
        if missing:
            problems.append(f'po/{lang}.po: {len(missing)} of {len(template)} messages '
                            f'are not translated:\n' + '\n'.join(missing))

    for problem in problems:
        print(problem, file=sys.stderr)
    if not problems:
        print(f'{len(po_files)} catalogues compile; {len(template)} messages, all translated in '
              + ', '.join(COMPLETE_LANGUAGES))
    return 1 if problems else 0


if __name__ == '__main__':
    if len(sys.argv) != 2:
        print(f'usage: {sys.argv[0]} SOURCE_ROOT', file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
