#!/usr/bin/env bash
# Start a local Redis server (if none answers) for the suite: redis://127.0.0.1:${REDIS_PORT:-6379}/0
set -euo pipefail
port="${REDIS_PORT:-6379}"
if redis-cli -p "$port" ping 2>/dev/null | grep -q PONG; then
  echo "Redis already answering on 127.0.0.1:$port"
  exit 0
fi
redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --daemonize yes
for _ in $(seq 50); do
  redis-cli -p "$port" ping 2>/dev/null | grep -q PONG && { echo "Redis ready on 127.0.0.1:$port"; exit 0; }
  sleep 0.1
done
echo "Redis did not start on 127.0.0.1:$port" >&2
exit 1
