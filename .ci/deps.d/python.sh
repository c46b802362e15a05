#!/usr/bin/env bash
# Installs what testdata/script/python.txtar drives: Debian's pytest (7.2)
# and mypy (1.0), the versions the corpus was made with, and python3-venv,
# whose ensurepip gives the script's venv its pip; and python3-django (3.2)
# for django.txtar's manage.py test. Nothing comes from PyPI:
# the script installs only local projects, with --no-index.
# skips: testdata/script/python.txtar (pytest, mypy and pip end to end)
set -euo pipefail

missing=()
for p in python3-pytest mypy python3-venv python3-django; do
	dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

. "$(dirname "$0")/../apt.sh"
apt_install "${missing[@]}"
