# shellcheck shell=bash disable=SC2154  # $script_name is the sourcing script's
# Sourced by bench/run and bench/postgres: install_tools. Function definitions only.
# Expects $script_name (bench/run or bench/postgres, the prefix of its message).

# install_tools [PACKAGE...]: installs the Debian packages given (none: does nothing); as root
# only, else it fails naming them. A package's install would start its service (nginx on port
# 80, PostgreSQL's cluster on 5432); a policy-rc.d of our own, when there is none, keeps it
# stopped.
install_tools() {
  [ $# -gt 0 ] || return 0
  [ "$(id -u)" -eq 0 ] || { echo "$script_name: install $* first" >&2; exit 1; }
  local policy=/usr/sbin/policy-rc.d own_policy=0
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && own_policy=1
  fi
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
  [ "$own_policy" = 0 ] || rm -f "$policy"
}
