#!/usr/bin/env bash
# The hall's load test (issue 22; docs/performance.md, "The hall: multiboard, live games and
# tablets"): 1,000 spectators (600 on the round's multiboard, 300 following one game's page,
# 100 on the standings) while 30 tablets enter turns, against the production configuration:
# granian (DJANGO_DEBUG=0), PostgreSQL, Redis, a Celery worker (niced). The tournament: a
# Swiss of 60 with 4 rounds played and round 5 at the tablets, every clock running (seed_demo
# --hall). Two runs: from cold (Redis emptied, the server just started), then the same load going
# on (the steady state: the figure). Results in loadtest/results/hall-*. Traffic only to
# 127.0.0.1.
#
# Its own database and Redis db, so that it disturbs nobody: LOAD_DB (nardy_load_hall),
# LOAD_REDIS_DB (10); LOAD_VENV: the virtualenv (.venv); LOAD_SPECTATORS (1000);
# LOAD_REUSE_DB=1 starts from the database as first seeded; LOAD_WEB_WORKERS / _THREADS (4 x 4);
# LOAD_HOGS=N: a slow spell made on purpose, N processes spinning at the server's priority for
# the whole run (each takes up to a core's share: 2 on this machine's 2 cores is about half).
#
# The players' own pool, as deployed (deploy/nginx.conf, deploy/systemd/nardy-hall.service;
# docs/performance.md, "The hall"): the tablets' requests go to a second server (port
# LOAD_PORT + 1; HALL_WORKERS x HALL_THREADS, 2 x 4) at a higher priority than the spectators'
# (nice -5; not root: the spectators' pool at nice 5 instead). LOAD_HALL_POOL=0: one pool for
# everything, as before.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${LOAD_PORT:-8812}
DB=${LOAD_DB:-nardy_load_hall}
REDIS_DB=${LOAD_REDIS_DB:-10}
BIN=${LOAD_VENV:-.venv}/bin
SPECTATORS=${LOAD_SPECTATORS:-1000}
TABLETS=30
SECONDS_COLD=${LOAD_SECONDS_COLD:-60}
SECONDS_STEADY=${LOAD_SECONDS_STEADY:-90}
WORK=$(mktemp -d)
mkdir -p loadtest/results "$WORK/mail"
export DATABASE_URL="postgres://postgres@127.0.0.1:5432/$DB"
export REDIS_URL="redis://127.0.0.1:6379/$REDIS_DB"
export EMAIL_URL="file://$WORK/mail"
export DJANGO_DEBUG=0 DJANGO_SECRET_KEY="load-test-$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')"
export DJANGO_ALLOWED_HOSTS=127.0.0.1 DJANGO_SECURE_SSL_REDIRECT=0 DJANGO_SECURE_COOKIES=0
# Threads: the requests are short and mostly wait on the cache and the database (docs/
# performance.md, "Live games"); 4 single-threaded workers queued the polls behind one another.
WEB_WORKERS=${LOAD_WEB_WORKERS:-4} WEB_THREADS=${LOAD_WEB_THREADS:-4}
export LOAD_SCENARIO=hall LOAD_HALL_SLUG=hall LOAD_HALL_ROUND=5 LOAD_SPECTATORS="$SPECTATORS"

# The load generator: Node.js (loadtest/hall_load.mjs, no package needed) where node is
# installed, else Locust (loadtest/locustfile.py, the same users): LOAD_GENERATOR=locust to
# choose Locust. Locust's 1,030 users took a large share of the two cores the server needs.
GENERATOR=${LOAD_GENERATOR:-$(command -v node >/dev/null 2>&1 && echo node || echo locust)}
if [ "$GENERATOR" = locust ]; then
  "$BIN/python" -c "import locust" 2>/dev/null || "$BIN/python" -m pip install --quiet "locust>=2.20,<3"
fi
PSQL=(psql -h 127.0.0.1 -U postgres -d postgres -q)
if [ "${LOAD_REUSE_DB:-0}" != 1 ]; then
  "${PSQL[@]}" -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB"
  "$BIN/python" manage.py migrate --noinput -v 0
  "$BIN/python" manage.py seed_demo --allow-production \
    | sed -n 's|.*organiser login organiser / ||p' > loadtest/results/hall-organiser-password
  echo "== a Swiss of 60, 4 rounds played, round 5 at the tablets"
  "$BIN/python" manage.py seed_demo --allow-production --players 60 --rounds 4 --slug hall --hall
  "${PSQL[@]}" -c "DROP DATABASE IF EXISTS ${DB}_seed" -c "CREATE DATABASE ${DB}_seed TEMPLATE $DB"
else
  "${PSQL[@]}" -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB TEMPLATE ${DB}_seed"
  "$BIN/python" manage.py migrate --noinput -v 0
fi
# The clocks were started when the round was seeded: they start now, or every flag has fallen.
psql -h 127.0.0.1 -U postgres -d "$DB" -q -c \
  "UPDATE games_game SET clock_running_since = now() WHERE clock_running_since IS NOT NULL"
LOAD_PASSWORD=$(cat loadtest/results/hall-organiser-password)
export LOAD_PASSWORD
"$BIN/python" manage.py collectstatic --noinput -v 0
redis-cli -n "$REDIS_DB" flushdb > /dev/null

HALL_POOL=${LOAD_HALL_POOL:-1}
[ "$GENERATOR" = node ] || HALL_POOL=0  # the Locust scenario sends everything to one host
HALL_PORT=$((PORT + 1))
SPECTATORS_NICE=0 HALL_NICE=0
if [ "$HALL_POOL" = 1 ]; then
  if [ "$(id -u)" = 0 ]; then HALL_NICE=-5; else SPECTATORS_NICE=5; fi
fi
serve() {  # port workers threads: the production server (granian, as deploy/systemd runs it)
  exec "$BIN/granian" --interface wsgi --host 127.0.0.1 --port "$1" --workers "$2" --blocking-threads "$3" \
    --no-access-log championship.wsgi:application
}
nice -n "$SPECTATORS_NICE" bash -c "$(declare -f serve); BIN=$BIN serve $PORT $WEB_WORKERS $WEB_THREADS" \
  > loadtest/results/hall-server.log 2>&1 &
WEB=$!
HALL=
if [ "$HALL_POOL" = 1 ]; then
  nice -n "$HALL_NICE" bash -c "$(declare -f serve); BIN=$BIN serve $HALL_PORT ${HALL_WORKERS:-2} ${HALL_THREADS:-4}" \
    > loadtest/results/hall-server-players.log 2>&1 &
  HALL=$!
fi
nice -n 10 "$BIN/celery" -A championship worker --loglevel=WARNING --concurrency=1 > loadtest/results/hall-worker.log 2>&1 &
WORKER=$!
HOGS=
for _ in $(seq 1 "${LOAD_HOGS:-0}"); do
  "$BIN/python" -c "while True: pass" &
  HOGS="$HOGS $!"
done
[ -z "$HOGS" ] || echo "== a slow spell on purpose: ${LOAD_HOGS} spinning processes"
trap 'kill $WEB $HALL $WORKER $HOGS 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$WORK"' EXIT
up() {  # port: wait until the server answers there
  for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$1/healthz" > /dev/null && break; sleep 0.2; done
}
up "$PORT"
HALL_HOST="http://127.0.0.1:$PORT"
if [ "$HALL_POOL" = 1 ]; then
  up "$HALL_PORT"
  HALL_HOST="http://127.0.0.1:$HALL_PORT"
  echo "== the players' pool on $HALL_HOST (nice $HALL_NICE), the spectators' (nice $SPECTATORS_NICE)"
fi

# Five of the 30 tablets are timed by a process of their own (loadtest/probe.py --tablet), as
# one spectator is: the generator's figures include its event loop's waits. The generator's 25
# others leave their links (the last five boards' games) to it. LOAD_PROBED_TABLETS: how many.
PROBED_TABLETS=${LOAD_PROBED_TABLETS:-5}
PROBED=$("$BIN/python" manage.py shell -c "
from games import tablet
from games.models import Game
games = Game.objects.filter(board__round__tournament__slug='hall', board__round__number=5)
print(','.join(tablet.path_for(g.pk) for g in games.order_by('-board__number')[:$PROBED_TABLETS]))
" 2>/dev/null | tail -1)

run() {  # name seconds
  if [ "$GENERATOR" = node ]; then
    node loadtest/hall_load.mjs --host "http://127.0.0.1:$PORT" --hall-host "$HALL_HOST" --seconds "${2%s}" \
      --spectators "$SPECTATORS" --tablets "$((TABLETS - PROBED_TABLETS))" --probed-tablet "$PROBED" --slug hall --round 5 \
      --password "$LOAD_PASSWORD" --out "loadtest/results/$1" > "loadtest/results/$1.log" 2>&1 || true
    cat "loadtest/results/$1.log"
    return
  fi
  "$BIN/locust" -f loadtest/locustfile.py --headless -u $((SPECTATORS + TABLETS)) -r 100 -t "$2" \
    --host "http://127.0.0.1:$PORT" --csv "loadtest/results/$1" --only-summary \
    Tablet MultiboardWatcher GameWatcher StandingsWatcher > "loadtest/results/$1.log" 2>&1 || true
  grep -iE "cpu|warning" "loadtest/results/$1.log" | head -5 || true
  tail -30 "loadtest/results/$1.log"
}
cpu() {  # CPU seconds so far of the processes alive now, by kind (the web server, postgres, redis,
  # celery, the generator, the probes): /proc's clock ticks, not ps's whole seconds
  cat /proc/[0-9]*/stat 2>/dev/null | awk -v hz="$(getconf CLK_TCK)" '{
    match($0, /\(.*\)/); k = substr($0, RSTART + 1, RLENGTH - 2); rest = substr($0, RSTART + RLENGTH + 1)
    split(rest, f, " "); if (k ~ /^(granian|postgres|redis-server|celery|node|python.*)$/) t[k] += (f[12] + f[13]) / hz
  } END {for (k in t) if (t[k] >= 0.5) printf "%s %.1f s  ", k, t[k]; print ""}'
}
# The machine's speed moves more than most changes do (docs/performance.md, "The hall"): the
# yardstick of docs/testing.md, read before the load and after it, says how fast it ran.
# The hypervisor's share: CPU time the machine's virtual cores were ready to run but not given
# (/proc/stat's steal, in seconds over both cores), which no process's own figures show.
steal() { awk -v hz="$(getconf CLK_TCK)" '/^cpu /{printf "%.1f", $9 / hz}' /proc/stat; }
yardstick() { "$BIN/python" -m timeit "sum(i*i for i in range(1_000_000))" | sed 's/^/== yardstick: /'; }
yardstick
echo "== CPU so far: $(cpu)"
echo "== load: $(uptime)"
echo "== hall from cold: $SPECTATORS spectators + $TABLETS tablets, ${SECONDS_COLD} s"; run hall-cold "${SECONDS_COLD}s"
echo "== load: $(uptime)"
echo "== CPU so far: $(cpu)"
echo "== hall, steady: $SPECTATORS spectators + $TABLETS tablets, ${SECONDS_STEADY} s"
# A spectator timed by a process of its own (loadtest/probe.py), once the users are all there
# (they come at 100 a second).
( sleep 15; "$BIN/python" loadtest/probe.py --host "http://127.0.0.1:$PORT" --slug hall --round 5 \
    --seconds $((SECONDS_STEADY - 20)) > loadtest/results/hall-probe.txt 2>&1 ) &
PROBE=$!
: > loadtest/results/hall-probe-tablet.txt
if [ "$GENERATOR" = node ]; then  # (Locust's tablets take every board)
  ( sleep 5; "$BIN/python" loadtest/probe.py --host "$HALL_HOST" --tablet "$PROBED" \
      --seconds $((SECONDS_STEADY - 10)) > loadtest/results/hall-probe-tablet.txt 2>&1 ) &
fi
PROBE_TABLET=$!
STEAL=$(steal)
run hall "${SECONDS_STEADY}s"
echo "== stolen by the hypervisor during the steady run: $(awk -v a="$STEAL" -v b="$(steal)" 'BEGIN {printf "%.1f", b - a}') s of ${SECONDS_STEADY} s x $(nproc) cores"
wait $PROBE $PROBE_TABLET || true
[ -z "$HOGS" ] || kill $HOGS  # (the yardstick and the costs after the load without them)
cat loadtest/results/hall-probe.txt loadtest/results/hall-probe-tablet.txt
echo "== CPU so far: $(cpu)"
echo "== load: $(uptime)"
yardstick
echo "== CPU per request (in-process, the same database and cache; after the load)"
"$BIN/python" loadtest/hall_cost.py 300 2>&1 | tee loadtest/results/hall-cost.txt
