#!/usr/bin/env bash
# A local stand-in for the Hugging Face Hub: nginx (Debian) on loopback serving a dataset directory
# in the Hub's URL layout, for the HTTP tests. Usage:
#   hub-nginx.sh start STATE_DIR DATASET_DIR OWNER/NAME [ADDRESS]   prints the port; idempotent
#                                                install; ADDRESS (default 127.0.0.1) is where
#                                                it listens: the rig's Hub namespace serves the
#                                                nodes on its data address (hosts.sh)
#   hub-nginx.sh stop STATE_DIR
# Served (REV = v3.0, the tag the refs answer lists):
#   /datasets/OWNER/NAME/resolve/R/<path>        the files, with Range and ETag (nginx static),
#                                                for R = REV and the commits of REV and main
#   /api/datasets/ANY/NAME/refs                  tags [v3.0, v2.1] and branch main
#   /api/datasets/ANY/NAME/revision/R            {"sha": ...} for R = v3.0, v2.1, main: a fixed
#                                                commit each (STATE_DIR/api/revision/R.json)
#   /api/datasets/OWNER/NAME/tree/REV/meta       meta/ listing, 3 files per page, Link rel="next"
#   /api/datasets/OWNER/NAME[-cdn|-html|-json]/tree/R/data/...  (and videos/...) the listing of
#                                                any folder under data/ or videos/, for R as
#                                                resolve; /api/buckets/OWNER/NAME-bucket/tree/...
#                                                the same for the bucket, and its meta/ (a whole
#                                                dataset in a bucket, LeRobot's repo_type="bucket")
#   /buckets/OWNER/NAME-bucket/resolve/<path>    the same files as an unversioned bucket
#   /datasets/OWNER/NAME-cdn/...                 as NAME, but resolve answers 302 to another host
#                                                name on the same address and port ("localhost",
#                                                "the CDN") whose log records the Authorization
#                                                header it received
#   /api/datasets/OWNER/NAME-untagged/refs       no v3 tag (only v2.1), branch main
#   /datasets/OWNER/NAME-html/resolve/R/...      200 with an HTML page for every file
#   /datasets/OWNER/NAME-json/resolve/R/...      200 with a JSON error for every file
#   /api/datasets/OWNER/NAME-traversal/tree/R/meta  a listing whose one entry climbs out of the
#                                                mirror: meta/../../../../../alice/rec/victim.txt
#                                                (from the cache's mirror of the repository:
#                                                HF_LEROBOT_HOME/alice/rec/victim.txt, a user's
#                                                LeRobot dataset); the URL it resolves to,
#                                                /datasets/alice/rec/victim.txt, serves the
#                                                server's bytes (STATE_DIR/api/evil.txt)
#   /datasets/OWNER/NAME-file-redirect/resolve/... 302 to file:///etc/passwd
#   /datasets/OWNER/NAME-loop/resolve/...        302 to itself, for ever
#   /datasets/OWNER/private/...                  401
#   /datasets/OWNER/forbidden/...                403
#   https://127.0.0.1:TLS_PORT/...               the same files over TLS with a self-signed
#                                                certificate (STATE_DIR/tls-port; only when
#                                                openssl exists): clients must refuse it
# Logs: STATE_DIR/hub.log and STATE_DIR/cdn.log ("<uri> auth=<Authorization header>
# range=<Range header> end=<epoch seconds when it ended> took=<seconds>"). nginx writes a line when
# a request ends, so the start (end - took) tells which test's window a request began in; a
# request of /robostream-settle/ID (204) tells when the requests before it are logged (one worker
# logs in order).
# Exit 3 when nginx cannot be installed (tests then report skipped).
set -euo pipefail
cmd=${1:?usage: hub-nginx.sh start|stop STATE_DIR ...}
state=${2:?state dir}

if [ "$cmd" = stop ]; then
  if [ -f "$state/nginx.pid" ]; then
    kill "$(cat "$state/nginx.pid")" 2>/dev/null || true
    for _ in $(seq 50); do [ -f "$state/nginx.pid" ] || break; sleep 0.1; done
  fi
  exit 0
fi
[ "$cmd" = start ] || { echo "unknown command $cmd" >&2; exit 2; }
data=$(cd "${3:?dataset dir}" && pwd)
repo=${4:?owner/name}
addr=${5:-127.0.0.1}
rev=v3.0

if ! command -v nginx >/dev/null && [ ! -x /usr/sbin/nginx ]; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo -n"
  { $sudo_cmd apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq \
      --no-install-recommends nginx-light; } >/dev/null 2>&1 || { echo "nginx unavailable" >&2; exit 3; }
fi
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)

mkdir -p "$state/api/revision" "$state/tmp"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null \
  || shuf -i 20000-60000 -n 1)

# The refs answers, the commits revisions resolve to, and the paginated meta/ listing (static
# JSON written now).
printf '{"branches":[{"name":"main","ref":"refs/heads/main"}],"tags":[{"name":"v2.1","ref":"refs/tags/v2.1"},{"name":"v3.0","ref":"refs/tags/v3.0"}]}' \
  > "$state/api/refs.json"
printf '{"branches":[{"name":"main","ref":"refs/heads/main"}],"tags":[{"name":"v2.1","ref":"refs/tags/v2.1"}]}' \
  > "$state/api/refs-untagged.json"
for r in v3.0 v2.1 main; do
  sha=$(printf '%s' "$r" | sha1sum | cut -c1-40)
  printf '{"id":"%s","sha":"%s"}' "$repo" "$sha" > "$state/api/revision/$r.json"
done
printf 'the server bytes\n' > "$state/api/evil.txt"
printf '[{"type":"file","path":"meta/../../../../../alice/rec/victim.txt","size":%s}]' \
  "$(stat -c %s "$state/api/evil.txt")" > "$state/api/tree-traversal.json"
sha_rev=$(printf '%s' "$rev" | sha1sum | cut -c1-40)
sha_main=$(printf '%s' main | sha1sum | cut -c1-40)
owner_re=$(printf '%s' "$repo" | sed 's/[.]/\\./g')
mapfile -t metas < <(cd "$data" && find meta -type f | sort)
pages=$(( (${#metas[@]} + 2) / 3 ))
tree_locations=""
for page in $(seq 1 "$pages"); do
  json="["
  for i in $(seq $(( (page - 1) * 3 )) $(( page * 3 - 1 ))); do
    [ "$i" -lt "${#metas[@]}" ] || break
    f=${metas[$i]}
    [ "$json" = "[" ] || json+=","
    json+="{\"type\":\"file\",\"path\":\"$f\",\"size\":$(stat -c %s "$data/$f")}"
  done
  echo "$json]" > "$state/api/tree-$page.json"
  # Page 1 at the tag and at the commits it and main resolve to; the next pages by their links.
  if [ "$page" -eq 1 ]; then uri="~ ^/api/datasets/$owner_re/tree/($rev|$sha_rev|$sha_main)/meta\$"; else uri="= /api/tree-pages/$repo/$page"; fi
  link=""
  [ "$page" -lt "$pages" ] && link="add_header Link '</api/tree-pages/$repo/$((page + 1))>; rel=\"next\"' always;"
  tree_locations+="    location $uri { default_type application/json; $link alias $state/api/tree-$page.json; }
"
done

# The listing of every folder under data/, videos/ and meta/ (each file below it, as the tree
# API's recursive listing answers): what a dataset's files are checked against before it streams
# (meta/'s only through the bucket: the repository's is the paginated one above).
while IFS= read -r dir; do
  json="["
  while IFS= read -r f; do
    [ "$json" = "[" ] || json+=","
    json+="{\"type\":\"file\",\"path\":\"$f\",\"size\":$(stat -c %s "$data/$f")}"
  done < <(cd "$data" && find "$dir" -type f | sort)
  mkdir -p "$state/api/trees/$(dirname "$dir")"
  echo "$json]" > "$state/api/trees/$dir.json"
done < <(cd "$data" && find data videos meta -type d 2>/dev/null | sort)

tls_server=""
if command -v openssl >/dev/null; then
  tls_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null \
    || shuf -i 20000-60000 -n 1)
  openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=127.0.0.1 \
    -keyout "$state/tls.key" -out "$state/tls.crt" >/dev/null 2>&1
  tls_server="  server {
    listen 127.0.0.1:$tls_port ssl;
    ssl_certificate $state/tls.crt;
    ssl_certificate_key $state/tls.key;
    location / { alias $data/; }
  }"
  echo "$tls_port" > "$state/tls-port"
fi
# Started as root, nginx workers would drop to an unprivileged user that cannot read a private
# test directory: keep the caller's user.
user_line=""
[ "$(id -u)" -eq 0 ] && user_line="user root;"
cat > "$state/nginx.conf" <<CONF
$user_line
daemon on;
pid $state/nginx.pid;
error_log $state/error.log warn;
worker_processes 1;
events { worker_connections 256; }
http {
  access_log off;
  client_body_temp_path $state/tmp/body;
  proxy_temp_path $state/tmp/proxy;
  fastcgi_temp_path $state/tmp/fastcgi;
  uwsgi_temp_path $state/tmp/uwsgi;
  scgi_temp_path $state/tmp/scgi;
  types { video/mp4 mp4; application/json json; application/octet-stream parquet; }
  default_type application/octet-stream;
  log_format auth '\$request_uri auth=\$http_authorization range=\$http_range end=\$msec took=\$request_time';
  server {
    listen $addr:$port default_server;
    server_name 127.0.0.1;
    access_log $state/hub.log auth;
    location ^~ /robostream-settle/ { return 204; }
    location ~ ^/api/datasets/[^/]+/[^/]+/refs\$ { default_type application/json; alias $state/api/refs.json; }
    location = /api/datasets/$repo-untagged/refs { default_type application/json; alias $state/api/refs-untagged.json; }
    location ~ ^/api/datasets/[^/]+/[^/]+/revision/([^/]+)\$ { default_type application/json; alias $state/api/revision/\$1.json; }
$tree_locations
    location ~ ^/api/datasets/$owner_re(-cdn|-html|-json)?/tree/($rev|$sha_rev|$sha_main)/((data|videos)(/.*)?)\$ { default_type application/json; alias $state/api/trees/\$3.json; }
    location ~ ^/api/buckets/$owner_re-bucket/tree/((meta|data|videos)(/.*)?)\$ { default_type application/json; alias $state/api/trees/\$1.json; }
    location ~ ^/datasets/$owner_re/resolve/($rev|$sha_rev|$sha_main)/(.*)\$ { alias $data/\$2; }
    location ~ ^/datasets/$owner_re/resolve/ { return 404; }
    location ~ ^/buckets/$owner_re-bucket/resolve/(.*)\$ { alias $data/\$1; }
    location ~ ^/datasets/$owner_re-cdn/resolve/[^/]+/(.*)\$ { return 302 http://localhost:$port/cdn/\$1; }
    location ~ ^/api/datasets/$owner_re-traversal/tree/[^/]+/meta\$ { default_type application/json; alias $state/api/tree-traversal.json; }
    location = /datasets/alice/rec/victim.txt { alias $state/api/evil.txt; }
    location ~ ^/datasets/$owner_re-file-redirect/resolve/ { return 302 file:///etc/passwd; }
    location ~ ^/datasets/$owner_re-loop/resolve/(.*)\$ { return 302 /datasets/$repo-loop/resolve/\$1; }
    location ~ ^/datasets/$owner_re-html/resolve/ { default_type text/html; return 200 "<!DOCTYPE html><html><body>Sign in</body></html>"; }
    location ~ ^/datasets/$owner_re-json/resolve/ { default_type application/json; return 200 '{"error":"Entry not found"}'; }
    location ~ ^/datasets/[^/]+/private/ { return 401; }
    location ~ ^/datasets/[^/]+/forbidden/ { return 403; }
  }
  server {
    listen $addr:$port;
    server_name localhost;
    access_log $state/cdn.log auth;
    location ^~ /robostream-settle/ { return 204; }
    location ~ ^/cdn/(.*)\$ { alias $data/\$1; }
  }
$tls_server
}
CONF
"$nginx_bin" -c "$state/nginx.conf" -p "$state" 2>>"$state/error.log" || { cat "$state/error.log" >&2; exit 1; }
for _ in $(seq 50); do [ -f "$state/nginx.pid" ] && break; sleep 0.1; done
echo "$port"
