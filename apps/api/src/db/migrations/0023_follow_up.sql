-- Follow-up of screen-positive patients (issue 26): cases, the positives behind them, their append-only timeline and
-- each organization's due intervals and reminders; the patient's reminder consent and its language; webhook
-- deliveries of events other than a new scan (a case's move), whose JSON is kept with the delivery.
CREATE TABLE "follow_up_case_sources" (
	"id" serial PRIMARY KEY NOT NULL,
	"case_id" integer NOT NULL,
	"kind" text NOT NULL,
	"source_id" integer NOT NULL,
	"screened_at" timestamp with time zone NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "follow_up_cases" (
	"id" serial PRIMARY KEY NOT NULL,
	"patient_id" integer NOT NULL,
	"organization_id" integer,
	"status" text DEFAULT 'OPEN' NOT NULL,
	"status_changed" timestamp with time zone DEFAULT now() NOT NULL,
	"modalities" text[] DEFAULT '{}'::text[] NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"assigned_user_id" integer,
	"next_due" date,
	"due_at" timestamp with time zone,
	"last_action_kind" text,
	"last_action_at" timestamp with time zone,
	"outcome" text,
	"outcome_site" text,
	"diagnosis_date" date,
	"diagnosis_facility" text,
	"closed_at" timestamp with time zone,
	"sms_reminded_status" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"modified_by" integer
);
--> statement-breakpoint
CREATE TABLE "follow_up_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"case_id" integer NOT NULL,
	"kind" text NOT NULL,
	"actor_id" integer,
	"from_status" text,
	"to_status" text,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"note" text,
	"corrects_id" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "follow_up_reminder_runs" (
	"organization_id" integer NOT NULL,
	"local_date" date NOT NULL,
	"overdue_cases" integer DEFAULT 0 NOT NULL,
	"digests_sent" integer DEFAULT 0 NOT NULL,
	"sms_sent" integer DEFAULT 0 NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "follow_up_reminder_runs_organization_id_local_date_pk" PRIMARY KEY("organization_id","local_date")
);
--> statement-breakpoint
CREATE TABLE "follow_up_settings" (
	"organization_id" integer PRIMARY KEY NOT NULL,
	"contact_days" integer NOT NULL,
	"referral_days" integer NOT NULL,
	"seen_days" integer NOT NULL,
	"outcome_days" integer NOT NULL,
	"digest_enabled" boolean DEFAULT true NOT NULL,
	"sms_enabled" boolean DEFAULT false NOT NULL,
	"sms_texts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"modified_by" integer
);
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ALTER COLUMN "scan_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "reminder_consent" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "consent_language" text;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "event" text DEFAULT 'scan.created' NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "follow_up_case_id" integer;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "payload" jsonb;--> statement-breakpoint
ALTER TABLE "follow_up_case_sources" ADD CONSTRAINT "follow_up_case_sources_case_id_follow_up_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."follow_up_cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follow_up_cases" ADD CONSTRAINT "follow_up_cases_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follow_up_cases" ADD CONSTRAINT "follow_up_cases_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follow_up_cases" ADD CONSTRAINT "follow_up_cases_assigned_user_id_users_id_fk" FOREIGN KEY ("assigned_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follow_up_entries" ADD CONSTRAINT "follow_up_entries_case_id_follow_up_cases_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."follow_up_cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follow_up_entries" ADD CONSTRAINT "follow_up_entries_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follow_up_entries" ADD CONSTRAINT "follow_up_entries_corrects_id_follow_up_entries_id_fk" FOREIGN KEY ("corrects_id") REFERENCES "public"."follow_up_entries"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follow_up_reminder_runs" ADD CONSTRAINT "follow_up_reminder_runs_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follow_up_settings" ADD CONSTRAINT "follow_up_settings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "follow_up_case_sources_uq" ON "follow_up_case_sources" USING btree ("kind","source_id");--> statement-breakpoint
CREATE INDEX "follow_up_case_sources_case_idx" ON "follow_up_case_sources" USING btree ("case_id");--> statement-breakpoint
CREATE UNIQUE INDEX "follow_up_cases_patient_active_uq" ON "follow_up_cases" USING btree ("patient_id") WHERE "follow_up_cases"."status" in ('OPEN', 'CONTACTED', 'REFERRED', 'SEEN');--> statement-breakpoint
CREATE INDEX "follow_up_cases_patient_idx" ON "follow_up_cases" USING btree ("patient_id");--> statement-breakpoint
CREATE INDEX "follow_up_cases_org_due_idx" ON "follow_up_cases" USING btree ("organization_id","due_at");--> statement-breakpoint
CREATE INDEX "follow_up_cases_due_idx" ON "follow_up_cases" USING btree ("due_at");--> statement-breakpoint
CREATE INDEX "follow_up_cases_org_opened_idx" ON "follow_up_cases" USING btree ("organization_id","opened_at");--> statement-breakpoint
CREATE INDEX "follow_up_cases_opened_idx" ON "follow_up_cases" USING btree ("opened_at");--> statement-breakpoint
CREATE INDEX "follow_up_cases_assigned_idx" ON "follow_up_cases" USING btree ("assigned_user_id");--> statement-breakpoint
CREATE INDEX "follow_up_cases_status_idx" ON "follow_up_cases" USING btree ("status");--> statement-breakpoint
CREATE INDEX "follow_up_entries_case_idx" ON "follow_up_entries" USING btree ("case_id","created");--> statement-breakpoint
CREATE INDEX "follow_up_entries_corrects_idx" ON "follow_up_entries" USING btree ("corrects_id") WHERE "follow_up_entries"."corrects_id" is not null;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_follow_up_case_id_follow_up_cases_id_fk" FOREIGN KEY ("follow_up_case_id") REFERENCES "public"."follow_up_cases"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_case_idx" ON "webhook_deliveries" USING btree ("follow_up_case_id") WHERE "webhook_deliveries"."follow_up_case_id" is not null;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_subject_ck" CHECK ("webhook_deliveries"."scan_id" is not null or "webhook_deliveries"."follow_up_case_id" is not null);--> statement-breakpoint
-- The timeline is append-only: an UPDATE or DELETE of an entry is refused, except the database's own cascades (the
-- patient deleted with their cases, an entry's correction link cleared), which run one trigger level down.
CREATE OR REPLACE FUNCTION follow_up_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() <= 1 THEN
    RAISE EXCEPTION 'follow_up_entries is append-only' USING ERRCODE = 'insufficient_privilege';
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS follow_up_entries_append_only ON follow_up_entries;
--> statement-breakpoint
CREATE TRIGGER follow_up_entries_append_only BEFORE UPDATE OR DELETE ON follow_up_entries
FOR EACH ROW EXECUTE FUNCTION follow_up_entries_append_only();