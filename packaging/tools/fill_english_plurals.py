#!/usr/bin/env python3
"""Fills the English numerus forms that lupdate left empty in nb2lite_en.ts.

Usage: fill_english_plurals.py resources/translations/nb2lite_en.ts

Run it after `cmake --build build --target update_translations` when that added plural
messages. English source texts spell plurals the Qt way, "%n frame(s)" / "%n branch(es)":
the singular drops the bracket, the plural keeps its letters ("1 frame", "2 frames").
Only unfinished forms are touched: empty ones, and ones lupdate copied from the same text in
another context (still marked unfinished), which are replaced by the English derivation. Read the result
before committing: a text whose plural is not a suffix ("%n child(ren)") needs a hand edit,
and the catalogue check (tests/i18n/check_translations.sh) fails while any form is empty.
"""
import re
import sys

FORMS = re.compile(r'(<message numerus="yes">\s*<source>([^<]*)</source>\s*)'
                   r'<translation type="unfinished">\s*<numerusform>[^<]*</numerusform>\s*<numerusform>[^<]*</numerusform>\s*</translation>',
                   re.S)


def forms(source):
    singular = re.sub(r"\((e?s)\)", "", source)
    plural = re.sub(r"\((e?s)\)", r"\1", source)
    return singular, plural


def fill(match):
    singular, plural = forms(match.group(2))
    return (match.group(1) + "<translation>\n            <numerusform>" + singular + "</numerusform>\n"
            "            <numerusform>" + plural + "</numerusform>\n        </translation>")


def main():
    path = sys.argv[1]
    with open(path, encoding="utf-8") as f:
        text = f.read()
    filled, count = FORMS.subn(fill, text)
    with open(path, "w", encoding="utf-8") as f:
        f.write(filled)
    print(f"{path}: filled {count} plural message(s)")


if __name__ == "__main__":
    main()
