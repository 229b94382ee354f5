#!/usr/bin/env bash
# Checks the system programs Kadr needs and installs the missing ones from Debian's packages when it may.
#   scripts/system-check.sh start   ffmpeg and ffprobe (renders, previews, upload checks)
#   scripts/system-check.sh test    also Chromium (browser tests), the DejaVu fonts (their text) and Noto Color
#                                   Emoji (an emoji in a title is drawn, not an empty box)
# Root or passwordless sudo: says what it installs in one line, then apt-get installs it.
# Anyone else: exits 1 with one line naming the command to run. Silent when everything is there.
# Honours FFMPEG_PATH, FFPROBE_PATH and CHROMIUM_PATH like the server and the browser tests do.
set -euo pipefail

mode="${1:-start}"
case "$mode" in
  start | test) ;;
  *)
    echo "usage: scripts/system-check.sh start|test" >&2
    exit 2
    ;;
esac
again="npm $mode"

has() { command -v "$1" >/dev/null 2>&1; }

# An explicitly configured binary that is not there cannot be fixed by installing a package: name the variable.
explicit_missing() {
  local var="$1"
  local path="${!var:-}"
  if [ -n "$path" ] && ! has "$path"; then
    echo "$var=$path is not an executable: fix or unset $var, then run $again again." >&2
    exit 1
  fi
}

missing_packages() {
  local need=()
  explicit_missing FFMPEG_PATH
  explicit_missing FFPROBE_PATH
  if ! has "${FFMPEG_PATH:-ffmpeg}" || ! has "${FFPROBE_PATH:-ffprobe}"; then need+=(ffmpeg); fi
  if [ "$mode" = test ]; then
    explicit_missing CHROMIUM_PATH
    if [ -z "${CHROMIUM_PATH:-}" ] && ! has chromium && ! [ -x /usr/bin/chromium ]; then need+=(chromium); fi
    local fonts=""
    if has fc-list; then fonts="$(fc-list 2>/dev/null || true)"; fi
    case "$fonts" in
      *[Dd]eja[Vv]u*) ;;
      *) need+=(fonts-dejavu-core) ;;
    esac
    case "$fonts" in
      *"Noto Color Emoji"*) ;;
      *) need+=(fonts-noto-color-emoji) ;;
    esac
  fi
  echo "${need[*]:-}"
}

packages="$(missing_packages)"
[ -z "$packages" ] && exit 0

uid="$(id -u 2>/dev/null || echo "$EUID")"
if [ "$uid" = 0 ]; then
  sudo=()
elif has sudo && sudo -n true >/dev/null 2>&1; then
  sudo=(sudo -n)
else
  if has apt-get; then
    echo "Missing Debian packages: $packages. Run: sudo apt-get update && sudo apt-get install -y $packages && $again" >&2
  else
    echo "Missing programs from the packages: $packages. Install them with your system's package manager, then run $again again." >&2
  fi
  exit 1
fi
if ! has apt-get; then
  echo "Missing programs from the packages: $packages, and there is no apt-get here: install them, then run $again again." >&2
  exit 1
fi

echo "Installing Debian packages: $packages (apt-get${sudo:+ via sudo})"
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $packages >/dev/null

still="$(missing_packages)"
if [ -n "$still" ]; then
  echo "Still missing after apt-get install: $still. Run: sudo apt-get install -y $still" >&2
  exit 1
fi
