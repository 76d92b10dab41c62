#!/usr/bin/env bash
# Measures a rolling restart of a three-server cluster under load (README, "Running it"): needs
# PostgreSQL and NATS on this machine, the baccarat binary at $B (default /tmp/baccarat), psql and
# curl; writes its logs and the load tool's figures (load.json) in the current directory.
set -u
B=${B:-/tmp/baccarat}
N=$RANDOM
psql -h 127.0.0.1 -U postgres -d test -qc "DROP DATABASE IF EXISTS rolling" >/dev/null 2>&1
psql -h 127.0.0.1 -U postgres -d test -qc "CREATE DATABASE rolling" >/dev/null
DB="postgres://postgres@127.0.0.1:5432/rolling?sslmode=disable&pool_max_conns=8"
S=$(head -c 32 /dev/urandom | xxd -p -c 64)
echo '{"tables":[],"demo_credit":0,"streams":{"per_token":8,"per_address":16000,"total":20000}}' > c.json
start() { # $1 = index
  $B serve --db "$DB" --nats nats://127.0.0.1:4222 --nats-prefix roll$N --secret $S --addr 127.0.0.1:818$1 --no-tournaments \
    --config c.json --rate-address 100000 --rate-token 100000 > out$1.log 2> err$1.log &
  echo $! > pid$1
}
ready() { until [ "$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:818$1/readyz)" = 200 ]; do sleep 0.05; done; }
for i in 1 2 3; do start $i; done
for i in 1 2 3; do ready $i; done
T=$(grep -o 'Admin token: *[^ ]*' out1.log | awk '{print $3}')
$B loadtest --servers http://127.0.0.1:8181,http://127.0.0.1:8182,http://127.0.0.1:8183 --admin-token $T --players 300 --rounds 14 --betting 6s --json > load.json 2> load.err &
LP=$!
# monitor: every 100 ms ask each server in turn for the table; log status
( while kill -0 $LP 2>/dev/null; do
    for i in 1 2 3; do
      c=$(curl -s -m 1 -o /tmp/roll/snap.json -w '%{http_code}' http://127.0.0.1:818$i/api/tables/load)
      ph=$(grep -o '"phase":"[a-z]*"' /tmp/roll/snap.json 2>/dev/null | head -1)
      echo "$(date +%s.%N) $i $c $ph"
      sleep 0.033
    done
  done ) > monitor.log &
sleep 12
for i in 1 2 3; do
  t0=$(date +%s.%N); kill -TERM $(cat pid$i); while kill -0 $(cat pid$i) 2>/dev/null; do sleep 0.02; done
  t1=$(date +%s.%N); start $i; ready $i; t2=$(date +%s.%N)
  echo "server $i: stopped in $(echo "$t1-$t0"|bc) s, ready again after $(echo "$t2-$t1"|bc) s" >> roll.log
  sleep 6
done
wait $LP
echo "loadtest exit $?" >> roll.log
for i in 1 2 3; do kill -TERM $(cat pid$i) 2>/dev/null; done
sleep 2
$B verify --db "$DB" > verify.log 2>&1; echo "verify exit $?" >> roll.log
