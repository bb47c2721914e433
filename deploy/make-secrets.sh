#!/bin/sh
# Writes the random secrets compose.yaml hands to the containers into deploy/secrets/ (git-ignored).
# An existing file is kept, so running it again never changes a password a database already has.
#   sh deploy/make-secrets.sh
set -eu
dir="$(dirname "$0")/secrets"
umask 077
mkdir -p "$dir"
chmod 700 "$dir"

write() { # name value: the file, unless it exists
  if [ -e "$dir/$1" ]; then echo "kept    $dir/$1"; else printf '%s\n' "$2" >"$dir/$1" && echo "created $dir/$1"; fi
}
random() { openssl rand -hex "$1"; }

write auth_token_secret "$(random 32)"
write demo_password "$(random 12)"
write postgres_password "$(random 24)"
write database_url "postgres://ris:$(cat "$dir/postgres_password")@postgres:5432/ris"
write orthanc_password "$(random 24)"
write orthanc.secret.json "{ \"RegisteredUsers\": { \"ris\": \"$(cat "$dir/orthanc_password")\" } }"
# Compose mounts each file as it is, owned by this user: the containers' own users (node, postgres)
# must be able to read them. The folder (0700) keeps them from other users of this host.
chmod 644 "$dir"/*
