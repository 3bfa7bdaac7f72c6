ALTER TABLE "firmware" ADD COLUMN "checksum" text;--> statement-breakpoint
ALTER TABLE "firmware" ADD COLUMN "size" integer;