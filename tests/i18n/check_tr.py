#!/usr/bin/env python3
"""Fails when ui/ or app/ show the user a string that cannot be translated.

Usage: check_tr.py SOURCE_ROOT

lupdate only sees strings that are already inside tr(); it cannot tell that
setText(QStringLiteral("Open")) should have been tr("Open"). This scanner looks for the
places where text reaches a user and reports literals there that bypass tr(). It is a
deliberately simple reader of C++ (comments and strings are understood, nothing else), so
its rules are few and explicit:

1. Sinks. A call to one of SINKS (setText, setToolTip, setWindowTitle, addAction,
   showMessage, QMessageBox::warning, new QLabel(...), console.err(...), Error::make, ...)
   is a place where text reaches the user. In the arguments named for that sink, a string
   literal that is *directly* an argument -- bare, or wrapped in QStringLiteral /
   QLatin1String / QString(...) / u"" -- is reported when it contains a word (two or more
   letters, after removing %1/%n placeholders, HTML tags and entities).
   Literals inside any other nested call are not the sink's text: tr("..."),
   themeIcon(QStringLiteral("zoom-in")) and the arguments of .arg(...) are left alone.
2. Assignments of a literal to a field named message, notice or detail (error.message =
   QStringLiteral("...")) are reported the same way: those fields are shown to users.
3. Hand-made plurals. A ternary on a count (`== 1 ?`, `!= 1 ?`) whose branches call tr()
   is reported: use tr("%n frame(s)", nullptr, n) and the English catalogue's numerus
   forms. A tr() text that says "(s)" or "(es)" without %n is reported for the same reason.
4. Sentences. Outside those sinks, a QStringLiteral / QLatin1String whose text has two
   neighbouring words ("Saved to", "cannot write") is reported: text made of words is
   almost always text for people (CLI notes, report labels, error messages built up and
   shown later). Keys, paths, MIME types and identifiers have no spaces; style sheets
   (text with "{") are skipped.
5. Escapes. A line that contains the comment `// notr` is not checked (for text that is
   really an identifier, a file format or a command syntax). Files in ALLOWED are not
   checked at all.
"""
import os
import re
import sys

# Files not checked yet, each with the reason.
ALLOWED = {
    # The fake API server's command line: a developer and test tool (not in the desktop
    # menu), whose help text is the protocol's own vocabulary (fault kinds, headers).
    "app/fakeapi/main.cpp",
}

# Known findings left for another branch: (file, words in the finding) -> reason. Each one
# is listed in the i18n report; delete the entry when the file is fixed (the scanner then
# fails if the finding comes back).
KNOWN = {
}

# Sink name -> which arguments carry user-visible text (0-based; None means all).
SINKS = {
    "setText": [0], "setWindowTitle": [0], "setToolTip": [0], "setStatusTip": [0],
    "setWhatsThis": [0], "setPlaceholderText": [0], "setTitle": [0], "setLabelText": None,
    "setInformativeText": [0], "setDetailedText": [0], "setWindowIconText": [0],
    "addAction": None, "addMenu": None, "addTab": [1, 2], "insertTab": [2, 3],
    "setTabText": [1], "setTabToolTip": [1], "addRow": [0], "showMessage": [0],
    "setHeaderLabels": None, "setHeaderLabel": [0], "setSuffix": [0], "setPrefix": [0],
    "setSpecialValueText": [0], "addItem": [0], "addItems": [0], "insertItem": [1],
    "setItemText": [1], "setButtonText": [1], "setAccessibleName": [0],
    "setAccessibleDescription": [0], "setEmptyText": [0], "setMessage": [0], "setHint": [0],
    "QMessageBox::information": [1, 2], "QMessageBox::warning": [1, 2],
    "QMessageBox::critical": [1, 2], "QMessageBox::question": [1, 2],
    "QMessageBox::about": [1, 2],
    "QFileDialog::getOpenFileName": [1, 3], "QFileDialog::getOpenFileNames": [1, 3],
    "QFileDialog::getSaveFileName": [1, 3], "QFileDialog::getExistingDirectory": [1],
    "QInputDialog::getText": [1, 2], "QProgressDialog": [0, 1],
    "QLabel": [0], "QPushButton": None, "QToolButton": [0], "QCheckBox": [0],
    "QRadioButton": [0], "QGroupBox": [0], "QAction": None, "QMenu": [0],
    "QMessageBox": [1, 2], "QDockWidget": [0], "QCommandLineOption": [1, 2],
    "addPositionalArgument": [1, 2], "setApplicationDescription": [0],
    # nb2lite (app/cli): what the command line prints or reports.
    "console.out": [0], "console.err": [0], "m_progress": [0], "progress": [0],
    "failureReport": [1], "Error::make": [1],
}
FIELDS = ("message", "notice", "detail")
WRAPPERS = r"(?:QStringLiteral|QLatin1String|QLatin1StringView|QString|QString::fromUtf8|QString::fromLatin1)"


def strip_comments(text):
    """Blanks comments (keeping newlines and the `// notr` marker lines' positions)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def closing_paren(text, start):
    """Index of the ')' matching the '(' at start, skipping string and char literals."""
    depth, i, n = 0, start, len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def statement_end(text, start):
    """Index of the ';' that ends the statement at start (string literals skipped)."""
    i, n = start, len(text)
    while i < n:
        c = text[i]
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        if c == ";":
            return i
        i += 1
    return n


def split_args(args):
    """Top-level comma split of an argument list (brackets and literals respected)."""
    parts, depth, cur, i, n = [], 0, [], 0, len(args)
    while i < n:
        c = args[i]
        if c in "\"'":
            j = i + 1
            while j < n and args[j] != c:
                j += 2 if args[j] == "\\" else 1
            cur.append(args[i:j + 1])
            i = j + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if c == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(c)
        i += 1
    parts.append("".join(cur))
    return parts


def blank_nested_calls(arg):
    """Unwraps string wrappers, then blanks every other call's parentheses (tr, .arg, icons)."""
    arg = re.sub(WRAPPERS + r"\s*\(\s*((?:(?:u8?)?\"(?:[^\"\\]|\\.)*\"\s*)+)\)", r"\1", arg)
    # A literal compared with == or != is a value being tested, not text being shown.
    arg = re.sub(r"(==|!=)\s*u?8?\"(?:[^\"\\]|\\.)*\"", r"\1 0", arg)
    arg = re.sub(r"u?8?\"(?:[^\"\\]|\\.)*\"\s*(==|!=)", r"0 \1", arg)
    out, i, n = [], 0, len(arg)
    call = re.compile(r"[A-Za-z_][A-Za-z0-9_:]*\s*\(")
    while i < n:
        c = arg[i]
        if c in "\"'":  # a literal is copied whole: a "(" inside it is not a call
            j = i + 1
            while j < n and arg[j] != c:
                j += 2 if arg[j] == "\\" else 1
            out.append(arg[i:j + 1])
            i = j + 1
            continue
        m = call.match(arg, i) if (c.isalpha() or c == "_") and (i == 0 or not (arg[i - 1].isalnum() or arg[i - 1] == "_")) else None
        if m:
            end = closing_paren(arg, m.end() - 1)
            if end < 0:
                break
            out.append("()")
            i = end + 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def has_words(literal):
    body = literal[1:-1]
    body = re.sub(r"%(\d+|n|L\d+)", " ", body)
    body = re.sub(r"<[^>]*>", " ", body)
    body = re.sub(r"&[a-z]+;", " ", body)
    body = re.sub(r"\\[nrt]", " ", body)
    return re.search(r"[A-Za-z]{2,}", body) is not None


def literals_with_words(arg):
    return [m.group(1) for m in re.finditer(r"u?8?(\"(?:[^\"\\]|\\.)*\")", blank_nested_calls(arg))
            if has_words(m.group(1))]


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


def scan_file(rel, raw):
    problems = []
    text = strip_comments(raw)
    raw_lines = raw.split("\n")

    def report(pos, what):
        line = line_of(text, pos)
        if "// notr" not in raw_lines[line - 1]:
            problems.append(f"{rel}:{line}: {what}")

    names = sorted(SINKS, key=len, reverse=True)
    sink_re = re.compile(r"(?<![A-Za-z0-9_:.])(?:new\s+)?(" + "|".join(re.escape(s) for s in names) + r")\s*(?:[A-Za-z_][A-Za-z0-9_]*\s*)?\(")
    for m in sink_re.finditer(text):
        name = m.group(1)
        # `->setText(` and `.setText(` are fine; `console.err(` is matched with its object.
        before = text[max(0, m.start() - 2):m.start()]
        if "." in name and before.endswith((".", ">")):
            continue
        open_paren = m.end() - 1
        end = closing_paren(text, open_paren)
        if end < 0:
            continue
        args = split_args(text[open_paren + 1:end])
        wanted = SINKS[name]
        for index, arg in enumerate(args):
            if wanted is not None and index not in wanted:
                continue
            for lit in literals_with_words(arg):
                report(m.start() + text[m.start():end].find(lit) if lit in text[m.start():end] else m.start(),
                       f"{name}() shows {lit} without tr()")

    for m in re.finditer(r"[.>]\s*(" + "|".join(FIELDS) + r")\s*(\+?=)(?!=)\s*", text):
        value = text[m.end():statement_end(text, m.end())]
        for lit in literals_with_words(value):
            report(m.start(), f"{m.group(1)} {m.group(2)} {lit} without tr()")

    reported_lines = {p.split(":")[1] for p in problems}
    for m in re.finditer(WRAPPERS + r"\s*\(\s*((?:(?:u8?)?\"(?:[^\"\\]|\\.)*\"\s*)+)\)", text):
        body = " ".join(re.findall(r"\"((?:[^\"\\]|\\.)*)\"", m.group(1)))
        body = re.sub(r"<[^>]*>|&[a-z]+;|%(\d+|n)|\\[nrt]", " ", body)
        if "{" not in body and re.search(r"(?<![\w-])[A-Za-z]{2,}[,:;]? [A-Za-z]{2,}(?![\w-])", body) and str(line_of(text, m.start())) not in reported_lines:
            before = text[max(0, m.start() - 200):m.start()]
            if not re.search(r"\b(tr|translate)\s*\([^;]*$", before):
                report(m.start(), f"text {m.group(1).strip()[:70]} is not in tr()")

    for m in re.finditer(r"(==|!=)\s*1\s*\?", text):
        rest = text[m.end():statement_end(text, m.end())]
        if re.search(r"\b(tr|translate)\s*\(", rest):
            report(m.start(), "hand-made plural (count == 1 ? tr(...) : tr(...)); use tr(\"%n ...\", nullptr, n)")
    for m in re.finditer(r"\b(tr|translate)\s*\(", text):
        end = closing_paren(text, m.end() - 1)
        call = text[m.end():end if end > 0 else len(text)]
        for lit in re.findall(r"\"(?:[^\"\\]|\\.)*\"", call):
            if re.search(r"(?<!http)\((e?s)\)", lit) and "%n" not in lit:
                report(m.start(), f"plural written as {lit} without %n")
    return problems


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    problems = []
    count = 0
    for top in ("ui", "app"):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for name in sorted(files):
                if not name.endswith((".cpp", ".h")):
                    continue
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, root)
                if rel in ALLOWED:
                    continue
                count += 1
                with open(path, encoding="utf-8") as f:
                    problems += [p for p in scan_file(rel, f.read())
                                 if not any(p.startswith(k_file + ":") and k_words in p for k_file, k_words in KNOWN)]
    for p in problems:
        print(p)
    if problems:
        print(f"check_tr: {len(problems)} user-visible string(s) bypass tr() in {count} files "
              "(wrap them in tr(), or mark a non-UI literal with `// notr`)", file=sys.stderr)
        return 1
    print(f"check_tr: {count} files, every user-visible string goes through tr()")
    return 0


if __name__ == "__main__":
    sys.exit(main())
