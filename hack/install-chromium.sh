#!/usr/bin/env bash
# Installs Debian's chromium, which the console plugin's browser tests drive
# with playwright-core (make test-console-e2e), unless it is already there.
# No browser is downloaded from anywhere else: playwright-core is installed
# without its install scripts and launches this one (console-plugin/e2e/browse.js).
set -euo pipefail

if command -v chromium >/dev/null; then
	exit 0
fi
if ! command -v apt-get >/dev/null; then
	echo "chromium is not installed, and this is no Debian: install chromium, or set CHROMIUM to a Chromium or Chrome binary" >&2
	exit 1
fi
sudo=""
if [[ $(id -u) -ne 0 ]]; then
	sudo=sudo
fi
echo "installing Debian's chromium for the console plugin's browser tests..." >&2
${sudo} apt-get update -qq
DEBIAN_FRONTEND=noninteractive ${sudo} apt-get install -y -qq --no-install-recommends chromium >/dev/null
chromium --version >&2
