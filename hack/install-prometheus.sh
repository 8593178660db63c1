#!/usr/bin/env bash
# Installs Debian's prometheus package, which the integration tests run as a
# real Prometheus whose alerts the operator reads, unless a prometheus binary
# is already on the PATH.
set -euo pipefail

if command -v prometheus >/dev/null; then
	exit 0
fi
if ! command -v apt-get >/dev/null; then
	echo "prometheus is not installed, and this is no Debian: install your distribution's prometheus package" >&2
	exit 1
fi
sudo=""
if [[ $(id -u) -ne 0 ]]; then
	sudo=sudo
fi
echo "installing Debian's prometheus package for the alerts tests..." >&2
${sudo} apt-get update -qq
DEBIAN_FRONTEND=noninteractive ${sudo} apt-get install -y -qq --no-install-recommends prometheus >/dev/null
prometheus --version | head -1 >&2
