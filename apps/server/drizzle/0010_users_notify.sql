-- What every replica's token cache (auth/revocation.ts) holds of a user comes from users (status,
-- role, organisation, tokens_valid_after), radiologist_details (user type), user_facilities
-- (migration 0006) and auth_sessions (live sessions). Each of those tables now announces its changes
-- on ris_auth_revocation with the user's id, whoever writes them (an admin command, a script, a plain
-- UPDATE in psql), so no replica keeps serving the old state: NOTIFY is delivered at commit, once per
-- distinct payload per transaction, and dropped on rollback. A TRUNCATE announces '*' (every user).
-- Disabling a user (status leaves ACTIVE) or moving them out of their organisation also ends every
-- session of theirs here, so their refresh tokens are refused whichever way the change was made.
CREATE OR REPLACE FUNCTION ris_notify_user_change() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('ris_auth_revocation', OLD.id::text);
    RETURN NULL;
  END IF;
  IF (OLD.status = 'ACTIVE' AND NEW.status <> 'ACTIVE')
     OR (OLD.organisation_id IS NOT NULL AND NEW.organisation_id IS DISTINCT FROM OLD.organisation_id) THEN
    UPDATE auth_sessions
      SET revoked_at = now(),
          revoked_reason = CASE WHEN NEW.status <> 'ACTIVE' THEN 'user_disabled' ELSE 'organisation_changed' END
      WHERE user_id = NEW.id AND revoked_at IS NULL;
  END IF;
  PERFORM pg_notify('ris_auth_revocation', NEW.id::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_notify_auth_change
  AFTER UPDATE OF status, role, organisation_id, tokens_valid_after, password_hash ON users
  FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status
    OR OLD.role IS DISTINCT FROM NEW.role
    OR OLD.organisation_id IS DISTINCT FROM NEW.organisation_id
    OR OLD.tokens_valid_after IS DISTINCT FROM NEW.tokens_valid_after
    OR OLD.password_hash IS DISTINCT FROM NEW.password_hash)
  EXECUTE FUNCTION ris_notify_user_change();
--> statement-breakpoint
CREATE TRIGGER users_notify_delete
  AFTER DELETE ON users
  FOR EACH ROW EXECUTE FUNCTION ris_notify_user_change();
--> statement-breakpoint
-- Rows that name their user in user_id (radiologist_details, auth_sessions): announce that user.
CREATE OR REPLACE FUNCTION ris_notify_row_user() RETURNS trigger
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
CREATE TRIGGER radiologist_details_notify_change
  AFTER INSERT OR DELETE OR UPDATE OF user_type, user_id ON radiologist_details
  FOR EACH ROW EXECUTE FUNCTION ris_notify_row_user();
--> statement-breakpoint
-- A session ending (sign-out, revocation) or removed; new sessions need no news (the verifier loads a
-- session it has not seen), nor do refreshes (they move expires_at only).
CREATE TRIGGER auth_sessions_notify_end
  AFTER UPDATE OF revoked_at ON auth_sessions
  FOR EACH ROW
  WHEN (OLD.revoked_at IS NULL AND NEW.revoked_at IS NOT NULL)
  EXECUTE FUNCTION ris_notify_row_user();
--> statement-breakpoint
CREATE TRIGGER auth_sessions_notify_delete
  AFTER DELETE ON auth_sessions
  FOR EACH ROW EXECUTE FUNCTION ris_notify_row_user();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ris_notify_every_user() RETURNS trigger
  LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('ris_auth_revocation', '*');
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_notify_truncate
  AFTER TRUNCATE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION ris_notify_every_user();
--> statement-breakpoint
CREATE TRIGGER radiologist_details_notify_truncate
  AFTER TRUNCATE ON radiologist_details
  FOR EACH STATEMENT EXECUTE FUNCTION ris_notify_every_user();
--> statement-breakpoint
CREATE TRIGGER auth_sessions_notify_truncate
  AFTER TRUNCATE ON auth_sessions
  FOR EACH STATEMENT EXECUTE FUNCTION ris_notify_every_user();
