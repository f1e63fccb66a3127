#!/usr/bin/env bash
# Shared by every peer's setup.sh: makes a virtual environment with exactly the pinned
# packages, once; later calls return at once while the pins are unchanged.
#   install-venv.sh <peer name> <requirements file> <venv dir> <package named in the version message>
#   exit 0: ready to run (<venv>/bin/python app.py)
#   exit 3: this machine cannot run it (no Python 3.10+, or PyPI unreachable); the one
#           line on stdout says why, and the tests that need the peer skip with it.
set -u
name=$1 requirements=$2 venv=$3 package=$4
stamp="$venv/requirements.installed"
log="$venv.setup.log"

if [ -x "$venv/bin/python" ] && cmp -s "$requirements" "$stamp"; then
  exit 0
fi

unavailable() {
  echo "$name peer unavailable: $1"
  rm -rf "$venv"
  exit 3
}

python=${PYTHON:-python3}
command -v "$python" >/dev/null 2>&1 || unavailable "no $python on PATH"
version=$("$python" -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null) ||
  unavailable "$python does not run"
"$python" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else 1)' 2>/dev/null ||
  unavailable "$package needs Python 3.10 or newer, $python is $version"

echo "Installing the $name peer ($(basename "$requirements")) into $venv (once)..."
rm -rf "$venv"
"$python" -m venv "$venv" >"$log" 2>&1 || unavailable "python3 -m venv failed (see $log)"
"$venv/bin/pip" install --disable-pip-version-check --no-input -r "$requirements" >>"$log" 2>&1 ||
  unavailable "pip could not install $(basename "$requirements") from the package index (see $log)"
cp "$requirements" "$stamp"
