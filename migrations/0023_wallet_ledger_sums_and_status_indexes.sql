CREATE TABLE "wallet_ledger_sums" (
	"user_id" integer NOT NULL,
	"source_kind" text NOT NULL,
	"amount_kobo" bigint NOT NULL,
	CONSTRAINT "wallet_ledger_sums_user_id_source_kind_pk" PRIMARY KEY("user_id","source_kind")
);
--> statement-breakpoint
ALTER TABLE "wallet_ledger_sums" ADD CONSTRAINT "wallet_ledger_sums_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "orders_user_status_created_idx" ON "orders" USING btree ("user_id","status","created_at");--> statement-breakpoint
CREATE INDEX "users_suspended_idx" ON "users" USING btree ("created_at","id") WHERE "users"."status" = 'suspended';--> statement-breakpoint
-- Hand-written: the sums counted again from the ledger itself, here for the rows written before this migration, and
-- by bulk loads that write the ledger directly (npm run bench:scale's seed).
CREATE FUNCTION "wallet_ledger_sums_rebuild"() RETURNS void LANGUAGE sql AS $$
  DELETE FROM "wallet_ledger_sums";
  INSERT INTO "wallet_ledger_sums" (user_id, source_kind, amount_kobo)
  SELECT user_id, source_kind, sum(amount_kobo) FROM "wallet_transactions" GROUP BY user_id, source_kind;
$$;--> statement-breakpoint
SELECT "wallet_ledger_sums_rebuild"();
