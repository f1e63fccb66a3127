#!/usr/bin/env bash
# The pydantic-ai peer's virtual environment: requirements.txt → .venv, once
# (exit 0 ready, exit 3 with one line saying why this machine cannot run it).
here=$(cd "$(dirname "$0")" && pwd)
exec bash "$here/../install-venv.sh" pydantic-ai "$here/requirements.txt" "$here/.venv" pydantic-ai
