CREATE TABLE "booking_pages" (
	"organization_id" integer PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"created" timestamp with time zone DEFAULT now() NOT NULL,
	"modified" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "client_address" text;--> statement-breakpoint
ALTER TABLE "booking_pages" ADD CONSTRAINT "booking_pages_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "booking_pages_token_uq" ON "booking_pages" USING btree ("token");--> statement-breakpoint
CREATE INDEX "bookings_mobile_created_idx" ON "bookings" USING btree ("mobile","created");--> statement-breakpoint
CREATE INDEX "bookings_client_address_created_idx" ON "bookings" USING btree ("client_address","created");