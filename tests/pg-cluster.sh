# pg-cluster.sh - sourced by tests/run-tests.sh and tests/bench/run-bench.sh:
# a throwaway PostgreSQL cluster for the length of a run.
#
# pg_virtualenv (postgresql-common) runs a command with a fresh cluster and
# drops the cluster when the command ends: the command here writes the
# connection settings to a file and waits for a file that says stop.
#
#   pg_start [PG_VIRTUALENV_OPTIONS]   sets PG_URL (postgresql://user@host:
#                                      port/postgres) and PG_PASSWORD; or
#                                      returns 1 with pg_skipped (no
#                                      PostgreSQL binaries) or pg_broken set
#   pg_stop                            ends it (by its process id) and waits
#                                      for the drop
# pg_log names the file pg_virtualenv's output goes to.
pg_log=${pg_log:-/dev/null}
pg_dir="" pg_pid="" PG_URL="" PG_PASSWORD="" pg_skipped="" pg_broken=""
pg_start() {
    if ! command -v pg_virtualenv >/dev/null 2>&1 ||
       ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
        pg_skipped="the PostgreSQL binaries are not installed (Debian's postgresql and postgresql-common)"
        return 1
    fi
    pg_dir=$(mktemp -d /tmp/rogued-pg-XXXXXX)
    # As root, pg_virtualenv would make its cluster in /etc/postgresql, one
    # per machine: as an ordinary user it lives in a directory of its own,
    # so that runs side by side (other worktrees, CI) do not collide.
    local as=()
    if [ "$(id -u)" -eq 0 ]; then
        as=(runuser -u nobody --)
        chmod 777 "$pg_dir"
    fi
    "${as[@]}" pg_virtualenv "$@" sh -c '
        d=$1
        port=$(psql -Atc "show port") || exit 1
        { echo "$PGUSER"; echo "$PGHOST"; echo "$port"; echo "$PGPASSWORD"; } >"$d/env.tmp"
        mv "$d/env.tmp" "$d/env"
        while [ ! -e "$d/stop" ]; do sleep 0.2; done' sh "$pg_dir" \
        >"$pg_log" 2>&1 &
    pg_pid=$!
    local deadline=$((SECONDS + 120))
    while [ ! -e "$pg_dir/env" ]; do
        if ! kill -0 "$pg_pid" 2>/dev/null || [ $SECONDS -gt $deadline ]; then
            pg_broken="the throwaway cluster did not start (see $pg_log)"
            pg_stop
            return 1
        fi
        sleep 0.2
    done
    local user host port
    { read -r user; read -r host; read -r port; read -r PG_PASSWORD; } <"$pg_dir/env"
    PG_URL="postgresql://$user@$host:$port/postgres"
    echo "pg: a throwaway cluster at $PG_URL (pg_virtualenv, pid $pg_pid)"
}
pg_stop() {
    [ -n "$pg_pid" ] || return 0
    touch "$pg_dir/stop"
    # (if it hangs, it is ended by its id)
    local deadline=$((SECONDS + 60))
    while kill -0 "$pg_pid" 2>/dev/null && [ $SECONDS -le $deadline ]; do sleep 0.2; done
    kill "$pg_pid" 2>/dev/null
    wait "$pg_pid" 2>/dev/null
    rm -rf "$pg_dir"
    pg_pid=""
}
