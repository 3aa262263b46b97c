#!/usr/bin/env bash
# retry.sh - run a command with exponential backoff.
set -euo pipefail

source "$(dirname "$0")/lib/log.sh"
. ./config.sh

# Default number of attempts before giving up.
readonly MAX_ATTEMPTS=5
BASE_DELAY_SECONDS=1

# Computes the delay in seconds before the given attempt (0-based).
backoff() {
  local base=$1 attempt=$2
  echo $(( base * (1 << attempt) ))
}

# Logs a failed attempt to stderr.
function log_failure {
  local attempt=$1
  log_warn "attempt $((attempt + 1)) failed: $*"
}

# Runs the given command until it succeeds or the attempts are exhausted.
retry_run() {
  local attempt=0
  while (( attempt < MAX_ATTEMPTS )); do
    if "$@"; then
      return 0
    fi
    log_failure "$attempt" "$@"
    sleep "$(backoff "$BASE_DELAY_SECONDS" "$attempt")"
    attempt=$((attempt + 1))
  done
  echo "gave up after $MAX_ATTEMPTS attempts" >&2
  return 1
}

main() {
  if [[ $# -eq 0 ]]; then
    echo "usage: $0 command [args...]" >&2
    exit 2
  fi
  retry_run "$@"
}

main "$@"
