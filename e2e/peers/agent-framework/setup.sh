#!/usr/bin/env bash
# The Agent Framework peer's virtual environments, once each
# (exit 0 ready, exit 3 with one line saying why this machine cannot run it):
#   setup.sh           the current release: requirements.txt → .venv
#   setup.sh reported  the release the approval-resume report was filed against:
#                      requirements-reported.txt → .venv-reported
here=$(cd "$(dirname "$0")" && pwd)
case "${1:-current}" in
  current) requirements="$here/requirements.txt" venv="$here/.venv" ;;
  reported) requirements="$here/requirements-reported.txt" venv="$here/.venv-reported" ;;
  *) echo "usage: setup.sh [current|reported]" >&2; exit 2 ;;
esac
exec bash "$here/../install-venv.sh" "Agent Framework" "$requirements" "$venv" agent-framework
