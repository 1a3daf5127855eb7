# The one way the project's scripts make a Python virtual environment: sourced, never run.
#
#   venv_has VENV PACKAGE VERSION        true when VENV has PACKAGE at exactly VERSION
#   venv_install TOOL VENV PIP-ARGS...   makes VENV with $PYTHON (python3) unless it has a python,
#                                        then pip-installs PIP-ARGS into it; failures name TOOL
# Everything pip and venv print goes to standard error: the scripts print only their result.

venv_has() { # VENV PACKAGE VERSION
    # grep reads all of pip's output: with -q it would stop early, and pipefail would count
    # pip's broken pipe as a failure (and reinstall every time).
    [[ -x "$1/bin/python" ]] && "$1/bin/python" -m pip show "$2" 2>/dev/null | grep -x "Version: $3" >/dev/null
}

venv_install() { # TOOL VENV PIP-ARGS...
    local tool="$1" venv="$2"
    shift 2
    local python="${PYTHON:-python3}"
    command -v "$python" >/dev/null || { echo "$tool: $python not found" >&2; return 1; }
    mkdir -p "$(dirname "$venv")"
    if ! "$venv/bin/python" -m pip --version >/dev/null 2>&1; then
        # A venv made without python3-venv has a python but no pip: start again from nothing.
        rm -rf "$venv"
        "$python" -m venv "$venv" >&2 \
            || { rm -rf "$venv"; echo "$tool: $python -m venv failed (scripts/install-deps.sh installs python3-venv)" >&2; return 1; }
    fi
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$@" >&2
}
