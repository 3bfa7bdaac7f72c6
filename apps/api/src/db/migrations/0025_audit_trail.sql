ALTER TABLE "organizations" ADD COLUMN "webhook_secret" text;--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "webhook_secret_created" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "action_group" text DEFAULT 'other' NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "organization_id" integer;--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "changes" jsonb;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "duration_ms" integer;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "last_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "replay_of" integer;--> statement-breakpoint
CREATE INDEX "audit_log_org_idx" ON "audit_log" USING btree ("organization_id","id");--> statement-breakpoint
CREATE INDEX "audit_log_group_idx" ON "audit_log" USING btree ("action_group","id");--> statement-breakpoint
CREATE INDEX "audit_log_target_idx" ON "audit_log" USING btree ("target_type","target_id","id");--> statement-breakpoint
-- Existing rows get their group, as `auditGroupOf` (packages/shared/src/audit.ts) names it on every new row.
UPDATE "audit_log" SET "action_group" = CASE
  WHEN "action" LIKE '%.read' OR "action" LIKE 'export.%' THEN 'reads'
  ELSE CASE split_part("action", '.', 1)
    WHEN 'sign_in' THEN 'sign_in' WHEN 'password_reset' THEN 'sign_in' WHEN 'account' THEN 'sign_in'
    WHEN 'impersonation' THEN 'sign_in' WHEN 'session' THEN 'sign_in'
    WHEN 'user' THEN 'users'
    WHEN 'organization' THEN 'organizations' WHEN 'reference' THEN 'organizations' WHEN 'webhook' THEN 'organizations'
    WHEN 'device' THEN 'devices' WHEN 'firmware' THEN 'devices' WHEN 'app_version' THEN 'devices' WHEN 'licence' THEN 'devices'
    WHEN 'patient' THEN 'patients'
    WHEN 'scan' THEN 'scans'
    WHEN 'cervical' THEN 'exams' WHEN 'orca' THEN 'exams'
    WHEN 'follow_up' THEN 'follow_up'
    WHEN 'tutorial' THEN 'training' WHEN 'training' THEN 'training'
    WHEN 'booking' THEN 'bookings'
    WHEN 'language' THEN 'settings' WHEN 'audit' THEN 'settings' WHEN 'settings' THEN 'settings'
    ELSE 'other' END
  END;
--> statement-breakpoint
-- Existing rows get the organization of their target where it can still be read, so a scoped reader sees them.
UPDATE "audit_log" a SET "organization_id" = o."id"
  FROM "organizations" o WHERE a."target_type" = 'organization' AND a."target_id" = o."id"::text;
--> statement-breakpoint
UPDATE "audit_log" a SET "organization_id" = u."organization_id"
  FROM "users" u WHERE a."target_type" = 'user' AND a."target_id" = u."id"::text;
--> statement-breakpoint
UPDATE "audit_log" a SET "organization_id" = p."organization_id"
  FROM "patients" p WHERE a."target_type" = 'patient' AND a."target_id" = p."id"::text;
--> statement-breakpoint
UPDATE "audit_log" a SET "organization_id" = s."organization_id"
  FROM "scans" s WHERE a."target_type" = 'scan' AND a."target_id" = s."id"::text;
--> statement-breakpoint
-- Append-only: no UPDATE ever; a DELETE only from the retention prune, which sets `sc.audit_prune` for its own
-- transaction (`SELECT set_config('sc.audit_prune', 'on', true)`). In production the API's database user may also be
-- denied UPDATE and DELETE on the table (docs/operations.md).
CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND coalesce(current_setting('sc.audit_prune', true), '') = 'on' THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_log is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS audit_log_append_only ON "audit_log";
--> statement-breakpoint
CREATE TRIGGER audit_log_append_only BEFORE UPDATE OR DELETE ON "audit_log"
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
--> statement-breakpoint
DROP TRIGGER IF EXISTS audit_log_no_truncate ON "audit_log";
--> statement-breakpoint
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON "audit_log"
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
