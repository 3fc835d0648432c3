#!/usr/bin/env bash
# Start the machine's PostgreSQL cluster (if it is not running) and make the armybuilder
# role and database the test suite uses: postgres://armybuilder:armybuilder@127.0.0.1:5432/armybuilder
set -euo pipefail
version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
if ! pg_lsclusters -h 2>/dev/null | grep -q online; then
  pg_lsclusters -h | grep -q "^$version main" || pg_createcluster "$version" main >/dev/null
  pg_ctlcluster "$version" main start
fi
as_postgres() { if [ "$(id -u)" -eq 0 ]; then su postgres -c "$1"; else sudo -u postgres sh -c "$1"; fi; }
as_postgres "psql -qtAc \"SELECT 1 FROM pg_roles WHERE rolname='armybuilder'\"" | grep -q 1 ||
  as_postgres "psql -qc \"CREATE ROLE armybuilder LOGIN PASSWORD 'armybuilder' CREATEDB\""
as_postgres "psql -qtAc \"SELECT 1 FROM pg_database WHERE datname='armybuilder'\"" | grep -q 1 ||
  as_postgres "createdb -O armybuilder armybuilder"
echo "PostgreSQL $version ready on 127.0.0.1:5432"
