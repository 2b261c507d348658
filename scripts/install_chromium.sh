#!/usr/bin/env bash
# Installs Debian's headless Chromium (the `chromium` package, /usr/bin/chromium) for the replay
# page's browser tests and scripts/screenshot.py, and its driver (`chromium-driver`,
# /usr/bin/chromedriver: the paths devtools/browser.py drives) for the web app's Selenium
# tests. Idempotent and quiet: does nothing when both are there. A chromium or chromedriver
# elsewhere on PATH does not count: the tests would not drive it.
set -euo pipefail
CHROMIUM=/usr/bin/chromium
DRIVER=/usr/bin/chromedriver
if [ -x "$CHROMIUM" ] && [ -x "$DRIVER" ]; then
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null
$sudo apt-get install -y -qq chromium chromium-driver >/dev/null
for path in "$CHROMIUM" "$DRIVER"; do
  if [ ! -x "$path" ]; then
    echo "install_chromium.sh: $path missing after installing chromium and chromium-driver" >&2
    exit 1
  fi
done
