#!/bin/sh
# An agent started the way some real ones are: through a script that does not
# exec it, and that starts a helper of its own which outlives the script and
# ignores SIGTERM (a launcher's real agent, an agent's stdio MCP server).
#
#   agent-wrapper.sh PROGRAM [ARG…]
#
# The helper's pid goes to the file $LEFTOVER_PID_FILE.
(trap '' TERM; exec sleep 3600) &
echo $! > "$LEFTOVER_PID_FILE"
"$@"
