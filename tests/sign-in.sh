#!/bin/sh
# A sign-in command as an agent's "terminal" method runs it: the fake agent
# runs this for "fake-agent SCENARIO --login sign-in.sh MODE" (see
# scenarios/auth-terminal.json). On success it creates the file named by
# $FAKE_SIGNED_IN, which the scenario's session/new looks for.
#
#   sign-in.sh ok          greets ($FAKE_LOGIN_GREETING), signs in, exits 0
#   sign-in.sh fail-once   exits 1 the first time ($FAKE_SIGNED_IN.tried
#                          remembers it), then does as ok
#   sign-in.sh wait        starts a helper that ignores SIGTERM (its pid in
#                          $FAKE_LOGIN_HELPER_PID_FILE), asks for a code and
#                          waits for it
set -eu

echo "${FAKE_LOGIN_GREETING:-Fake service sign-in}"
case "${1:-}" in
  ok) ;;
  fail-once)
    if [ ! -e "$FAKE_SIGNED_IN.tried" ]; then
      : > "$FAKE_SIGNED_IN.tried"
      echo "The fake service did not answer."
      exit 1
    fi
    ;;
  wait)
    (trap '' TERM; exec sleep 3600) &
    echo $! > "$FAKE_LOGIN_HELPER_PID_FILE"
    printf 'Paste the code from your browser: '
    read -r code
    [ -n "$code" ] || exit 1
    ;;
  *)
    echo "usage: $0 ok|fail-once|wait" >&2
    exit 2
    ;;
esac

: > "$FAKE_SIGNED_IN"
echo "Signed in."
