#!/usr/bin/env bash
# Installs Debian's headless Chromium (the `chromium` package) for the replay page's browser
# tests and scripts/screenshot.py, and its driver (`chromium-driver`) for the web app's
# Selenium tests. Idempotent and quiet: does nothing when both are present.
set -euo pipefail
if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq >/dev/null
$sudo apt-get install -y -qq chromium chromium-driver >/dev/null
command -v chromium >/dev/null
command -v chromedriver >/dev/null
