CREATE TABLE "payment_reversals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"intent_id" bigint NOT NULL,
	"user_id" integer NOT NULL,
	"provider" text NOT NULL,
	"kind" text NOT NULL,
	"event_key" text NOT NULL,
	"status" text NOT NULL,
	"amount_kobo" bigint NOT NULL,
	"taken_kobo" bigint NOT NULL,
	"debt_kobo" bigint NOT NULL,
	"provider_details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	CONSTRAINT "payment_reversals_amounts_check" CHECK ("payment_reversals"."amount_kobo" > 0 and "payment_reversals"."taken_kobo" >= 0 and "payment_reversals"."debt_kobo" >= 0 and "payment_reversals"."taken_kobo" + "payment_reversals"."debt_kobo" <= "payment_reversals"."amount_kobo")
);
--> statement-breakpoint
ALTER TABLE "exchange_rates" DROP CONSTRAINT "exchange_rates_positive";--> statement-breakpoint
ALTER TABLE "exchange_rates" ADD COLUMN "proposed_per_usd_micros" bigint;--> statement-breakpoint
ALTER TABLE "exchange_rates" ADD COLUMN "proposed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "refill_days_by_admin" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "proposed_provider_rate_micros" bigint;--> statement-breakpoint
ALTER TABLE "wallets" ADD COLUMN "debt_kobo" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "payment_reversals" ADD CONSTRAINT "payment_reversals_intent_id_payment_intents_id_fk" FOREIGN KEY ("intent_id") REFERENCES "public"."payment_intents"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payment_reversals" ADD CONSTRAINT "payment_reversals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "payment_reversals_event_key" ON "payment_reversals" USING btree ("provider","event_key");--> statement-breakpoint
CREATE INDEX "payment_reversals_user_idx" ON "payment_reversals" USING btree ("user_id","created_at");--> statement-breakpoint
ALTER TABLE "exchange_rates" ADD CONSTRAINT "exchange_rates_positive" CHECK ("exchange_rates"."per_usd_micros" > 0 and ("exchange_rates"."proposed_per_usd_micros" is null or "exchange_rates"."proposed_per_usd_micros" > 0));--> statement-breakpoint
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_debt_non_negative" CHECK ("wallets"."debt_kobo" >= 0);