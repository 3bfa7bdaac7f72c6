-- Tells every API instance that sessions or the accounts they act for changed, so that each drops the sessions it keeps
-- in memory (http/session-cache.ts): NOTIFY sc_auth_changed after a statement that revokes, re-dates, re-points or
-- deletes sessions, or changes a user's type, organization, e-mail or validity, or deletes users. PostgreSQL delivers
-- it to the listeners when the transaction commits (never for one that rolls back) and merges repeats within one.
-- Statement-level: a bulk change notifies once. last_seen_at (touched once a minute a session) and the other user
-- columns (last login, dashboard path, password hash: a password reset revokes the sessions anyway) do not notify.
CREATE OR REPLACE FUNCTION auth_changed_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('sc_auth_changed', 'changed');
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS auth_changed_sessions_update ON sessions;
--> statement-breakpoint
CREATE TRIGGER auth_changed_sessions_update
AFTER UPDATE OF token_hash, user_id, kind, impersonator_id, parent_session_id, created, expires_at, revoked_at ON sessions
FOR EACH STATEMENT EXECUTE FUNCTION auth_changed_notify();
--> statement-breakpoint
DROP TRIGGER IF EXISTS auth_changed_sessions_delete ON sessions;
--> statement-breakpoint
CREATE TRIGGER auth_changed_sessions_delete AFTER DELETE OR TRUNCATE ON sessions
FOR EACH STATEMENT EXECUTE FUNCTION auth_changed_notify();
--> statement-breakpoint
DROP TRIGGER IF EXISTS auth_changed_users_update ON users;
--> statement-breakpoint
CREATE TRIGGER auth_changed_users_update AFTER UPDATE OF user_type, organization_id, email, is_valid ON users
FOR EACH STATEMENT EXECUTE FUNCTION auth_changed_notify();
--> statement-breakpoint
DROP TRIGGER IF EXISTS auth_changed_users_delete ON users;
--> statement-breakpoint
CREATE TRIGGER auth_changed_users_delete AFTER DELETE OR TRUNCATE ON users
FOR EACH STATEMENT EXECUTE FUNCTION auth_changed_notify();
