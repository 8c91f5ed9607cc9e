#!/bin/sh
# Runs once, when the postgres container makes its empty data directory (the official image runs
# /docker-entrypoint-initdb.d/* as POSTGRES_USER, the schema's owner). It makes the role the app
# logs in as, with its password; `mustard migrate` finds it there (it creates the role only when
# it is missing) and grants it what it may do. The app role is neither superuser nor owner, so
# row-level security binds it (README, "PostgreSQL").
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
	--set app_password="$MUSTARD_APP_PASSWORD" <<'SQL'
CREATE ROLE mustard_app LOGIN PASSWORD :'app_password' NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
SQL
