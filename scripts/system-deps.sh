#!/usr/bin/env bash
# Installs the system packages the test suite needs when they are missing (CI starts from a fresh
# machine). Nothing is needed yet beyond Python; browser and Redis arrive with the issues that use them.
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
