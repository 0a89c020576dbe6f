#!/usr/bin/env bash
# Installs the Debian packages named as arguments when they are missing (CI starts from a fresh
# machine): `make test` asks for chromium, which the browser tests drive, and redis-server, which
# the Redis store's tests start on a free port, and fonts-wqy-microhei, the CJK font that draws
# Chinese in the pages, the booklet PDF and the mosaic. The real music of the
# library tests is fetched separately, by scripts/test-music.sh.
set -euo pipefail
needed=()
for pkg in "$@"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || needed+=("$pkg")
done
if [ ${#needed[@]} -gt 0 ]; then
  echo "installing system packages: ${needed[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${needed[@]}" >/dev/null
fi
