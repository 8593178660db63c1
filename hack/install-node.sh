#!/usr/bin/env bash
# Installs Debian's nodejs and npm packages, which build and test the
# console plugin (console-plugin/), unless node and npm are already on the
# PATH. The plugin needs Node 20 or later.
set -euo pipefail

if command -v node >/dev/null && command -v npm >/dev/null; then
	exit 0
fi
if ! command -v apt-get >/dev/null; then
	echo "node and npm are not installed, and this is no Debian: install Node.js 20 or later" >&2
	exit 1
fi
sudo=""
if [[ $(id -u) -ne 0 ]]; then
	sudo=sudo
fi
echo "installing Debian's nodejs and npm packages for the console plugin..." >&2
${sudo} apt-get update -qq
DEBIAN_FRONTEND=noninteractive ${sudo} apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
node --version >&2
