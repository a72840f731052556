-- petstore's role and database, made once on the primary of a new cluster (Patroni replicates
-- them), as the superuser:
--   psql -h PRIMARY -U postgres -d postgres -v ON_ERROR_STOP=1 -v password="$PASSWORD" \
--     -f petstore-database.sql
-- The role owns its database and nothing else: petstore creates and migrates its own schema in
-- it. pg_read_all_stats lets it read a standby's received timeline, so that a standby following a
-- new timeline is trusted at once (docs/decisions/replica-proof.md).
CREATE ROLE petstore LOGIN PASSWORD :'password';
CREATE DATABASE petstore OWNER petstore;
GRANT pg_read_all_stats TO petstore;
