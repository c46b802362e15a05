#!/usr/bin/env bash
# freeze.sh freezes the command set issue 23's share is measured on
# (share.sh): the shell commands the AI agents working on this project
# typed during one session of it, and the examples of issue 23's own table.
#
# How they were collected: the agents' bash tool writes each command it is
# given to a file (/tmp/bash_tool_*/bashtool-cmd-*), wrapped as
# `builtin eval -- 'COMMAND'`; a collector (the lead's collect.py) watched
# those files and appended each command, unquoted, to
# /work/notes/agent-commands.jsonl, one JSON object a line (t, session,
# cmd). This keeps each command once, in the order of its first use, drops
# the collector's own (the commands that read its file or start it), and
# adds the issue's examples with source "issue23".
#
# Usage: bash testdata/agentcmds/freeze.sh [COLLECTED.jsonl]
set -euo pipefail

IN=${1:-/work/notes/agent-commands.jsonl}
OUT=$(cd "$(dirname "$0")" && pwd)/commands.jsonl

python3 - "$IN" "$OUT" <<'PY'
import json, sys

src, out = sys.argv[1], sys.argv[2]
issue = [
    "rg -n foo 2>/dev/null", "find . -name '*.c' 2>/dev/null",
    "cd build && make", "cd build && ctest --output-on-failure", "cd tests && python3 runtests.py queries",
    "git status && git diff", 'ls -R && grep -r "class Foo" .', "python a.py && python b.py",
    "grep -rn foo --include=*.c .", "pylint src/*.py", "grep -rn --exclude-dir={.git,build} foo .", "ls -la ~",
    'grep -r "args\\[0\\]" astropy/', 'ls -R | grep ":$" | head -n 5',
    "make -j$(nproc)", "ninja -C build -j$(nproc)",
    "egrep -rn foo .", "fgrep -rn foo .", "git ls-tree -r --name-only HEAD", "gcc-12 -c a.c", "clang-14 -c a.c",
    "pycodestyle .", "cppcheck .", "clang-tidy a.c --",
]
seen, rows = set(), []
for line in open(src, encoding="utf-8"):
    try:
        cmd = json.loads(line)["cmd"]
    except (ValueError, KeyError):
        continue
    if "agent-commands.jsonl" in cmd or "collect.py" in cmd or cmd in seen:
        continue
    seen.add(cmd)
    rows.append({"source": "session", "cmd": cmd})
rows += [{"source": "issue23", "cmd": c} for c in issue]
with open(out, "w", encoding="utf-8") as f:
    for r in rows:
        f.write(json.dumps(r, ensure_ascii=False) + "\n")
print(f"{len(rows) - len(issue)} session commands, {len(issue)} of the issue's: {out}")
PY
