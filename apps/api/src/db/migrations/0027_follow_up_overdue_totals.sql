-- Overdue now without counting the overdue cases (issue 26): at a million scans about 24,000 active cases are past
-- due, and counting them from follow_up_cases_active_due_idx was most of the figures' database time. Overdue now =
-- the active cases (a total per organization and modality) − those due after today (UTC; a row per due day, at most
-- the due intervals ahead) − those due later today (counted from the index: a day's worth). Kept by the figures'
-- triggers, like the other follow_up_stats_* tables; plain SQL, not in the Drizzle schema.
CREATE TABLE IF NOT EXISTS "follow_up_stats_active_total" (
	"organization_id" integer,
	"modality" text NOT NULL,
	"cases" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "follow_up_stats_active_total_key" UNIQUE NULLS NOT DISTINCT ("organization_id", "modality")
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "follow_up_stats_due_daily" (
	"due_day" date NOT NULL,
	"organization_id" integer,
	"modality" text NOT NULL,
	"cases" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "follow_up_stats_due_daily_key" UNIQUE NULLS NOT DISTINCT ("modality", "due_day", "organization_id")
);
--> statement-breakpoint
-- One case's share of the active counts, added (1) or taken away (-1): nothing unless it is active with a due date.
CREATE OR REPLACE FUNCTION follow_up_due_add(p_org integer, p_due timestamptz, p_modalities text[], p_status text, p_sign integer)
  RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF p_due IS NULL OR p_status NOT IN ('OPEN', 'CONTACTED', 'REFERRED', 'SEEN') THEN
    RETURN;
  END IF;
  INSERT INTO follow_up_stats_active_total AS s (organization_id, modality, cases)
  SELECT p_org, m, p_sign FROM (SELECT DISTINCT m FROM unnest(array_append(p_modalities, 'ALL')) AS m) ms
  ON CONFLICT ON CONSTRAINT follow_up_stats_active_total_key DO UPDATE SET cases = s.cases + excluded.cases;
  INSERT INTO follow_up_stats_due_daily AS s (due_day, organization_id, modality, cases)
  SELECT (p_due AT TIME ZONE 'UTC')::date, p_org, m, p_sign
  FROM (SELECT DISTINCT m FROM unnest(array_append(p_modalities, 'ALL')) AS m) ms
  ON CONFLICT ON CONSTRAINT follow_up_stats_due_daily_key DO UPDATE SET cases = s.cases + excluded.cases;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION follow_up_stats_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    IF TG_OP = 'DELETE' OR (OLD.status, OLD.outcome, OLD.organization_id, OLD.opened_at, OLD.diagnosis_date, OLD.modalities)
        IS DISTINCT FROM (NEW.status, NEW.outcome, NEW.organization_id, NEW.opened_at, NEW.diagnosis_date, NEW.modalities) THEN
      PERFORM follow_up_stats_add(OLD.organization_id, OLD.opened_at, OLD.modalities, OLD.status, OLD.outcome, OLD.diagnosis_date, -1);
    END IF;
    PERFORM follow_up_due_add(OLD.organization_id, OLD.due_at, OLD.modalities, OLD.status, -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    IF TG_OP = 'INSERT' OR (OLD.status, OLD.outcome, OLD.organization_id, OLD.opened_at, OLD.diagnosis_date, OLD.modalities)
        IS DISTINCT FROM (NEW.status, NEW.outcome, NEW.organization_id, NEW.opened_at, NEW.diagnosis_date, NEW.modalities) THEN
      PERFORM follow_up_stats_add(NEW.organization_id, NEW.opened_at, NEW.modalities, NEW.status, NEW.outcome, NEW.diagnosis_date, 1);
    END IF;
    PERFORM follow_up_due_add(NEW.organization_id, NEW.due_at, NEW.modalities, NEW.status, 1);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION follow_up_stats_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE follow_up_stats_org_daily, follow_up_stats_diagnosis_daily, follow_up_stats_org_total, follow_up_stats_diagnosis_total,
    follow_up_stats_active_total, follow_up_stats_due_daily;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION follow_up_stats_rebuild_due() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE follow_up_stats_due_daily;
  INSERT INTO follow_up_stats_due_daily (due_day, organization_id, modality, cases)
  SELECT (c.due_at AT TIME ZONE 'UTC')::date, c.organization_id, m, count(*)
  FROM follow_up_cases c
  CROSS JOIN LATERAL (SELECT DISTINCT m FROM unnest(array_append(c.modalities, 'ALL')) AS m) ms
  WHERE c.status IN ('OPEN', 'CONTACTED', 'REFERRED', 'SEEN') AND c.due_at IS NOT NULL
  GROUP BY 1, 2, 3;
  TRUNCATE follow_up_stats_active_total;
  INSERT INTO follow_up_stats_active_total (organization_id, modality, cases)
  SELECT organization_id, modality, sum(cases) FROM follow_up_stats_due_daily GROUP BY 1, 2;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION follow_up_stats_rebuild() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE follow_up_cases IN SHARE MODE;
  TRUNCATE follow_up_stats_org_daily;
  INSERT INTO follow_up_stats_org_daily (day, organization_id, modality, screen_positives, completed, lost, declined)
  SELECT (c.opened_at AT TIME ZONE 'UTC')::date, c.organization_id, m, count(*),
    count(*) FILTER (WHERE c.status = 'CLOSED' AND c.outcome IN ('NO_ABNORMALITY', 'BENIGN', 'MALIGNANT', 'OTHER')),
    count(*) FILTER (WHERE c.status = 'LOST_TO_FOLLOW_UP'), count(*) FILTER (WHERE c.status = 'DECLINED')
  FROM follow_up_cases c
  CROSS JOIN LATERAL (SELECT DISTINCT m FROM unnest(array_append(c.modalities, 'ALL')) AS m) ms
  GROUP BY 1, 2, 3;
  TRUNCATE follow_up_stats_org_total;
  INSERT INTO follow_up_stats_org_total (organization_id, modality, screen_positives, completed, lost, declined)
  SELECT organization_id, modality, sum(screen_positives), sum(completed), sum(lost), sum(declined)
  FROM follow_up_stats_org_daily GROUP BY 1, 2;
  PERFORM follow_up_stats_rebuild_diagnosis(NULL);
  PERFORM follow_up_stats_rebuild_due();
END
$$;
--> statement-breakpoint
-- The update trigger now also fires when a due date changes.
DROP TRIGGER IF EXISTS follow_up_stats_update ON follow_up_cases;
--> statement-breakpoint
CREATE TRIGGER follow_up_stats_update AFTER UPDATE OF status, outcome, organization_id, opened_at, diagnosis_date, modalities, due_at
  ON follow_up_cases FOR EACH ROW
  WHEN ((OLD.status, OLD.outcome, OLD.organization_id, OLD.opened_at, OLD.diagnosis_date, OLD.modalities, OLD.due_at)
    IS DISTINCT FROM (NEW.status, NEW.outcome, NEW.organization_id, NEW.opened_at, NEW.diagnosis_date, NEW.modalities, NEW.due_at))
  EXECUTE FUNCTION follow_up_stats_apply();
--> statement-breakpoint
SELECT follow_up_stats_rebuild_due();
--> statement-breakpoint
-- The audit list (issue 27) at ten million rows: its actor filter matches the impersonator too, and a filter of
-- failures is rare; without these the first counted 1.5 s and the second ~100 ms a page (docs/performance.md).
CREATE INDEX IF NOT EXISTS "audit_log_impersonator_idx" ON "audit_log" ("impersonator_id", "id") WHERE "impersonator_id" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "audit_log_failure_idx" ON "audit_log" ("id") WHERE "outcome" = 'failure';
