#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for errdex's tests, in a folder of your
# choice, run as the `postgres` user (initdb refuses root; the folder's
# parents must let that user through, as /tmp does).
#
#   .ci/postgres.sh start DIR   # prints the URL for ERRDEX_TEST_PG
#   .ci/postgres.sh stop DIR
#
# Connections from 127.0.0.1 are trusted, except for the role `errdex_pw`,
# which must give its password (scram-sha-256): the wrong-password test
# logs in as it. Needs Debian's `postgresql` package (15 or newer).
set -euo pipefail

cmd=${1:?usage: postgres.sh start|stop DIR}
dir=${2:?usage: postgres.sh start|stop DIR}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -n "$bin" ] || { echo "postgres.sh: no /usr/lib/postgresql/*/bin (apt-get install postgresql)" >&2; exit 1; }

as_postgres() {
  if [ "$(id -un)" = postgres ]; then "$@"; else runuser -u postgres -- "$@"; fi
}

case "$cmd" in
start)
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  chown postgres: "$dir" 2>/dev/null || true
  chmod 700 "$dir"
  data="$dir/data"
  as_postgres "$bin/initdb" -D "$data" -A trust -U postgres --no-sync >"$dir/initdb.log"
  cat >"$data/pg_hba.conf" <<'EOF'
local all all                      trust
host  all errdex_pw 127.0.0.1/32   scram-sha-256
host  all all       127.0.0.1/32   trust
EOF
  # A free port: one nobody answers on.
  port=
  for p in $(shuf -i 20000-60000 -n 100); do
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then port=$p; break; fi
  done
  [ -n "$port" ] || { echo "postgres.sh: no free port" >&2; exit 1; }
  as_postgres "$bin/pg_ctl" -D "$data" -w -l "$dir/log" \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null
  as_postgres "$bin/psql" -h "$dir" -p "$port" -U postgres -q -v ON_ERROR_STOP=1 \
    -c "CREATE DATABASE errdex_test" \
    -c "CREATE ROLE errdex_pw LOGIN PASSWORD 'errdex-right-password'" >/dev/null
  echo "$port" >"$dir/port"
  echo "postgres://postgres@127.0.0.1:$port/errdex_test"
  ;;
stop)
  [ -d "$dir/data" ] && as_postgres "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  ;;
*)
  echo "usage: postgres.sh start|stop DIR" >&2
  exit 2
  ;;
esac
