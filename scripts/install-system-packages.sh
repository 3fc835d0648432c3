#!/usr/bin/env bash
# Install the Debian packages the app needs, if any are missing.
#   (no argument)  to run the app: Pango for WeasyPrint's PDFs, HarfBuzz's subsetter (several
#                  times faster PDFs), a font, venv
#   test           also Chromium for the browser tests, poppler-utils (PDF to PNG) and a Redis
#                  server (the test of the RQ worker starts one of its own)
#   postgres       also a PostgreSQL server (CI runs the suite against it too)
#   redis          also a Redis server (CI runs the suite against it with PostgreSQL)
#   bench          also wrk, the load generator of make bench
set -euo pipefail
# The Chromium the browser tests were last run with. Debian keeps only its newest security build: where that has
# moved on, the newest is installed and the difference printed (update this line once the suite passes with it).
CHROMIUM_VERSION="156.0.8078.114-1~deb12u1"
packages=(libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-dejavu-core python3-venv)
for extra in "$@"; do
  case "$extra" in
    test) packages+=(chromium poppler-utils redis-server) ;;
    postgres) packages+=(postgresql) ;;
    redis) packages+=(redis-server) ;;
    bench) packages+=(wrk) ;;
    *) echo "unknown package set: $extra" >&2; exit 2 ;;
  esac
done
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "Installing system packages: ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
for i in "${!missing[@]}"; do
  if [ "${missing[$i]}" = chromium ]; then
    if apt-cache madison chromium | grep -qF " $CHROMIUM_VERSION "; then
      missing[$i]="chromium=$CHROMIUM_VERSION chromium-common=$CHROMIUM_VERSION"
    else
      echo "Chromium $CHROMIUM_VERSION is no longer served; installing $(apt-cache policy chromium | awk '/Candidate/ {print $2}')" >&2
    fi
  fi
done
# shellcheck disable=SC2068 - a pinned package is two words
$sudo apt-get install -y -qq --no-install-recommends ${missing[@]}
