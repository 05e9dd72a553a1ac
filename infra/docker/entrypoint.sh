#!/bin/sh
# Runs the one service this image was built for (its folder is in /app/service-dir). exec replaces
# the shell, so node receives `docker stop`'s SIGTERM itself and shuts down in order.
set -eu
dir="$(cat /app/service-dir)"
exec node --enable-source-maps "/app/${dir}/dist/main.js" "$@"
