# shellcheck shell=bash disable=SC2154,SC2034  # the variables are bench/run's (below)
# Sourced by bench/run and bench/cores: the servers they measure and what feeds them. Builds the
# --baseline revision (build_baseline); starts petstore (start_petstore), nginx with its config
# (start_nginx) and both under callgrind (start_callgrind_petstore, start_callgrind_nginx); stops
# them (stop); sends requests with node (send_requests); free_port. Function definitions only.
# Expects: $work (the run's directory: keys, logs, nginx's files), $binary (this tree's petstore),
# $lock (the build lock), $baseline_rev, $baseline_commit, $baseline_short, $baseline_src,
# $PETSTORE_BENCH_KEY, and for start_nginx $r1_origin (whose page nginx serves); optionally
# $server_cpus (the CPUs servers run on, default 0), $server_threads (petstore's --threads, default
# 1) and $nginx_workers (default 1), which bench/cores sets. Every process started is added to the
# array $started, which bench/run's cleanup kills; build_baseline sets $baseline_worktree_added,
# which cleanup reads.

# build_baseline: checks $baseline_commit out in a detached worktree at $baseline_src (added, or
# moved there when it is a worktree at another commit), builds its petstore target in Release
# with the release preset's settings (CMakePresets.json: Ninja, Release, no tests, 2 jobs) and
# checks its serve takes the flags start_petstore passes; sets $baseline_binary.
build_baseline() {
  local worktrees help flag
  local build_dir=$PWD/build/baseline/build
  worktrees=$(git worktree list --porcelain)
  if [ -e "$baseline_src/.git" ] && grep -Fqx "worktree $baseline_src" <<<"$worktrees"; then
    if [ -n "$(git -C "$baseline_src" status --porcelain --untracked-files=no)" ]; then
      echo "bench/run: $baseline_src has local changes, so it is not $baseline_rev; remove it" >&2
      exit 1
    fi
    if [ "$(git -C "$baseline_src" rev-parse HEAD)" != "$baseline_commit" ]; then
      git -C "$baseline_src" checkout --quiet --detach "$baseline_commit"
    fi
  else
    mkdir -p "$(dirname "$baseline_src")"
    # --force: also when git still lists a worktree there whose directory is gone.
    git worktree add --quiet --force --detach "$baseline_src" "$baseline_commit"
    baseline_worktree_added=1
  fi
  echo "bench/run: building the baseline, $baseline_rev ($baseline_short), in $build_dir" >&2
  flock "$lock" cmake -S "$baseline_src" -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DPETSTORE_BUILD_TESTS=OFF >/dev/null
  flock "$lock" cmake --build "$build_dir" --target petstore -j 2 >/dev/null
  baseline_binary=$build_dir/petstore
  help=$("$baseline_binary" serve --help 2>&1 || true)
  for flag in --threads --log-level --listen --api-keys --storage; do
    if ! grep -q -- "$flag" <<<"$help"; then
      echo "bench/run: the baseline $baseline_short has no 'serve $flag' (serve came with" \
        "657897c, its --log-level with f6c6cff); choose a later revision" >&2
      exit 1
    fi
  done
}

# start_petstore [--binary FILE] [--log-level L] [--log-pipe] NAME ARGS...: starts petstore (this
# tree's, or FILE) on $server_cpus with $server_threads threads, logging at L (default warn) on a stdout that is a file,
# or with --log-pipe a FIFO read by `cat >/dev/null` on the same CPUs once the first line is kept (sets
# $reader_pid); sets $pid and $origin.
start_petstore() {
  local server=$binary level=warn log_pipe=0
  while :; do
    case "$1" in
      --binary) server=$2; shift 2 ;;
      --log-level) level=$2; shift 2 ;;
      --log-pipe) log_pipe=1; shift ;;
      *) break ;;
    esac
  done
  local name=$1
  shift
  local out=$work/$name.out
  if [ "$log_pipe" = 1 ]; then
    # The reader keeps the line that names the port in $name.out, then discards at pipe speed.
    out=$work/$name.pipe
    mkfifo "$out"
    : >"$work/$name.out"  # polled below before the reader has opened it
    # shellcheck disable=SC2016 # $1 is the inner shell's
    taskset -c "${server_cpus:-0}" sh -c 'sed -n "/listening on/{p;q;}" >"$1"; exec cat >/dev/null' sh \
      "$work/$name.out" <"$out" &
    reader_pid=$!
    started+=("$reader_pid")
  fi
  taskset -c "${server_cpus:-0}" "$server" serve --threads "${server_threads:-1}" \
    --log-level "$level" --listen 127.0.0.1:0 \
    --api-keys "$work/keys" "$@" >"$out" 2>"$work/$name.err" &
  pid=$!
  started+=("$pid")
  for _ in $(seq 100); do
    origin=$(sed -n 's|.*listening on \(http://[^/]*\)/v1.*|\1|p' "$work/$name.out")
    [ -n "$origin" ] && return 0
    sleep 0.1
  done
  echo "$script_name: $name did not start: $(cat "$work/$name.err")" >&2
  exit 1
}

stop() {
  kill "$1"
  wait "$1" 2>/dev/null || true
}

free_port() {
  /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

send_requests() {  # ORIGIN METHOD PATH COUNT CONNECTIONS EXPECTED_STATUS
  node bench/lib/send_requests.mjs "$1" "$PETSTORE_BENCH_KEY" "$2" "$3" "$4" "$5" "$6"
}

# start_nginx NAME ACCESS_LOG: nginx with its files in $work/NAME: one process (no master) on
# $server_cpus, or a master and $nginx_workers workers when that is above 1 (as this user, who can
# read $work), the access_log directive's ACCESS_LOG ("off", or a file and its buffering), the key
# checked in its config, the page petstore serves ($r1_origin's) as a static file, and a canned 201
# for POST; sets $nginx_pid and $nginx_origin. $nginx_listen_options, when set, ends the listen
# directive ("http2": h2c with prior knowledge, for bench/http2).
start_nginx() {
  local dir=$work/$1 access_log=$2 port
  port=$(free_port)
  mkdir -p "$dir/tmp"
  curl -sf -H "Authorization: Bearer $PETSTORE_BENCH_KEY" "$r1_origin/v1/pets?limit=20" \
    >"$dir/page.json"
  cat >"$dir/nginx.conf" <<CONF
daemon off;
master_process $([ "${nginx_workers:-1}" -gt 1 ] && echo on || echo off);
worker_processes ${nginx_workers:-1};
user $(id -un);
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 4096; }
http {
  access_log $access_log;
  keepalive_requests 100000000;
  client_body_temp_path $dir/tmp; proxy_temp_path $dir/tmp; fastcgi_temp_path $dir/tmp;
  uwsgi_temp_path $dir/tmp; scgi_temp_path $dir/tmp;
  server {
    listen 127.0.0.1:$port${nginx_listen_options:+ $nginx_listen_options};
    location = /v1/pets {
      default_type application/json;
      if (\$http_authorization != "Bearer $PETSTORE_BENCH_KEY") {
        return 401 '{"code":"unauthorized","message":"the API key is not accepted","status":401}';
      }
      if (\$request_method = POST) {
        add_header Location /v1/pets/1;
        add_header Cache-Control no-store;
        return 201 '{"id":1,"name":"pet-000001","categoryId":1,"status":"available"}';
      }
      add_header Cache-Control no-store;
      add_header X-Content-Type-Options nosniff;
      alias $dir/page.json;
    }
  }
}
CONF
  taskset -c "${server_cpus:-0}" nginx -c "$dir/nginx.conf" -p "$dir" -e "$dir/error.log" 2>>"$dir/error.log" &
  nginx_pid=$!
  started+=("$nginx_pid")
  nginx_origin=http://127.0.0.1:$port
  local probe=()  # an h2c-only listener answers a client with prior knowledge only
  [ "${nginx_listen_options:-}" != http2 ] || probe=(--http2-prior-knowledge)
  for _ in $(seq 100); do
    curl -s -o /dev/null "${probe[@]}" "$nginx_origin/" && return 0
    sleep 0.1
  done
  echo "bench/run: nginx ($1) did not start: $(cat "$dir/error.log")" >&2
  exit 1
}

# start_callgrind_petstore: this tree's petstore as start_petstore runs it (in memory), under
# callgrind, its dumps in $cg ($work/callgrind); waits up to a minute for it to listen; sets
# $cg_pid and $cg_origin.
start_callgrind_petstore() {
  cg=$work/callgrind
  mkdir -p "$cg"
  port=$(free_port)
  (cd "$cg" && exec taskset -c 0 valgrind --tool=callgrind --quiet "$binary" serve --threads 1 \
    --log-level warn --storage memory --listen "127.0.0.1:$port" --api-keys "$work/keys" \
    >"$cg/petstore.out" 2>"$cg/petstore.err") &
  cg_pid=$!
  started+=("$cg_pid")
  for _ in $(seq 300); do
    grep -q 'listening on' "$cg/petstore.out" 2>/dev/null && break
    sleep 0.2
  done
  cg_origin=http://127.0.0.1:$port
}

# start_callgrind_nginx: R1's nginx (start_nginx nginx's config, on its port: stop that one
# first) under callgrind, its dumps in $cgn ($work/callgrind-nginx); waits up to a minute for it
# to answer at $nginx_origin; sets $cgn_pid.
start_callgrind_nginx() {
  cgn=$work/callgrind-nginx
  mkdir -p "$cgn"
  (cd "$cgn" && exec taskset -c 0 valgrind --tool=callgrind --quiet nginx -c "$work/nginx/nginx.conf" \
    -p "$work/nginx" -e "$work/nginx/error.log" 2>/dev/null) &
  cgn_pid=$!
  started+=("$cgn_pid")
  for _ in $(seq 300); do
    curl -s -o /dev/null "$nginx_origin/" && break
    sleep 0.2
  done
}
