CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE "catalogue_warnings" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"provider_id" integer,
	"service_id" integer,
	"order_id" integer,
	"message" text NOT NULL,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_by" integer
);
--> statement-breakpoint
CREATE TABLE "exchange_rates" (
	"currency" text PRIMARY KEY NOT NULL,
	"per_usd_micros" bigint NOT NULL,
	"source_updated_at" timestamp with time zone NOT NULL,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exchange_rates_positive" CHECK ("exchange_rates"."per_usd_micros" > 0)
);
--> statement-breakpoint
CREATE TABLE "order_refills" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "order_refills_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"order_id" integer NOT NULL,
	"provider_refill_id" text,
	"status" text DEFAULT 'Requesting' NOT NULL,
	"error" text,
	"requested_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "orders" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "orders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"service_id" integer NOT NULL,
	"provider_id" integer NOT NULL,
	"provider_service_id" text NOT NULL,
	"service_name" text NOT NULL,
	"link" text NOT NULL,
	"quantity" integer NOT NULL,
	"deliverable" integer NOT NULL,
	"extras" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"rate_kobo" bigint NOT NULL,
	"cost_kobo" bigint NOT NULL,
	"charge_kobo" bigint NOT NULL,
	"refunded_kobo" bigint DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'Pending Submission' NOT NULL,
	"status_reason" text,
	"submission" text DEFAULT 'queued' NOT NULL,
	"submission_error" text,
	"submit_attempts" integer DEFAULT 0 NOT NULL,
	"submission_started_at" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"provider_order_id" text,
	"start_count" integer,
	"remains" integer,
	"cancel_requested_at" timestamp with time zone,
	"idempotency_key" text,
	"last_synced_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "orders_amounts_check" CHECK ("orders"."charge_kobo" > 0 and "orders"."refunded_kobo" >= 0 and "orders"."refunded_kobo" <= "orders"."charge_kobo"),
	CONSTRAINT "orders_quantity_check" CHECK ("orders"."quantity" > 0 and "orders"."deliverable" > 0)
);
--> statement-breakpoint
CREATE TABLE "providers" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "providers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"api_url" text NOT NULL,
	"api_key_encrypted" text NOT NULL,
	"currency" text DEFAULT 'USD' NOT NULL,
	"timeout_ms" integer DEFAULT 15000 NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"low_balance_micros" bigint,
	"balance_micros" bigint,
	"balance_checked_at" timestamp with time zone,
	"catalogue_synced_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "providers_timeout_check" CHECK ("providers"."timeout_ms" between 1000 and 60000)
);
--> statement-breakpoint
CREATE TABLE "service_categories" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "service_categories_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"platform" text DEFAULT 'Other' NOT NULL,
	"markup_bps" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_categories_markup_check" CHECK ("service_categories"."markup_bps" is null or "service_categories"."markup_bps" >= 0)
);
--> statement-breakpoint
CREATE TABLE "services" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "services_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"provider_id" integer NOT NULL,
	"provider_service_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"category_id" integer NOT NULL,
	"type" text DEFAULT 'Default' NOT NULL,
	"provider_rate_micros" bigint NOT NULL,
	"cost_kobo" bigint NOT NULL,
	"rate_kobo" bigint NOT NULL,
	"price_mode" text DEFAULT 'markup' NOT NULL,
	"markup_bps" integer,
	"min" integer NOT NULL,
	"max" integer NOT NULL,
	"provider_min" integer NOT NULL,
	"provider_max" integer NOT NULL,
	"refill" boolean DEFAULT false NOT NULL,
	"cancel" boolean DEFAULT false NOT NULL,
	"dripfeed" boolean DEFAULT false NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"disabled_reason" text,
	"average_time_seconds" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "services_rate_check" CHECK ("services"."rate_kobo" > 0 and "services"."cost_kobo" >= 0 and "services"."provider_rate_micros" >= 0),
	CONSTRAINT "services_range_check" CHECK ("services"."min" >= 1 and "services"."max" >= "services"."min"),
	CONSTRAINT "services_markup_check" CHECK ("services"."markup_bps" is null or "services"."markup_bps" >= 0)
);
--> statement-breakpoint
ALTER TABLE "catalogue_warnings" ADD CONSTRAINT "catalogue_warnings_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalogue_warnings" ADD CONSTRAINT "catalogue_warnings_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "catalogue_warnings" ADD CONSTRAINT "catalogue_warnings_acknowledged_by_users_id_fk" FOREIGN KEY ("acknowledged_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_refills" ADD CONSTRAINT "order_refills_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "order_refills" ADD CONSTRAINT "order_refills_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_service_id_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."services"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "services" ADD CONSTRAINT "services_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "services" ADD CONSTRAINT "services_category_id_service_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."service_categories"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "catalogue_warnings_open_idx" ON "catalogue_warnings" USING btree ("acknowledged_at","created_at");--> statement-breakpoint
CREATE INDEX "order_refills_order_idx" ON "order_refills" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "order_refills_open_key" ON "order_refills" USING btree ("order_id") WHERE "order_refills"."status" in ('Requesting', 'Pending', 'In progress');--> statement-breakpoint
CREATE UNIQUE INDEX "orders_user_idempotency_key" ON "orders" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "orders_provider_order_key" ON "orders" USING btree ("provider_id","provider_order_id");--> statement-breakpoint
CREATE INDEX "orders_user_created_idx" ON "orders" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "orders_created_idx" ON "orders" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "orders_service_idx" ON "orders" USING btree ("service_id");--> statement-breakpoint
CREATE INDEX "orders_status_idx" ON "orders" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "orders_sync_idx" ON "orders" USING btree ("provider_id","last_synced_at") WHERE "orders"."submission" = 'accepted' and "orders"."status" in ('Pending', 'In progress', 'Processing');--> statement-breakpoint
CREATE INDEX "orders_submission_idx" ON "orders" USING btree ("provider_id","submission") WHERE "orders"."submission" in ('queued', 'sending', 'unknown');--> statement-breakpoint
CREATE INDEX "orders_link_trgm_idx" ON "orders" USING gin ("link" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "providers_name_key" ON "providers" USING btree ("name");--> statement-breakpoint
CREATE UNIQUE INDEX "service_categories_name_key" ON "service_categories" USING btree ("name");--> statement-breakpoint
CREATE UNIQUE INDEX "services_provider_service_key" ON "services" USING btree ("provider_id","provider_service_id");--> statement-breakpoint
CREATE INDEX "services_category_idx" ON "services" USING btree ("category_id","id");--> statement-breakpoint
CREATE INDEX "services_enabled_idx" ON "services" USING btree ("enabled","id");--> statement-breakpoint
CREATE INDEX "services_name_trgm_idx" ON "services" USING gin ("name" gin_trgm_ops);