-- Every replica keeps each user's facility assignments in its per-user token cache (auth/revocation.ts)
-- and drops the entry on a NOTIFY on ris_auth_revocation carrying the user's id. Commands announce
-- their changes themselves (publishUserChange); this trigger announces every write to
-- user_facilities as well, whoever makes it (a command, a script, a manual fix), so no change of
-- assignment can leave a replica serving the old scope. A TRUNCATE announces '*' (every user). NOTIFY
-- is delivered at commit, once per distinct payload per transaction, and dropped on rollback.
CREATE OR REPLACE FUNCTION ris_notify_user_facilities_change() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM pg_notify('ris_auth_revocation', NEW.user_id::text);
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM pg_notify('ris_auth_revocation', OLD.user_id::text);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER user_facilities_notify_change
  AFTER INSERT OR UPDATE OR DELETE ON user_facilities
  FOR EACH ROW EXECUTE FUNCTION ris_notify_user_facilities_change();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ris_notify_user_facilities_truncate() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('ris_auth_revocation', '*');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER user_facilities_notify_truncate
  AFTER TRUNCATE ON user_facilities
  FOR EACH STATEMENT EXECUTE FUNCTION ris_notify_user_facilities_truncate();
