CREATE TABLE "follow_up_stats_diagnosis_daily" (
	"day" date NOT NULL,
	"organization_id" integer,
	"modality" text NOT NULL,
	"days" integer NOT NULL,
	"cases" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "follow_up_stats_diagnosis_daily_key" UNIQUE NULLS NOT DISTINCT("day","organization_id","modality","days")
);
--> statement-breakpoint
CREATE TABLE "follow_up_stats_org_daily" (
	"day" date NOT NULL,
	"organization_id" integer,
	"modality" text NOT NULL,
	"screen_positives" integer DEFAULT 0 NOT NULL,
	"completed" integer DEFAULT 0 NOT NULL,
	"lost" integer DEFAULT 0 NOT NULL,
	"declined" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "follow_up_stats_org_daily_key" UNIQUE NULLS NOT DISTINCT("day","organization_id","modality")
);
--> statement-breakpoint
CREATE INDEX "follow_up_stats_diagnosis_daily_org_idx" ON "follow_up_stats_diagnosis_daily" USING btree ("organization_id","modality","day");--> statement-breakpoint
CREATE INDEX "follow_up_stats_diagnosis_daily_day_idx" ON "follow_up_stats_diagnosis_daily" USING btree ("modality","day");--> statement-breakpoint
CREATE INDEX "follow_up_stats_org_daily_org_idx" ON "follow_up_stats_org_daily" USING btree ("organization_id","modality","day");--> statement-breakpoint
CREATE INDEX "follow_up_stats_org_daily_day_idx" ON "follow_up_stats_org_daily" USING btree ("modality","day");--> statement-breakpoint
-- The same counts over all time, one row per organization and modality (and per days to diagnosis): the dashboard's
-- default period reads a few hundred rows instead of every day's (a million scans: 30,000 daily rows). Plain SQL, not
-- in the Drizzle schema, like scan_stats_org_total; kept by the same functions as the daily tables.
CREATE TABLE IF NOT EXISTS "follow_up_stats_org_total" (
	"organization_id" integer,
	"modality" text NOT NULL,
	"screen_positives" integer DEFAULT 0 NOT NULL,
	"completed" integer DEFAULT 0 NOT NULL,
	"lost" integer DEFAULT 0 NOT NULL,
	"declined" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "follow_up_stats_org_total_key" UNIQUE NULLS NOT DISTINCT ("organization_id", "modality")
);
--> statement-breakpoint
CREATE TABLE IF NOT EXISTS "follow_up_stats_diagnosis_total" (
	"organization_id" integer,
	"modality" text NOT NULL,
	"days" integer NOT NULL,
	"cases" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "follow_up_stats_diagnosis_total_key" UNIQUE NULLS NOT DISTINCT ("organization_id", "modality", "days")
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "follow_up_stats_diagnosis_total_modality_idx" ON "follow_up_stats_diagnosis_total" USING btree ("modality", "organization_id", "days");
--> statement-breakpoint
-- One case's share of the figures, added (sign 1) or taken away (sign -1): a row under 'ALL' and one per modality.
-- days to diagnosis = diagnosis date − the opened instant's local date in the organization's zone (UTC without one).
CREATE FUNCTION follow_up_stats_add(p_org integer, p_opened timestamptz, p_modalities text[], p_status text,
  p_outcome text, p_diagnosis date, p_sign integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_day date := (p_opened AT TIME ZONE 'UTC')::date;
  v_completed integer := CASE WHEN p_status = 'CLOSED' AND p_outcome IN ('NO_ABNORMALITY', 'BENIGN', 'MALIGNANT', 'OTHER') THEN 1 ELSE 0 END;
  v_zone text;
  v_days integer;
BEGIN
  INSERT INTO follow_up_stats_org_daily AS s (day, organization_id, modality, screen_positives, completed, lost, declined)
  SELECT v_day, p_org, m, p_sign, p_sign * v_completed,
    CASE WHEN p_status = 'LOST_TO_FOLLOW_UP' THEN p_sign ELSE 0 END,
    CASE WHEN p_status = 'DECLINED' THEN p_sign ELSE 0 END
  FROM (SELECT DISTINCT m FROM unnest(array_append(p_modalities, 'ALL')) AS m) ms
  ON CONFLICT ON CONSTRAINT follow_up_stats_org_daily_key DO UPDATE SET
    screen_positives = s.screen_positives + excluded.screen_positives, completed = s.completed + excluded.completed,
    lost = s.lost + excluded.lost, declined = s.declined + excluded.declined;
  INSERT INTO follow_up_stats_org_total AS s (organization_id, modality, screen_positives, completed, lost, declined)
  SELECT p_org, m, p_sign, p_sign * v_completed,
    CASE WHEN p_status = 'LOST_TO_FOLLOW_UP' THEN p_sign ELSE 0 END,
    CASE WHEN p_status = 'DECLINED' THEN p_sign ELSE 0 END
  FROM (SELECT DISTINCT m FROM unnest(array_append(p_modalities, 'ALL')) AS m) ms
  ON CONFLICT ON CONSTRAINT follow_up_stats_org_total_key DO UPDATE SET
    screen_positives = s.screen_positives + excluded.screen_positives, completed = s.completed + excluded.completed,
    lost = s.lost + excluded.lost, declined = s.declined + excluded.declined;
  IF v_completed = 1 AND p_diagnosis IS NOT NULL THEN
    SELECT timezone INTO v_zone FROM organizations WHERE id = p_org;
    v_days := p_diagnosis - (p_opened AT TIME ZONE coalesce(v_zone, 'UTC'))::date;
    INSERT INTO follow_up_stats_diagnosis_daily AS s (day, organization_id, modality, days, cases)
    SELECT v_day, p_org, m, v_days, p_sign
    FROM (SELECT DISTINCT m FROM unnest(array_append(p_modalities, 'ALL')) AS m) ms
    ON CONFLICT ON CONSTRAINT follow_up_stats_diagnosis_daily_key DO UPDATE SET cases = s.cases + excluded.cases;
    INSERT INTO follow_up_stats_diagnosis_total AS s (organization_id, modality, days, cases)
    SELECT p_org, m, v_days, p_sign
    FROM (SELECT DISTINCT m FROM unnest(array_append(p_modalities, 'ALL')) AS m) ms
    ON CONFLICT ON CONSTRAINT follow_up_stats_diagnosis_total_key DO UPDATE SET cases = s.cases + excluded.cases;
  END IF;
END
$$;
--> statement-breakpoint
CREATE FUNCTION follow_up_stats_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    PERFORM follow_up_stats_add(OLD.organization_id, OLD.opened_at, OLD.modalities, OLD.status, OLD.outcome, OLD.diagnosis_date, -1);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    PERFORM follow_up_stats_add(NEW.organization_id, NEW.opened_at, NEW.modalities, NEW.status, NEW.outcome, NEW.diagnosis_date, 1);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION follow_up_stats_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE follow_up_stats_org_daily, follow_up_stats_diagnosis_daily, follow_up_stats_org_total, follow_up_stats_diagnosis_total;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The diagnosis rows of one organization (NULL: all), recomputed from its cases: after its zone changes.
CREATE FUNCTION follow_up_stats_rebuild_diagnosis(p_org integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM follow_up_stats_diagnosis_daily WHERE p_org IS NULL OR organization_id = p_org;
  INSERT INTO follow_up_stats_diagnosis_daily (day, organization_id, modality, days, cases)
  SELECT (c.opened_at AT TIME ZONE 'UTC')::date, c.organization_id, m,
    c.diagnosis_date - (c.opened_at AT TIME ZONE coalesce(o.timezone, 'UTC'))::date, count(*)
  FROM follow_up_cases c
  LEFT JOIN organizations o ON o.id = c.organization_id
  CROSS JOIN LATERAL (SELECT DISTINCT m FROM unnest(array_append(c.modalities, 'ALL')) AS m) ms
  WHERE (p_org IS NULL OR c.organization_id = p_org) AND c.status = 'CLOSED' AND c.diagnosis_date IS NOT NULL
    AND c.outcome IN ('NO_ABNORMALITY', 'BENIGN', 'MALIGNANT', 'OTHER')
  GROUP BY 1, 2, 3, 4;
  DELETE FROM follow_up_stats_diagnosis_total WHERE p_org IS NULL OR organization_id = p_org;
  INSERT INTO follow_up_stats_diagnosis_total (organization_id, modality, days, cases)
  SELECT organization_id, modality, days, sum(cases) FROM follow_up_stats_diagnosis_daily
  WHERE p_org IS NULL OR organization_id = p_org
  GROUP BY 1, 2, 3;
END
$$;
--> statement-breakpoint
CREATE FUNCTION follow_up_stats_rebuild() RETURNS void LANGUAGE plpgsql AS $$
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
END
$$;
--> statement-breakpoint
CREATE FUNCTION follow_up_stats_zone_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.timezone IS DISTINCT FROM OLD.timezone THEN
    PERFORM follow_up_stats_rebuild_diagnosis(NEW.id);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER follow_up_stats_insert AFTER INSERT ON follow_up_cases
  FOR EACH ROW EXECUTE FUNCTION follow_up_stats_apply();
--> statement-breakpoint
CREATE TRIGGER follow_up_stats_update AFTER UPDATE OF status, outcome, organization_id, opened_at, diagnosis_date, modalities
  ON follow_up_cases FOR EACH ROW
  WHEN ((OLD.status, OLD.outcome, OLD.organization_id, OLD.opened_at, OLD.diagnosis_date, OLD.modalities)
    IS DISTINCT FROM (NEW.status, NEW.outcome, NEW.organization_id, NEW.opened_at, NEW.diagnosis_date, NEW.modalities))
  EXECUTE FUNCTION follow_up_stats_apply();
--> statement-breakpoint
CREATE TRIGGER follow_up_stats_delete AFTER DELETE ON follow_up_cases
  FOR EACH ROW EXECUTE FUNCTION follow_up_stats_apply();
--> statement-breakpoint
CREATE TRIGGER follow_up_stats_truncate AFTER TRUNCATE ON follow_up_cases
  FOR EACH STATEMENT EXECUTE FUNCTION follow_up_stats_clear();
--> statement-breakpoint
CREATE TRIGGER follow_up_stats_zone AFTER UPDATE OF timezone ON organizations
  FOR EACH ROW EXECUTE FUNCTION follow_up_stats_zone_changed();
--> statement-breakpoint
-- Overdue now (the figures): active cases whose due instant has passed, counted from this index alone (an index-only
-- scan; the organization for the scope is in it). Hand-written: the cases' schema file belongs to the worklist.
CREATE INDEX follow_up_cases_active_due_idx ON follow_up_cases (due_at) INCLUDE (organization_id)
  WHERE status IN ('OPEN', 'CONTACTED', 'REFERRED', 'SEEN');
--> statement-breakpoint
SELECT follow_up_stats_rebuild();
