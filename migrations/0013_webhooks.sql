CREATE TABLE "webhook_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"endpoint_id" integer NOT NULL,
	"event" text NOT NULL,
	"subject" jsonb NOT NULL,
	"body" text,
	"state" text DEFAULT 'new' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"response_status" integer,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"queued_at" timestamp with time zone,
	"last_attempt_at" timestamp with time zone,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "webhook_endpoints_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"url" text NOT NULL,
	"events" jsonb NOT NULL,
	"secret_ciphertext" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_idx" ON "webhook_deliveries" USING btree ("endpoint_id","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_open_idx" ON "webhook_deliveries" USING btree ("state","id") WHERE "webhook_deliveries"."state" in ('new', 'sending');--> statement-breakpoint
CREATE INDEX "webhook_endpoints_user_idx" ON "webhook_endpoints" USING btree ("user_id");
--> statement-breakpoint
-- Hand-written: the events reach webhook_deliveries in the statement that makes them happen, whichever code path
-- changed the row (the sync, a cancel, an administrator), so none is missed and none is told without having happened.
-- Only endpoints subscribed to the event get a row; an account without webhooks costs one index probe.
-- The words are the reseller protocol's: an order or refill not yet at the provider is Pending, so that step is no change.
CREATE FUNCTION "webhook_order_status"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was text := CASE WHEN OLD."status" = 'Pending Submission' THEN 'Pending' ELSE OLD."status" END;
  now_is text := CASE WHEN NEW."status" = 'Pending Submission' THEN 'Pending' ELSE NEW."status" END;
BEGIN
  IF was IS DISTINCT FROM now_is THEN
    INSERT INTO "webhook_deliveries" ("endpoint_id", "event", "subject")
    SELECT e."id", 'order.status', jsonb_build_object('order', NEW."id", 'status', now_is)
    FROM "webhook_endpoints" e WHERE e."user_id" = NEW."user_id" AND e."events" ? 'order.status';
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "orders_webhook_status" AFTER UPDATE OF "status" ON "orders"
  FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status") EXECUTE FUNCTION "webhook_order_status"();--> statement-breakpoint
CREATE FUNCTION "webhook_refill_status"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  was text := CASE WHEN OLD."status" = 'Requesting' THEN 'Pending' ELSE OLD."status" END;
  now_is text := CASE WHEN NEW."status" = 'Requesting' THEN 'Pending' ELSE NEW."status" END;
BEGIN
  IF was IS DISTINCT FROM now_is THEN
    INSERT INTO "webhook_deliveries" ("endpoint_id", "event", "subject")
    SELECT e."id", 'refill.status', jsonb_build_object('refill', NEW."id", 'order', NEW."order_id", 'status', now_is)
    FROM "orders" o JOIN "webhook_endpoints" e ON e."user_id" = o."user_id"
    WHERE o."id" = NEW."order_id" AND e."events" ? 'refill.status';
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "order_refills_webhook_status" AFTER UPDATE OF "status" ON "order_refills"
  FOR EACH ROW WHEN (OLD."status" IS DISTINCT FROM NEW."status") EXECUTE FUNCTION "webhook_refill_status"();--> statement-breakpoint
-- The low-balance alert is armed once per fall below the user's threshold (notification-emails.ts), as is its webhook.
CREATE FUNCTION "webhook_balance_low"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "webhook_deliveries" ("endpoint_id", "event", "subject")
  SELECT e."id", 'balance.low', jsonb_build_object('balance_kobo', w."balance_kobo"::text, 'threshold_kobo', NEW."low_balance_kobo"::text)
  FROM "webhook_endpoints" e JOIN "wallets" w ON w."user_id" = e."user_id"
  WHERE e."user_id" = NEW."user_id" AND e."events" ? 'balance.low';
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "notification_settings_webhook_balance_low" AFTER UPDATE OF "low_balance_alerted_at" ON "notification_settings"
  FOR EACH ROW WHEN (OLD."low_balance_alerted_at" IS NULL AND NEW."low_balance_alerted_at" IS NOT NULL) EXECUTE FUNCTION "webhook_balance_low"();
