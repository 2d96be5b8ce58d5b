#!/usr/bin/env bash
# Live games (docs/performance.md, "Live games"): 300 spectators poll one game in progress
# while its tablet enters a turn every 2 seconds. granian in production mode (DJANGO_DEBUG=0,
# 4 workers); SQLite in a temporary folder and each worker's local-memory cache, unless
# DATABASE_URL / REDIS_URL are set. Traffic only to 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${LOAD_PORT:-8812}
WORK=$(mktemp -d)
export DATABASE_URL=${DATABASE_URL:-"sqlite:///$WORK/live.sqlite3"}
export DJANGO_DEBUG=0 DJANGO_SECRET_KEY="live-$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')"
export DJANGO_ALLOWED_HOSTS=127.0.0.1 DJANGO_SECURE_SSL_REDIRECT=0 DJANGO_SECURE_COOKIES=0
LOAD_SPECTATORS_TEXT="${LOAD_SPECTATORS:-300} spectators polling one game while its tablet enters turns"
# The production server (granian, deploy/systemd/nardy-web.service): its settings as there.
export GRANIAN_INTERFACE=wsgi GRANIAN_HOST=127.0.0.1 GRANIAN_PORT="$PORT" GRANIAN_WORKERS=${GRANIAN_WORKERS:-4} \
  GRANIAN_BLOCKING_THREADS=${GRANIAN_BLOCKING_THREADS:-4}

.venv/bin/python manage.py migrate --noinput -v 0
.venv/bin/python manage.py collectstatic --noinput -v 0 > /dev/null
# A published round of 20 boards; the tablet's link of board 1's game.
read -r GAME TABLET < <(.venv/bin/python manage.py shell -v 0 -c "
from django.utils import timezone
from championship.models import Entrant, Tournament
from championship.services import round_pair_next, round_publish
from games import services, tablet
Tournament.objects.filter(slug='live').delete()
t = Tournament.objects.create(name='Live', slug='live', starts_on=timezone.localdate(), ends_on=timezone.localdate(), registration_open=False)
for i in range(40):
    Entrant.objects.create(tournament=t, name=f'Player {i + 1}', rating=1500 + i, checked_in=True)
rnd = round_pair_next(tournament=t)
round_publish(round=rnd)
game = services.game_for(rnd.boards.get(number=1), 1)
print(game.pk, tablet.path_for(game.pk))
")

echo "== CPU cost per request (this process, the server's configuration)"
.venv/bin/python loadtest/live_cost.py "$GAME" "$TABLET" "${LOAD_COST_REQUESTS:-500}" 2>&1 | grep -v "warm_public_pages_task"
# A fresh game for the run with spectators.
read -r GAME TABLET < <(.venv/bin/python manage.py shell -v 0 -c "
from championship.models import Board
from games import services, tablet
game = services.game_for(Board.objects.get(round__tournament__slug='live', number=2), 1)
print(game.pk, tablet.path_for(game.pk))
")
echo "== $LOAD_SPECTATORS_TEXT"
# The access log keeps each request's time inside the server (dt_ms, milliseconds): the client's
# own figures include its waits on a loaded machine.
GRANIAN_LOG_ACCESS_ENABLED=true GRANIAN_LOG_ACCESS_FMT='ACCESS %(method)s %(path)s %(status)d %(dt_ms).3f' \
  .venv/bin/granian championship.wsgi:application > "$WORK/access.log" 2>&1 &
WEB=$!
trap 'kill $WEB 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$PORT/healthz" > /dev/null && break; sleep 0.2; done
.venv/bin/python loadtest/live_games.py --url "http://127.0.0.1:$PORT" --game "$GAME" --tablet "$TABLET" \
  --spectators "${LOAD_SPECTATORS:-300}" --turns "${LOAD_TURNS:-30}" --every "${LOAD_EVERY:-2}"
kill $WEB; wait $WEB 2>/dev/null || true
echo "== time inside the server (granian's access log)"
.venv/bin/python - "$WORK/access.log" <<'PY'
import statistics, sys
kinds = {}
for line in open(sys.argv[1]):
    if "ACCESS " not in line:
        continue
    method, url, status, ms = line.split("ACCESS ", 1)[1].split()
    kind = ("tablet's turn" if url.endswith("/action/") else "live.json " + status
            if url.endswith("live.json") else "game page" if url.startswith("/games/") else None)
    if kind:
        kinds.setdefault(kind, []).append(float(ms))
for kind, values in sorted(kinds.items()):
    values.sort()
    p95 = values[int(0.95 * (len(values) - 1))]
    print(f"{kind}: {len(values)} requests, median {statistics.median(values):.1f} ms, p95 {p95:.1f} ms, max {values[-1]:.1f} ms")
PY
