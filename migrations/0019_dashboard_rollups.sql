CREATE TABLE "dashboard_day_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"day" date NOT NULL,
	"order_status" text DEFAULT '' NOT NULL,
	"deposits_kobo" bigint DEFAULT 0 NOT NULL,
	"bank_transfers_kobo" bigint DEFAULT 0 NOT NULL,
	"reversed_kobo" bigint DEFAULT 0 NOT NULL,
	"admin_credits_kobo" bigint DEFAULT 0 NOT NULL,
	"spend_kobo" bigint DEFAULT 0 NOT NULL,
	"cost_kobo" bigint DEFAULT 0 NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	"new_users" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dashboard_days" (
	"day" date NOT NULL,
	"order_status" text DEFAULT '' NOT NULL,
	"deposits_kobo" bigint DEFAULT 0 NOT NULL,
	"bank_transfers_kobo" bigint DEFAULT 0 NOT NULL,
	"reversed_kobo" bigint DEFAULT 0 NOT NULL,
	"admin_credits_kobo" bigint DEFAULT 0 NOT NULL,
	"spend_kobo" bigint DEFAULT 0 NOT NULL,
	"cost_kobo" bigint DEFAULT 0 NOT NULL,
	"orders" integer DEFAULT 0 NOT NULL,
	"new_users" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "dashboard_days_day_order_status_pk" PRIMARY KEY("day","order_status")
);
--> statement-breakpoint
-- Hand-written: what each row of orders, payment_intents, wallet_transactions and users adds to the dashboard's
-- figures, as admin-dashboard.ts counted them from those tables (a NULL day: nothing). A row of
-- dashboard_day_changes with its id left NULL.
CREATE FUNCTION "dashboard_order_fact"(o "orders", sign integer) RETURNS "dashboard_day_changes" LANGUAGE sql IMMUTABLE AS $$
  SELECT NULL::bigint, (o.created_at AT TIME ZONE 'UTC')::date, o.status::text, 0::bigint, 0::bigint, 0::bigint, 0::bigint,
    sign * (o.charge_kobo - o.refunded_kobo), sign * round(o.cost_kobo::numeric * (o.charge_kobo - o.refunded_kobo) / o.charge_kobo)::bigint, sign, 0
$$;--> statement-breakpoint
CREATE FUNCTION "dashboard_payment_fact"(p "payment_intents", sign integer) RETURNS "dashboard_day_changes" LANGUAGE sql IMMUTABLE AS $$
  SELECT NULL::bigint, CASE WHEN p.status = 'success' AND p.settled_at IS NOT NULL THEN (p.settled_at AT TIME ZONE 'UTC')::date END, '',
    sign * (p.amount_kobo - p.reversed_kobo), sign * CASE WHEN p.channel = 'bank_transfer' THEN p.amount_kobo - p.reversed_kobo ELSE 0 END,
    sign * p.reversed_kobo, 0::bigint, 0::bigint, 0::bigint, 0, 0
$$;--> statement-breakpoint
CREATE FUNCTION "dashboard_ledger_fact"(t "wallet_transactions", sign integer) RETURNS "dashboard_day_changes" LANGUAGE sql IMMUTABLE AS $$
  SELECT NULL::bigint, CASE WHEN t.transaction_type = 1 AND t.source_kind = 'admin_credit' THEN (t.created_at AT TIME ZONE 'UTC')::date END, '',
    0::bigint, 0::bigint, 0::bigint, sign * t.amount_kobo, 0::bigint, 0::bigint, 0, 0
$$;--> statement-breakpoint
CREATE FUNCTION "dashboard_user_fact"(u "users", sign integer) RETURNS "dashboard_day_changes" LANGUAGE sql IMMUTABLE AS $$
  SELECT NULL::bigint, CASE WHEN u.user_type = 2 THEN (u.created_at AT TIME ZONE 'UTC')::date END, '',
    0::bigint, 0::bigint, 0::bigint, 0::bigint, 0::bigint, 0::bigint, 0, sign
$$;--> statement-breakpoint
-- One statement's facts, summed by day and status; a statement that moved no figure (a sync stamp, a sign-in) adds nothing.
CREATE FUNCTION "dashboard_record"(facts "dashboard_day_changes"[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO "dashboard_day_changes" (day, order_status, deposits_kobo, bank_transfers_kobo, reversed_kobo, admin_credits_kobo, spend_kobo, cost_kobo, orders, new_users)
  SELECT day, order_status, sum(deposits_kobo), sum(bank_transfers_kobo), sum(reversed_kobo), sum(admin_credits_kobo), sum(spend_kobo), sum(cost_kobo), sum(orders), sum(new_users)
  FROM unnest(facts) WHERE day IS NOT NULL
  GROUP BY day, order_status
  HAVING sum(deposits_kobo) <> 0 OR sum(bank_transfers_kobo) <> 0 OR sum(reversed_kobo) <> 0 OR sum(admin_credits_kobo) <> 0
    OR sum(spend_kobo) <> 0 OR sum(cost_kobo) <> 0 OR sum(orders) <> 0 OR sum(new_users) <> 0
$$;--> statement-breakpoint
-- Statement-level, over the statement's transition tables: a batch of 2,000 orders adds a few rows, not 2,000,
-- and writers only ever insert here, so none waits on another's figures.
CREATE FUNCTION "dashboard_orders_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM dashboard_record(array(SELECT dashboard_order_fact(n, 1) FROM new_rows n));
  ELSIF TG_OP = 'DELETE' THEN PERFORM dashboard_record(array(SELECT dashboard_order_fact(o, -1) FROM old_rows o));
  ELSE PERFORM dashboard_record(array(SELECT dashboard_order_fact(n, 1) FROM new_rows n UNION ALL SELECT dashboard_order_fact(o, -1) FROM old_rows o));
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "dashboard_payments_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM dashboard_record(array(SELECT dashboard_payment_fact(n, 1) FROM new_rows n));
  ELSIF TG_OP = 'DELETE' THEN PERFORM dashboard_record(array(SELECT dashboard_payment_fact(o, -1) FROM old_rows o));
  ELSE PERFORM dashboard_record(array(SELECT dashboard_payment_fact(n, 1) FROM new_rows n UNION ALL SELECT dashboard_payment_fact(o, -1) FROM old_rows o));
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "dashboard_ledger_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM dashboard_record(array(SELECT dashboard_ledger_fact(n, 1) FROM new_rows n));
  ELSIF TG_OP = 'DELETE' THEN PERFORM dashboard_record(array(SELECT dashboard_ledger_fact(o, -1) FROM old_rows o));
  ELSE PERFORM dashboard_record(array(SELECT dashboard_ledger_fact(n, 1) FROM new_rows n UNION ALL SELECT dashboard_ledger_fact(o, -1) FROM old_rows o));
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION "dashboard_users_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN PERFORM dashboard_record(array(SELECT dashboard_user_fact(n, 1) FROM new_rows n));
  ELSIF TG_OP = 'DELETE' THEN PERFORM dashboard_record(array(SELECT dashboard_user_fact(o, -1) FROM old_rows o));
  ELSE PERFORM dashboard_record(array(SELECT dashboard_user_fact(n, 1) FROM new_rows n UNION ALL SELECT dashboard_user_fact(o, -1) FROM old_rows o));
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "orders_dashboard_insert" AFTER INSERT ON "orders" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_orders_changed"();--> statement-breakpoint
CREATE TRIGGER "orders_dashboard_update" AFTER UPDATE ON "orders" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_orders_changed"();--> statement-breakpoint
CREATE TRIGGER "orders_dashboard_delete" AFTER DELETE ON "orders" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_orders_changed"();--> statement-breakpoint
CREATE TRIGGER "payment_intents_dashboard_insert" AFTER INSERT ON "payment_intents" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_payments_changed"();--> statement-breakpoint
CREATE TRIGGER "payment_intents_dashboard_update" AFTER UPDATE ON "payment_intents" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_payments_changed"();--> statement-breakpoint
CREATE TRIGGER "payment_intents_dashboard_delete" AFTER DELETE ON "payment_intents" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_payments_changed"();--> statement-breakpoint
CREATE TRIGGER "wallet_transactions_dashboard_insert" AFTER INSERT ON "wallet_transactions" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_ledger_changed"();--> statement-breakpoint
CREATE TRIGGER "wallet_transactions_dashboard_update" AFTER UPDATE ON "wallet_transactions" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_ledger_changed"();--> statement-breakpoint
CREATE TRIGGER "wallet_transactions_dashboard_delete" AFTER DELETE ON "wallet_transactions" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_ledger_changed"();--> statement-breakpoint
CREATE TRIGGER "users_dashboard_insert" AFTER INSERT ON "users" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_users_changed"();--> statement-breakpoint
CREATE TRIGGER "users_dashboard_update" AFTER UPDATE ON "users" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_users_changed"();--> statement-breakpoint
CREATE TRIGGER "users_dashboard_delete" AFTER DELETE ON "users" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_users_changed"();--> statement-breakpoint
-- Everything counted again from the tables themselves: here for the rows written before this migration, and by
-- bulk loads that write with triggers off (npm run bench:scale's seed).
CREATE FUNCTION "dashboard_days_rebuild"() RETURNS void LANGUAGE sql AS $$
  DELETE FROM "dashboard_day_changes";
  DELETE FROM "dashboard_days";
  INSERT INTO "dashboard_days" (day, order_status, deposits_kobo, bank_transfers_kobo, reversed_kobo, admin_credits_kobo, spend_kobo, cost_kobo, orders, new_users)
  SELECT day, order_status, sum(deposits_kobo), sum(bank_transfers_kobo), sum(reversed_kobo), sum(admin_credits_kobo), sum(spend_kobo), sum(cost_kobo), sum(orders), sum(new_users)
  FROM (
    SELECT f.* FROM "orders" o, LATERAL dashboard_order_fact(o, 1) f
    UNION ALL SELECT f.* FROM "payment_intents" p, LATERAL dashboard_payment_fact(p, 1) f
    UNION ALL SELECT f.* FROM "wallet_transactions" t, LATERAL dashboard_ledger_fact(t, 1) f WHERE t.source_kind = 'admin_credit'
    UNION ALL SELECT f.* FROM "users" u, LATERAL dashboard_user_fact(u, 1) f
  ) facts
  WHERE day IS NOT NULL
  GROUP BY day, order_status
$$;--> statement-breakpoint
SELECT dashboard_days_rebuild();
