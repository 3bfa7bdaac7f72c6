CREATE TABLE "languages" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"iso_code" text NOT NULL,
	"is_tutorial_available" boolean DEFAULT false NOT NULL,
	"app_version_id" integer,
	"ibe_consent_form" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organizations" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"address_1" text,
	"address_2" text,
	"address_3" text,
	"country" text,
	"country_code" text,
	"state" text,
	"zipcode" text,
	"latitude" double precision,
	"longitude" double precision,
	"timezone" text DEFAULT 'Asia/Kolkata' NOT NULL,
	"language_id" integer,
	"parent_id" integer,
	"tree_path" text DEFAULT '/' NOT NULL,
	"mobile" text,
	"has_web_access" boolean DEFAULT false NOT NULL,
	"can_create_organization" boolean DEFAULT false NOT NULL,
	"webhook_url" text,
	"webhook_auth_token" text,
	"webhook_switch" boolean DEFAULT false NOT NULL,
	"qr_enabled_for_training" boolean DEFAULT true NOT NULL,
	"is_orca_navigation_allowed" boolean DEFAULT false NOT NULL,
	"is_cervaical_navigation_allowed" boolean DEFAULT false NOT NULL,
	"enable_send_sms_to_patient" boolean DEFAULT false NOT NULL,
	"enable_send_email_to_patient" boolean DEFAULT false NOT NULL,
	"include_consent_form_in_report" boolean DEFAULT false NOT NULL,
	"automatic_tile_selection_enabled" boolean DEFAULT false NOT NULL,
	"is_storage_optimised" boolean DEFAULT false NOT NULL,
	"is_booking_enabled" boolean DEFAULT false NOT NULL,
	"allow_offline_payment" boolean DEFAULT false NOT NULL,
	"price" integer,
	"currency" text,
	"total_bookings_per_slot" integer,
	"can_be_cancel_before" integer,
	"customized_message" text,
	"customized_message_qr_path" text,
	"ibe_consent_form" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"available_days" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"localize" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"company_info" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"last_sync_date" timestamp with time zone,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"modified_by" integer
);
--> statement-breakpoint
CREATE TABLE "references" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"organization_id" integer NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"modified_by" integer
);
--> statement-breakpoint
CREATE TABLE "audit_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"action" text NOT NULL,
	"actor_id" integer,
	"impersonator_id" integer,
	"target_type" text,
	"target_id" text,
	"outcome" text DEFAULT 'success' NOT NULL,
	"ip" text,
	"user_agent" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "manager_organizations" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"organization_id" integer NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"modified_by" integer
);
--> statement-breakpoint
CREATE TABLE "one_time_codes" (
	"id" serial PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"target" text NOT NULL,
	"user_id" integer,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "outbox_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"channel" text NOT NULL,
	"to" text NOT NULL,
	"subject" text,
	"body" text NOT NULL,
	"code" text,
	"link" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"token_hash" text NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text DEFAULT 'session' NOT NULL,
	"impersonator_id" integer,
	"source" text,
	"ip" text,
	"user_agent" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"username" text NOT NULL,
	"email" text,
	"mobile" text,
	"mobile_country_code" text,
	"user_type" text NOT NULL,
	"is_trainer" boolean DEFAULT false NOT NULL,
	"is_available_demo" boolean DEFAULT false NOT NULL,
	"organization_id" integer,
	"ibe_training_status" text DEFAULT 'NOT_STARTED' NOT NULL,
	"certificate_issue_date" date,
	"certificate_expiry_date" date,
	"is_valid" boolean DEFAULT true NOT NULL,
	"password_hash" text,
	"pin_hash" text,
	"pin_reset_request" boolean DEFAULT false NOT NULL,
	"last_used_dashboard_path" text,
	"last_login_at" timestamp with time zone,
	"deleted_at" timestamp with time zone,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"modified_by" integer
);
--> statement-breakpoint
CREATE TABLE "devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"serial_number" text NOT NULL,
	"name" text,
	"hardware_version" text,
	"software_version" text,
	"last_sync_date" timestamp with time zone,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"modified_by" integer
);
--> statement-breakpoint
CREATE TABLE "organization_devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"device_id" integer NOT NULL,
	"organization_id" integer,
	"is_active" boolean DEFAULT true NOT NULL,
	"ended_at" timestamp with time zone,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"modified_by" integer
);
--> statement-breakpoint
CREATE TABLE "patients" (
	"id" serial PRIMARY KEY NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"mobile" text,
	"mobile_country_code" text,
	"age" integer,
	"date_of_birth" date,
	"email" text,
	"gender" text DEFAULT 'FEMALE' NOT NULL,
	"clinic_patient_id" text,
	"physician_name" text,
	"physician_email" text,
	"reference_id" integer,
	"organization_id" integer,
	"technician_id" integer,
	"date_time" timestamp with time zone,
	"local_db_id" text,
	"device_serial_number" text,
	"most_recent_mammogram_report" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"synced" timestamp with time zone,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"modified_by" integer
);
--> statement-breakpoint
CREATE TABLE "scans" (
	"id" serial PRIMARY KEY NOT NULL,
	"patient_id" integer,
	"organization_id" integer,
	"technician_id" integer,
	"device_serial_number" text,
	"sensor_serial_number" text,
	"tablet_serial_number" text,
	"hardware_version" text,
	"software_version" text,
	"date_time" timestamp with time zone NOT NULL,
	"is_survivor" boolean DEFAULT false NOT NULL,
	"has_family_history" boolean DEFAULT false NOT NULL,
	"has_symptoms" boolean DEFAULT false NOT NULL,
	"under_bust" double precision,
	"over_bust" double precision,
	"latitude" double precision,
	"longitude" double precision,
	"local_db_id" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"scan_type" text DEFAULT 'SCAN' NOT NULL,
	"parent_scan_id" integer,
	"is_replay_available" boolean DEFAULT false NOT NULL,
	"scan_files_path" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"assessment_result" text DEFAULT 'NO_ASSESSMENT' NOT NULL,
	"assessment_approved" boolean,
	"training_scan_observation" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"breast_type" integer,
	"left_breast_finding" text[] DEFAULT '{}'::text[] NOT NULL,
	"right_breast_finding" text[] DEFAULT '{}'::text[] NOT NULL,
	"is_positive" boolean GENERATED ALWAYS AS ((cardinality(left_breast_finding) > 0 OR cardinality(right_breast_finding) > 0)) STORED,
	"notes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"send_report_to_patient" boolean DEFAULT false NOT NULL,
	"sent_report_to_patient" boolean DEFAULT false NOT NULL,
	"next_appointment_date" date,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"modified_by" integer
);
--> statement-breakpoint
CREATE TABLE "cervical_clinical_findings" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"is_required" boolean DEFAULT false NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"z_order" integer DEFAULT 0 NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cervical_document_reviews" (
	"id" serial PRIMARY KEY NOT NULL,
	"document_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"review_status" text NOT NULL,
	"review_status_at" timestamp with time zone DEFAULT now() NOT NULL,
	"qualities" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"clinical_finding" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"modified_by" integer
);
--> statement-breakpoint
CREATE TABLE "cervical_documents" (
	"id" serial PRIMARY KEY NOT NULL,
	"exam_id" integer NOT NULL,
	"path" text NOT NULL,
	"document_type" text NOT NULL,
	"symptom_tag" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cervical_exams" (
	"id" serial PRIMARY KEY NOT NULL,
	"patient_id" integer,
	"organization_id" integer,
	"technician_id" integer,
	"device_serial_number" text,
	"sensor_serial_number" text,
	"tablet_serial_number" text,
	"hardware_version" text,
	"software_version" text,
	"date_time" timestamp with time zone NOT NULL,
	"is_survivor" boolean DEFAULT false NOT NULL,
	"has_family_history" boolean DEFAULT false NOT NULL,
	"has_symptoms" boolean DEFAULT false NOT NULL,
	"under_bust" double precision,
	"over_bust" double precision,
	"latitude" double precision,
	"longitude" double precision,
	"local_db_id" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"breast_type" integer,
	"left_breast_finding" text[] DEFAULT '{}'::text[] NOT NULL,
	"right_breast_finding" text[] DEFAULT '{}'::text[] NOT NULL,
	"is_positive" boolean GENERATED ALWAYS AS ((cardinality(left_breast_finding) > 0 OR cardinality(right_breast_finding) > 0)) STORED,
	"notes" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"file_path" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"reviewer_one_id" integer,
	"reviewer_one_status" text DEFAULT 'NOT_REVIEWED' NOT NULL,
	"reviewer_two_id" integer,
	"reviewer_two_status" text DEFAULT 'NOT_REVIEWED' NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"modified_by" integer
);
--> statement-breakpoint
CREATE TABLE "cervical_qualities" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"is_required" boolean DEFAULT false NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"z_order" integer DEFAULT 0 NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "licence_logs" (
	"id" serial PRIMARY KEY NOT NULL,
	"license_id" integer NOT NULL,
	"before_count" integer NOT NULL,
	"after_count" integer NOT NULL,
	"renewal_datetime" timestamp with time zone DEFAULT now() NOT NULL,
	"renewed_by" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "licences" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"license_code" text NOT NULL,
	"pin" text NOT NULL,
	"application" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	"total_license_count" integer DEFAULT 0 NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"modified_by" integer
);
--> statement-breakpoint
CREATE TABLE "orca_case_histories" (
	"id" serial PRIMARY KEY NOT NULL,
	"exam_id" integer NOT NULL,
	"consumes_alcohol" boolean DEFAULT false NOT NULL,
	"alcohol_usage_last_year" text,
	"consumes_other_substance" boolean DEFAULT false NOT NULL,
	"other_substance_consumed" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"has_hypertension" boolean DEFAULT false NOT NULL,
	"had_heart_attack" boolean DEFAULT false NOT NULL,
	"has_asthma_bronchitis" boolean DEFAULT false NOT NULL,
	"has_diabetes" boolean DEFAULT false NOT NULL,
	"has_stroke" boolean DEFAULT false NOT NULL,
	"uses_tobacco" boolean DEFAULT false NOT NULL,
	"consumes_smoking_tobacco" boolean DEFAULT false NOT NULL,
	"smoking_tobacco_type" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"smoking_tobacco_usage_frequency" text,
	"smoking_history_time_months" integer,
	"smokes_per_unit" double precision,
	"smoke_count_unit" text,
	"smoking_quit_months_ago" integer,
	"consumes_smokeless_tobacco" boolean DEFAULT false NOT NULL,
	"smokeless_tobacco_type" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"smokeless_tobacco_usage_frequency" text,
	"smokeless_history_time_months" integer,
	"smokeless_packets_count_unit" double precision,
	"smokeless_packets_duration_unit" text,
	"smokeless_quit_months_ago" integer,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orca_exams" (
	"id" serial PRIMARY KEY NOT NULL,
	"patient_id" integer,
	"organization_id" integer,
	"technician_id" integer,
	"device_serial_number" text,
	"sensor_serial_number" text,
	"tablet_serial_number" text,
	"hardware_version" text,
	"software_version" text,
	"date_time" timestamp with time zone NOT NULL,
	"is_survivor" boolean DEFAULT false NOT NULL,
	"has_family_history" boolean DEFAULT false NOT NULL,
	"has_symptoms" boolean DEFAULT false NOT NULL,
	"under_bust" double precision,
	"over_bust" double precision,
	"latitude" double precision,
	"longitude" double precision,
	"local_db_id" text,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"license_id" integer,
	"licence_code" text,
	"current_report_count" integer,
	"cancer_history" boolean DEFAULT false NOT NULL,
	"file_path" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"modified_by" integer
);
--> statement-breakpoint
CREATE TABLE "orca_findings" (
	"id" serial PRIMARY KEY NOT NULL,
	"exam_id" integer NOT NULL,
	"exam" text NOT NULL,
	"part" text NOT NULL,
	"sub_part" text,
	"index" integer DEFAULT 0 NOT NULL,
	"symptoms" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"path" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "firmware" (
	"id" serial PRIMARY KEY NOT NULL,
	"version" text NOT NULL,
	"path" text NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"modified_by" integer
);
--> statement-breakpoint
CREATE TABLE "bookings" (
	"id" serial PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"mobile" text,
	"email" text,
	"age" integer,
	"slot_id" integer,
	"organization_id" integer NOT NULL,
	"currency" text,
	"price" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'NEW' NOT NULL,
	"status_changed" timestamp with time zone DEFAULT now() NOT NULL,
	"payment" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"modified_by" integer
);
--> statement-breakpoint
CREATE TABLE "slots" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"start" timestamp with time zone NOT NULL,
	"end" timestamp with time zone NOT NULL,
	"capacity" integer DEFAULT 1 NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"code" varchar(10) NOT NULL,
	"tutorial_version" numeric,
	"notes" jsonb DEFAULT '{"note":""}'::jsonb NOT NULL,
	"type" text NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"modified_by" integer
);
--> statement-breakpoint
CREATE TABLE "tutorial_contents" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"primary_text" text,
	"z_order" integer DEFAULT 0 NOT NULL,
	"primary_image" text,
	"app_version_id" integer,
	"module_id" integer NOT NULL,
	"status" text DEFAULT 'PUBLISHED' NOT NULL,
	"localize" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"modified_by" integer
);
--> statement-breakpoint
CREATE TABLE "tutorial_module_completions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"module_id" integer NOT NULL,
	"completed" boolean DEFAULT false NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"completed_at" timestamp with time zone,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tutorial_modules" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"pass_text" text,
	"re_take_module_again_text" text,
	"re_take_module_text" text,
	"re_take_question_percentage" integer,
	"re_take_question_text" text,
	"z_order" integer DEFAULT 0 NOT NULL,
	"icon" text,
	"status" text DEFAULT 'PUBLISHED' NOT NULL,
	"localize" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"modified_by" integer
);
--> statement-breakpoint
CREATE TABLE "tutorial_quiz_options" (
	"id" serial PRIMARY KEY NOT NULL,
	"option" text NOT NULL,
	"question_id" integer NOT NULL,
	"z_order" integer DEFAULT 0 NOT NULL,
	"is_select_all_or_none" boolean DEFAULT false NOT NULL,
	"is_correct" boolean DEFAULT false NOT NULL,
	"localize" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"modified_by" integer
);
--> statement-breakpoint
CREATE TABLE "tutorial_quizzes" (
	"id" serial PRIMARY KEY NOT NULL,
	"question" text NOT NULL,
	"is_multi_select" boolean DEFAULT false NOT NULL,
	"z_order" integer DEFAULT 0 NOT NULL,
	"primary_image" text,
	"module_id" integer NOT NULL,
	"localize" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	"modified_by" integer
);
--> statement-breakpoint
CREATE TABLE "report_logs" (
	"id" serial PRIMARY KEY NOT NULL,
	"api" text NOT NULL,
	"api_qp" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"user_agent" text,
	"requested_method" text DEFAULT 'GET' NOT NULL,
	"user_id" integer,
	"user_type" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "files" (
	"id" serial PRIMARY KEY NOT NULL,
	"path" text NOT NULL,
	"folder" text NOT NULL,
	"original_name" text,
	"organization_id" integer,
	"user_id" integer,
	"content_type" text NOT NULL,
	"size" bigint NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" serial PRIMARY KEY NOT NULL,
	"organization_id" integer NOT NULL,
	"scan_id" integer NOT NULL,
	"url" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_status_code" integer,
	"last_error" text,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_language_id_languages_id_fk" FOREIGN KEY ("language_id") REFERENCES "public"."languages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organizations" ADD CONSTRAINT "organizations_parent_id_organizations_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."organizations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "references" ADD CONSTRAINT "references_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manager_organizations" ADD CONSTRAINT "manager_organizations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "manager_organizations" ADD CONSTRAINT "manager_organizations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "one_time_codes" ADD CONSTRAINT "one_time_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_impersonator_id_users_id_fk" FOREIGN KEY ("impersonator_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_devices" ADD CONSTRAINT "organization_devices_device_id_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."devices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_devices" ADD CONSTRAINT "organization_devices_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_reference_id_references_id_fk" FOREIGN KEY ("reference_id") REFERENCES "public"."references"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_technician_id_users_id_fk" FOREIGN KEY ("technician_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_technician_id_users_id_fk" FOREIGN KEY ("technician_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_parent_scan_id_scans_id_fk" FOREIGN KEY ("parent_scan_id") REFERENCES "public"."scans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cervical_document_reviews" ADD CONSTRAINT "cervical_document_reviews_document_id_cervical_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."cervical_documents"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cervical_document_reviews" ADD CONSTRAINT "cervical_document_reviews_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cervical_documents" ADD CONSTRAINT "cervical_documents_exam_id_cervical_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."cervical_exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cervical_exams" ADD CONSTRAINT "cervical_exams_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cervical_exams" ADD CONSTRAINT "cervical_exams_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cervical_exams" ADD CONSTRAINT "cervical_exams_technician_id_users_id_fk" FOREIGN KEY ("technician_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cervical_exams" ADD CONSTRAINT "cervical_exams_reviewer_one_id_users_id_fk" FOREIGN KEY ("reviewer_one_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cervical_exams" ADD CONSTRAINT "cervical_exams_reviewer_two_id_users_id_fk" FOREIGN KEY ("reviewer_two_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licence_logs" ADD CONSTRAINT "licence_logs_license_id_licences_id_fk" FOREIGN KEY ("license_id") REFERENCES "public"."licences"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licence_logs" ADD CONSTRAINT "licence_logs_renewed_by_users_id_fk" FOREIGN KEY ("renewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "licences" ADD CONSTRAINT "licences_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orca_case_histories" ADD CONSTRAINT "orca_case_histories_exam_id_orca_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."orca_exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orca_exams" ADD CONSTRAINT "orca_exams_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orca_exams" ADD CONSTRAINT "orca_exams_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orca_exams" ADD CONSTRAINT "orca_exams_technician_id_users_id_fk" FOREIGN KEY ("technician_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orca_exams" ADD CONSTRAINT "orca_exams_license_id_licences_id_fk" FOREIGN KEY ("license_id") REFERENCES "public"."licences"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orca_findings" ADD CONSTRAINT "orca_findings_exam_id_orca_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "public"."orca_exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_slot_id_slots_id_fk" FOREIGN KEY ("slot_id") REFERENCES "public"."slots"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "slots" ADD CONSTRAINT "slots_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tutorial_contents" ADD CONSTRAINT "tutorial_contents_app_version_id_app_versions_id_fk" FOREIGN KEY ("app_version_id") REFERENCES "public"."app_versions"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tutorial_contents" ADD CONSTRAINT "tutorial_contents_module_id_tutorial_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."tutorial_modules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tutorial_module_completions" ADD CONSTRAINT "tutorial_module_completions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tutorial_module_completions" ADD CONSTRAINT "tutorial_module_completions_module_id_tutorial_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."tutorial_modules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tutorial_quiz_options" ADD CONSTRAINT "tutorial_quiz_options_question_id_tutorial_quizzes_id_fk" FOREIGN KEY ("question_id") REFERENCES "public"."tutorial_quizzes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tutorial_quizzes" ADD CONSTRAINT "tutorial_quizzes_module_id_tutorial_modules_id_fk" FOREIGN KEY ("module_id") REFERENCES "public"."tutorial_modules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_logs" ADD CONSTRAINT "report_logs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_scan_id_scans_id_fk" FOREIGN KEY ("scan_id") REFERENCES "public"."scans"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "languages_iso_code_uq" ON "languages" USING btree (lower("iso_code"));--> statement-breakpoint
CREATE INDEX "languages_name_idx" ON "languages" USING btree ("name");--> statement-breakpoint
CREATE INDEX "organizations_parent_idx" ON "organizations" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "organizations_tree_path_idx" ON "organizations" USING btree ("tree_path" text_pattern_ops);--> statement-breakpoint
CREATE INDEX "organizations_created_idx" ON "organizations" USING btree ("created");--> statement-breakpoint
CREATE INDEX "organizations_distributor_idx" ON "organizations" USING btree ("can_create_organization");--> statement-breakpoint
CREATE INDEX "organizations_name_trgm_idx" ON "organizations" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "organizations_address_trgm_idx" ON "organizations" USING gin ((coalesce("address_1", '') || ' ' || coalesce("address_2", '') || ' ' || coalesce("address_3", '')) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "references_org_idx" ON "references" USING btree ("organization_id","is_active");--> statement-breakpoint
CREATE INDEX "audit_log_created_idx" ON "audit_log" USING btree ("created");--> statement-breakpoint
CREATE INDEX "audit_log_actor_idx" ON "audit_log" USING btree ("actor_id","created");--> statement-breakpoint
CREATE INDEX "audit_log_action_idx" ON "audit_log" USING btree ("action");--> statement-breakpoint
CREATE UNIQUE INDEX "manager_organizations_uq" ON "manager_organizations" USING btree ("user_id","organization_id");--> statement-breakpoint
CREATE INDEX "manager_organizations_org_idx" ON "manager_organizations" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "one_time_codes_target_idx" ON "one_time_codes" USING btree ("purpose","target","created");--> statement-breakpoint
CREATE INDEX "one_time_codes_hash_idx" ON "one_time_codes" USING btree ("code_hash");--> statement-breakpoint
CREATE INDEX "outbox_to_idx" ON "outbox_messages" USING btree ("to","created");--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_token_hash_uq" ON "sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_uq" ON "users" USING btree ("username");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_uq" ON "users" USING btree (lower("email")) WHERE "users"."email" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "users_mobile_uq" ON "users" USING btree ("mobile") WHERE "users"."mobile" is not null;--> statement-breakpoint
CREATE INDEX "users_org_type_idx" ON "users" USING btree ("organization_id","user_type");--> statement-breakpoint
CREATE INDEX "users_type_idx" ON "users" USING btree ("user_type");--> statement-breakpoint
CREATE INDEX "users_created_idx" ON "users" USING btree ("created");--> statement-breakpoint
CREATE INDEX "users_cert_expiry_idx" ON "users" USING btree ("certificate_expiry_date");--> statement-breakpoint
CREATE INDEX "users_name_trgm_idx" ON "users" USING gin (("first_name" || ' ' || "last_name" || ' ' || coalesce("email", '') || ' ' || coalesce("mobile", '')) gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "devices_serial_number_uq" ON "devices" USING btree ("serial_number");--> statement-breakpoint
CREATE INDEX "devices_created_idx" ON "devices" USING btree ("created");--> statement-breakpoint
CREATE INDEX "devices_serial_trgm_idx" ON "devices" USING gin ("serial_number" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "organization_devices_active_uq" ON "organization_devices" USING btree ("device_id") WHERE "organization_devices"."is_active";--> statement-breakpoint
CREATE INDEX "organization_devices_org_idx" ON "organization_devices" USING btree ("organization_id") WHERE "organization_devices"."is_active";--> statement-breakpoint
CREATE INDEX "organization_devices_device_idx" ON "organization_devices" USING btree ("device_id","created");--> statement-breakpoint
CREATE INDEX "patients_org_created_idx" ON "patients" USING btree ("organization_id","created");--> statement-breakpoint
CREATE INDEX "patients_created_idx" ON "patients" USING btree ("created");--> statement-breakpoint
CREATE INDEX "patients_technician_idx" ON "patients" USING btree ("technician_id");--> statement-breakpoint
CREATE INDEX "patients_device_local_idx" ON "patients" USING btree ("device_serial_number","local_db_id");--> statement-breakpoint
CREATE INDEX "patients_search_trgm_idx" ON "patients" USING gin (("first_name" || ' ' || "last_name" || ' ' || coalesce("mobile", '') || ' ' || coalesce("email", '')) gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "scans_device_local_uq" ON "scans" USING btree ("device_serial_number","local_db_id") WHERE "scans"."parent_scan_id" is null;--> statement-breakpoint
CREATE INDEX "scans_org_date_idx" ON "scans" USING btree ("organization_id","date_time");--> statement-breakpoint
CREATE INDEX "scans_technician_date_idx" ON "scans" USING btree ("technician_id","date_time");--> statement-breakpoint
CREATE INDEX "scans_device_date_idx" ON "scans" USING btree ("device_serial_number","date_time");--> statement-breakpoint
CREATE INDEX "scans_stats_idx" ON "scans" USING btree ("scan_type","date_time","organization_id","is_positive");--> statement-breakpoint
CREATE INDEX "scans_date_idx" ON "scans" USING btree ("date_time");--> statement-breakpoint
CREATE INDEX "scans_created_idx" ON "scans" USING btree ("created");--> statement-breakpoint
CREATE INDEX "scans_parent_idx" ON "scans" USING btree ("parent_scan_id") WHERE "scans"."parent_scan_id" is not null;--> statement-breakpoint
CREATE INDEX "scans_patient_idx" ON "scans" USING btree ("patient_id");--> statement-breakpoint
CREATE INDEX "scans_sensor_idx" ON "scans" USING btree ("sensor_serial_number");--> statement-breakpoint
CREATE UNIQUE INDEX "cervical_document_reviews_uq" ON "cervical_document_reviews" USING btree ("document_id","user_id");--> statement-breakpoint
CREATE INDEX "cervical_document_reviews_user_idx" ON "cervical_document_reviews" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "cervical_documents_exam_idx" ON "cervical_documents" USING btree ("exam_id","document_type");--> statement-breakpoint
CREATE UNIQUE INDEX "cervical_exams_device_local_uq" ON "cervical_exams" USING btree ("device_serial_number","local_db_id");--> statement-breakpoint
CREATE INDEX "cervical_exams_org_date_idx" ON "cervical_exams" USING btree ("organization_id","date_time");--> statement-breakpoint
CREATE INDEX "cervical_exams_date_idx" ON "cervical_exams" USING btree ("date_time");--> statement-breakpoint
CREATE INDEX "cervical_exams_technician_date_idx" ON "cervical_exams" USING btree ("technician_id","date_time");--> statement-breakpoint
CREATE INDEX "cervical_exams_device_idx" ON "cervical_exams" USING btree ("device_serial_number");--> statement-breakpoint
CREATE INDEX "cervical_exams_patient_idx" ON "cervical_exams" USING btree ("patient_id");--> statement-breakpoint
CREATE INDEX "cervical_exams_reviewer_status_idx" ON "cervical_exams" USING btree ("reviewer_one_status","reviewer_two_status");--> statement-breakpoint
CREATE INDEX "licence_logs_license_idx" ON "licence_logs" USING btree ("license_id","created");--> statement-breakpoint
CREATE UNIQUE INDEX "licences_license_code_uq" ON "licences" USING btree ("license_code");--> statement-breakpoint
CREATE INDEX "licences_org_idx" ON "licences" USING btree ("organization_id","application");--> statement-breakpoint
CREATE INDEX "licences_created_idx" ON "licences" USING btree ("created");--> statement-breakpoint
CREATE UNIQUE INDEX "orca_case_histories_exam_uq" ON "orca_case_histories" USING btree ("exam_id");--> statement-breakpoint
CREATE UNIQUE INDEX "orca_exams_device_local_uq" ON "orca_exams" USING btree ("device_serial_number","local_db_id");--> statement-breakpoint
CREATE INDEX "orca_exams_org_date_idx" ON "orca_exams" USING btree ("organization_id","date_time");--> statement-breakpoint
CREATE INDEX "orca_exams_date_idx" ON "orca_exams" USING btree ("date_time");--> statement-breakpoint
CREATE INDEX "orca_exams_technician_date_idx" ON "orca_exams" USING btree ("technician_id","date_time");--> statement-breakpoint
CREATE INDEX "orca_exams_device_idx" ON "orca_exams" USING btree ("device_serial_number");--> statement-breakpoint
CREATE INDEX "orca_exams_patient_idx" ON "orca_exams" USING btree ("patient_id");--> statement-breakpoint
CREATE INDEX "orca_exams_licence_code_idx" ON "orca_exams" USING btree ("licence_code");--> statement-breakpoint
CREATE INDEX "orca_findings_exam_idx" ON "orca_findings" USING btree ("exam_id","exam","index");--> statement-breakpoint
CREATE UNIQUE INDEX "firmware_version_uq" ON "firmware" USING btree ("version");--> statement-breakpoint
CREATE INDEX "firmware_created_idx" ON "firmware" USING btree ("created");--> statement-breakpoint
CREATE UNIQUE INDEX "bookings_token_uq" ON "bookings" USING btree ("token");--> statement-breakpoint
CREATE INDEX "bookings_org_created_idx" ON "bookings" USING btree ("organization_id","created");--> statement-breakpoint
CREATE INDEX "bookings_created_idx" ON "bookings" USING btree ("created");--> statement-breakpoint
CREATE INDEX "bookings_slot_idx" ON "bookings" USING btree ("slot_id");--> statement-breakpoint
CREATE INDEX "bookings_status_idx" ON "bookings" USING btree ("status");--> statement-breakpoint
CREATE INDEX "bookings_search_trgm_idx" ON "bookings" USING gin (("first_name" || ' ' || "last_name" || ' ' || coalesce("mobile", '') || ' ' || coalesce("email", '')) gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "slots_org_start_uq" ON "slots" USING btree ("organization_id","start");--> statement-breakpoint
CREATE INDEX "app_versions_type_idx" ON "app_versions" USING btree ("type","created");--> statement-breakpoint
CREATE INDEX "tutorial_contents_module_idx" ON "tutorial_contents" USING btree ("module_id","z_order");--> statement-breakpoint
CREATE UNIQUE INDEX "tutorial_module_completions_uq" ON "tutorial_module_completions" USING btree ("user_id","module_id");--> statement-breakpoint
CREATE INDEX "tutorial_module_completions_module_idx" ON "tutorial_module_completions" USING btree ("module_id");--> statement-breakpoint
CREATE INDEX "tutorial_modules_z_order_idx" ON "tutorial_modules" USING btree ("z_order");--> statement-breakpoint
CREATE INDEX "tutorial_quiz_options_question_idx" ON "tutorial_quiz_options" USING btree ("question_id","z_order");--> statement-breakpoint
CREATE INDEX "tutorial_quizzes_module_idx" ON "tutorial_quizzes" USING btree ("module_id","z_order");--> statement-breakpoint
CREATE INDEX "report_logs_created_idx" ON "report_logs" USING btree ("created");--> statement-breakpoint
CREATE INDEX "report_logs_user_idx" ON "report_logs" USING btree ("user_id","created");--> statement-breakpoint
CREATE UNIQUE INDEX "files_path_uq" ON "files" USING btree ("path");--> statement-breakpoint
CREATE INDEX "files_org_idx" ON "files" USING btree ("organization_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_org_idx" ON "webhook_deliveries" USING btree ("organization_id","created");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_scan_idx" ON "webhook_deliveries" USING btree ("scan_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_pending_idx" ON "webhook_deliveries" USING btree ("status") WHERE "webhook_deliveries"."status" = 'pending';