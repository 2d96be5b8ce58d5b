#!/usr/bin/env bash
# Load test against the production configuration (see docs/performance.md): granian
# (DJANGO_DEBUG=0, 4 workers x 4 threads, as deployed), PostgreSQL, Redis, a Celery worker (niced,
# as in deploy/systemd); the demo tournament with 500 entrants and 9 rounds. The analysis queue
# has no worker here (production runs it niced on its own, docs/deploy.md): the results entered
# queue analyses that wait. Four runs: the mixed load (100 spectators + organisers entering
# results, 60 s) from cold, then the same load going on for 60 s more (the steady state), then the
# saturation throughput of a trivial view and of the standings page (20 s each). Results in
# loadtest/results/. Traffic only to 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${LOAD_PORT:-8811}
DB=nardy_load
WORK=$(mktemp -d)
mkdir -p loadtest/results "$WORK/mail"
export DATABASE_URL="postgres://postgres@127.0.0.1:5432/$DB"
export REDIS_URL="redis://127.0.0.1:6379/14"
export EMAIL_URL="file://$WORK/mail"
export DJANGO_DEBUG=0 DJANGO_SECRET_KEY="load-test-$(head -c 24 /dev/urandom | od -An -tx1 | tr -d ' \n')"
export DJANGO_ALLOWED_HOSTS=127.0.0.1 DJANGO_SECURE_SSL_REDIRECT=0 DJANGO_SECURE_COOKIES=0
export PUBLIC_FORM_RATE=100000/m
# The production server (granian, deploy/systemd/nardy-web.service): its settings as there.
export GRANIAN_INTERFACE=wsgi GRANIAN_HOST=127.0.0.1 GRANIAN_PORT="$PORT" GRANIAN_WORKERS=${GRANIAN_WORKERS:-4} \
  GRANIAN_BLOCKING_THREADS=${GRANIAN_BLOCKING_THREADS:-4}
export LOAD_SLUG=load LOAD_ROUNDS=9

.venv/bin/python -m pip install --quiet -e ".[load]"
PSQL=(psql -h 127.0.0.1 -U postgres -d postgres -q)
if [ "${LOAD_REUSE_DB:-0}" != 1 ]; then
  "${PSQL[@]}" -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB"
else
  # Every run starts from the database as seeded (round 9 still open), not as the previous
  # run's organisers left it.
  "${PSQL[@]}" -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)" -c "CREATE DATABASE $DB TEMPLATE ${DB}_seed"
fi
.venv/bin/python manage.py migrate --noinput -v 0
# Production settings: seed_demo needs --allow-production and gives the organiser a random
# password, printed; kept in loadtest/results/organiser-password for runs that reuse the database.
if [ "${LOAD_REUSE_DB:-0}" != 1 ]; then
  .venv/bin/python manage.py seed_demo --allow-production \
    | sed -n 's|.*organiser login organiser / ||p' > loadtest/results/organiser-password
  echo "== pairing 9 rounds of 500 (takes a minute)"
  .venv/bin/python manage.py seed_demo --allow-production --players 500 --rounds 9 --slug load
  "${PSQL[@]}" -c "DROP DATABASE IF EXISTS ${DB}_seed" -c "CREATE DATABASE ${DB}_seed TEMPLATE $DB"
fi
LOAD_PASSWORD=$(cat loadtest/results/organiser-password)
export LOAD_PASSWORD
.venv/bin/python manage.py collectstatic --noinput -v 0
redis-cli -n 14 flushdb > /dev/null

.venv/bin/granian championship.wsgi:application > loadtest/results/server.log 2>&1 &
WEB=$!
nice -n 10 .venv/bin/celery -A championship worker --loglevel=WARNING --concurrency=1 > loadtest/results/worker.log 2>&1 &
WORKER=$!
trap 'kill $WEB $WORKER 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$WORK"' EXIT
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$PORT/healthz" > /dev/null && break; sleep 0.2; done

run() {  # scenario users seconds
  LOAD_SCENARIO=${1%-cold} .venv/bin/locust -f loadtest/locustfile.py --headless -u "$2" -r 25 -t "$3" \
    --host "http://127.0.0.1:$PORT" --csv "loadtest/results/$1" --only-summary 2>&1 | tail -25 \
    || true  # (locust exits 1 when a request failed: the summary says which; the next run goes on)
}
# First from cold (Redis emptied, fresh workers: every table and page to compute, the
# organisers logging in), then the same load carrying on: the steady state of a running round.
echo "== mixed from cold: 100 spectators + organisers, 60 s"; run mixed-cold 105 60s
echo "== mixed, steady (the load goes on): 100 spectators + organisers, 60 s"; run mixed 105 60s
echo "== trivial view at saturation, 20 s"; run healthz 40 20s
echo "== standings page at saturation, 20 s"; run standings 40 20s
