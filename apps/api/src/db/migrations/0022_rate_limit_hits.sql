-- Per-IP request limits shared by every API instance (issue 25): @fastify/rate-limit counts in this table
-- (http/rate-limit-store.ts) instead of each process's memory, where two instances doubled every limit. One row per
-- route and client address: the hits of the current fixed window and when it ends; each hit is one upsert.
-- UNLOGGED: no WAL for a write on every sign-in attempt, and not copied to replicas (only the primary counts). A
-- crash of the database server empties it, which forgets at most one window of counts (a minute for the sign-in
-- limits), and the per-account limits, kept in the audit log, still hold. Not in the Drizzle schema (plain SQL, like
-- scan_hour_counts). Expired rows are reused by the next hit of their key, or pruned (jobs/rate-limit-prune.job.ts).
CREATE UNLOGGED TABLE IF NOT EXISTS "rate_limit_hits" (
	"key" text PRIMARY KEY NOT NULL,
	"hits" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "rate_limit_hits_expires_idx" ON "rate_limit_hits" USING btree ("expires_at");