ALTER TABLE "orders" ADD COLUMN "provider_charge_micros" bigint;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "provider_note" text;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "unreadable_syncs" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "providers" ADD COLUMN "unhealthy_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "refill_days" integer;--> statement-breakpoint
ALTER TABLE "services" ADD COLUMN "link_kind" text;--> statement-breakpoint
ALTER TABLE "services" ADD CONSTRAINT "services_refill_days_check" CHECK ("services"."refill_days" is null or "services"."refill_days" > 0);