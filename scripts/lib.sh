# Shared helpers for the project's scripts. Source it; it defines functions only.

# The release build every script shares (same flags, so one build serves them all). Without debug
# information: the code is the same, the first build 20 % faster for C files (docs/benchmarks.md);
# crash backtraces name functions, not lines.
release_build() {
  swift build -c release -debug-info-format none "$@"
}

# Installs Debian packages that are missing (skips apt-get update when nothing is missing).
ensure_apt() {
  local missing=()
  for pkg in "$@"; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ] && ! command -v sudo >/dev/null; then
    echo "missing packages: ${missing[*]} (install them as root)" >&2
    return 1
  fi
  local SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  echo "==> installing ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# A free TCP port on loopback.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
}

# Starts a throwaway PostgreSQL cluster on loopback and exports PG_URL; stop it with stop_postgres.
start_postgres() {
  ensure_apt postgresql
  local bin
  bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
  PG_DIR=$(mktemp -d /tmp/flashcards-pg.XXXXXX)
  PG_PORT=$(free_port)
  chown postgres "$PG_DIR" 2>/dev/null || true
  local run=()
  [ "$(id -u)" -eq 0 ] && run=(runuser -u postgres --)
  "${run[@]}" "$bin/initdb" -D "$PG_DIR/data" -U postgres --auth=trust -E UTF8 --locale=C.UTF-8 >"$PG_DIR/initdb.log" 2>&1
  "${run[@]}" "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $PG_DIR -c fsync=off -c max_connections=400" start >/dev/null
  PG_BIN=$bin
  psql -h 127.0.0.1 -p "$PG_PORT" -U postgres -qc "CREATE DATABASE flashcards" >/dev/null
  export PG_URL="postgres://postgres@127.0.0.1:$PG_PORT/flashcards"
  echo "==> PostgreSQL on 127.0.0.1:$PG_PORT"
}

stop_postgres() {
  [ -n "${PG_DIR:-}" ] || return 0
  local run=()
  [ "$(id -u)" -eq 0 ] && run=(runuser -u postgres --)
  "${run[@]}" "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast stop >/dev/null 2>&1 || true
  rm -rf "$PG_DIR"
  PG_DIR=""
}
