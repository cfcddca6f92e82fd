ALTER TABLE "notification_settings" ADD COLUMN "api_order_digest" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_settings" ADD COLUMN "api_digest_through" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "api_key_id" integer;--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_api_key_id_api_keys_id_fk" FOREIGN KEY ("api_key_id") REFERENCES "public"."api_keys"("id") ON DELETE set null ON UPDATE no action;