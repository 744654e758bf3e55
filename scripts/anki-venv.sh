#!/usr/bin/env bash
# Makes the Python virtualenv for the Anki .apkg tooling: e2e/anki_check.py (checks a package
# with the real Anki backend) and scripts/anki-fixtures.py (regenerates the fixtures in
# Tests/FlashcardsServerTests/Fixtures/anki/). Idempotent: a venv that already has the pinned
# versions is left as it is (a second run takes about a second).
#
#   scripts/anki-venv.sh              # venv at $ANKI_VENV (default /tmp/anki-venv)
#   scripts/anki-venv.sh --fixtures   # also Debian's faketime, which anki-fixtures.py needs
#
# The last line printed is the venv's python, so:
#   PY="$(scripts/anki-venv.sh | tail -n 1)"; "$PY" e2e/anki_check.py some.apkg
#
# First run: ~10-20 s (wheels from PyPI, ~60 MB installed; anki ships its Rust backend as a binary wheel,
# manylinux x86_64/aarch64, for Python >= 3.9).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${ANKI_VENV:-/tmp/anki-venv}"
PYTHON="${PYTHON:-python3}"

# Direct requirements (also named at the top of the two Python scripts).
PINS=(anki==26.9.3 genanki==0.13.1 zstandard==0.25.0)
# Everything they pull in, as resolved when the fixtures were made.
CONSTRAINTS="cached-property==2.0.1
certifi==2026.10.19.post1
charset-normalizer==3.5.2
chevron==0.14.0
decorator==5.3.1
distro==1.9.0
frozendict==2.5.1
idna==3.20
Markdown==3.11.3
orjson==3.13.0
protobuf==7.36.2
PySocks==1.7.1
PyYAML==6.0.4
requests==2.34.2
typing_extensions==4.16.0
urllib3==2.8.0"

if [ "${1:-}" = "--fixtures" ]; then
    # shellcheck source=lib.sh
    source "$ROOT/scripts/lib.sh"
    ensure_apt faketime >&2
fi

if [ ! -x "$VENV/bin/python" ]; then
    echo "anki-venv: creating $VENV" >&2
    "$PYTHON" -m venv "$VENV"
fi

have_pins() {
    local frozen
    frozen="$("$VENV/bin/python" -m pip freeze --disable-pip-version-check 2>/dev/null)" || return 1
    for pin in "${PINS[@]}"; do
        grep -qixF "$pin" <<<"$frozen" || return 1
    done
    "$VENV/bin/python" -c 'import anki.collection, genanki, zstandard' 2>/dev/null
}

if ! have_pins; then
    echo "anki-venv: installing ${PINS[*]} into $VENV" >&2
    constraints="$(mktemp)"
    trap 'rm -f "$constraints"' EXIT
    printf '%s\n' "$CONSTRAINTS" >"$constraints"
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -c "$constraints" "${PINS[@]}" >&2
    have_pins || { echo "anki-venv: the venv still lacks ${PINS[*]}" >&2; exit 1; }
fi
echo "$VENV/bin/python"
