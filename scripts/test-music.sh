#!/usr/bin/env bash
# Fetches real, freely licensed music for the library tests: Debian's singularity-music (16 tagged
# OGG tracks, CC BY-SA 3.0), unpacked without installing it. Idempotent; prints the folder.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
dest="$top/.cache/test-music/singularity"
if ! ls "$dest"/*.ogg >/dev/null 2>&1; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  cd "$work"
  if ! apt-get download singularity-music >/dev/null 2>&1; then
    sudo_cmd=""
    [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq >/dev/null
    apt-get download singularity-music >/dev/null
  fi
  dpkg-deb -x singularity-music_*.deb unpacked
  mkdir -p "$dest"
  cp -r unpacked/usr/share/games/singularity/music/. "$dest/"
  cp unpacked/usr/share/doc/singularity-music/copyright "$dest/COPYRIGHT" 2>/dev/null || true
fi
echo "$dest"
