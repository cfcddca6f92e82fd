CREATE TABLE "payment_reversal_moves" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"reversal_id" bigint NOT NULL,
	"intent_id" bigint NOT NULL,
	"user_id" integer NOT NULL,
	"party" text NOT NULL,
	"step" text NOT NULL,
	"taken_kobo" bigint DEFAULT 0 NOT NULL,
	"debt_kobo" bigint DEFAULT 0 NOT NULL,
	"returned_kobo" bigint DEFAULT 0 NOT NULL,
	"ledger_ref" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payment_reversal_moves_amounts_check" CHECK ("payment_reversal_moves"."taken_kobo" >= 0 and "payment_reversal_moves"."debt_kobo" >= 0 and "payment_reversal_moves"."returned_kobo" >= 0 and (("payment_reversal_moves"."taken_kobo" + "payment_reversal_moves"."debt_kobo" > 0 and "payment_reversal_moves"."returned_kobo" = 0) or ("payment_reversal_moves"."returned_kobo" > 0 and "payment_reversal_moves"."taken_kobo" + "payment_reversal_moves"."debt_kobo" = 0)))
);
--> statement-breakpoint
ALTER TABLE "payment_reversals" DROP CONSTRAINT "payment_reversals_amounts_check";--> statement-breakpoint
ALTER TABLE "payment_intents" ADD COLUMN "reversed_kobo" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_reversals" ADD COLUMN "due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "payment_intents" ADD COLUMN "payer_fingerprint" text;--> statement-breakpoint
ALTER TABLE "referral_commissions" ADD COLUMN "release_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "referral_commissions" ADD COLUMN "released_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "referral_commissions" ADD COLUMN "credited_kobo" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "referral_commissions" ADD COLUMN "reversed_kobo" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "signup_ip" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "signup_device" text;--> statement-breakpoint
ALTER TABLE "payment_reversal_moves" ADD CONSTRAINT "payment_reversal_moves_reversal_id_payment_reversals_id_fk" FOREIGN KEY ("reversal_id") REFERENCES "public"."payment_reversals"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_reversal_moves" ADD CONSTRAINT "payment_reversal_moves_intent_id_payment_intents_id_fk" FOREIGN KEY ("intent_id") REFERENCES "public"."payment_intents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_reversal_moves" ADD CONSTRAINT "payment_reversal_moves_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_reversal_moves_step_key" ON "payment_reversal_moves" USING btree ("reversal_id","step","party");--> statement-breakpoint
CREATE INDEX "payment_reversal_moves_intent_idx" ON "payment_reversal_moves" USING btree ("intent_id");--> statement-breakpoint
CREATE INDEX "payment_reversal_moves_user_idx" ON "payment_reversal_moves" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "payment_intents_fingerprint_idx" ON "payment_intents" USING btree ("payer_fingerprint");--> statement-breakpoint
CREATE INDEX "payment_reversals_intent_idx" ON "payment_reversals" USING btree ("intent_id");--> statement-breakpoint
CREATE INDEX "referral_commissions_held_idx" ON "referral_commissions" USING btree ("release_at") WHERE "referral_commissions"."released_at" is null;--> statement-breakpoint
-- What the reversals recorded before moves existed becomes their moves: the take when they arrived (legacy ledger
-- references are provider:event_key) and, for a dispute won, the give-back. Each payment's state is their sum.
INSERT INTO "payment_reversal_moves" ("reversal_id", "intent_id", "user_id", "party", "step", "taken_kobo", "debt_kobo", "ledger_ref", "created_at")
SELECT "id", "intent_id", "user_id", 'payer', CASE WHEN "kind" = 'refund' THEN 'taken' ELSE 'dispute_open' END, "taken_kobo", "debt_kobo", "provider" || ':' || "event_key", "created_at"
FROM "payment_reversals" WHERE "taken_kobo" + "debt_kobo" > 0;--> statement-breakpoint
INSERT INTO "payment_reversal_moves" ("reversal_id", "intent_id", "user_id", "party", "step", "returned_kobo", "ledger_ref", "created_at")
SELECT "id", "intent_id", "user_id", 'payer', 'dispute_won', "taken_kobo" + "debt_kobo", "provider" || ':' || "event_key", coalesce("resolved_at", "created_at")
FROM "payment_reversals" WHERE "status" = 'dispute_won' AND "taken_kobo" + "debt_kobo" > 0;--> statement-breakpoint
UPDATE "payment_intents" p SET "reversed_kobo" = m."net"
FROM (SELECT "intent_id", sum("taken_kobo" + "debt_kobo" - "returned_kobo") AS "net" FROM "payment_reversal_moves" GROUP BY "intent_id") m
WHERE m."intent_id" = p."id";--> statement-breakpoint
-- Commissions paid before holds existed were credited when earned.
UPDATE "referral_commissions" SET "release_at" = "created_at", "released_at" = "created_at", "credited_kobo" = "commission_kobo";--> statement-breakpoint
ALTER TABLE "payment_reversals" DROP COLUMN "taken_kobo";--> statement-breakpoint
ALTER TABLE "payment_reversals" DROP COLUMN "debt_kobo";--> statement-breakpoint
ALTER TABLE "payment_intents" ADD CONSTRAINT "payment_intents_reversed_check" CHECK ("payment_intents"."reversed_kobo" >= 0 and "payment_intents"."reversed_kobo" <= "payment_intents"."amount_kobo");--> statement-breakpoint
ALTER TABLE "payment_reversals" ADD CONSTRAINT "payment_reversals_amount_check" CHECK ("payment_reversals"."amount_kobo" >= 0);--> statement-breakpoint
ALTER TABLE "referral_commissions" ADD CONSTRAINT "referral_commissions_follow_check" CHECK ("referral_commissions"."reversed_kobo" >= 0 and "referral_commissions"."reversed_kobo" <= "referral_commissions"."commission_kobo" and "referral_commissions"."credited_kobo" >= 0 and "referral_commissions"."credited_kobo" <= "referral_commissions"."commission_kobo");