CREATE TABLE "ledger_exports" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"requested_by" integer,
	"filters" jsonb NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"row_count" integer,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "ledger_exports_state_check" CHECK ("ledger_exports"."state" in ('queued', 'running', 'done', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "ledger_exports" ADD CONSTRAINT "ledger_exports_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_exports_created_idx" ON "ledger_exports" USING btree ("created_at");