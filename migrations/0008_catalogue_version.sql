CREATE TABLE "catalogue_version" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"version" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "catalogue_version_one_row" CHECK ("catalogue_version"."id")
);
--> statement-breakpoint
INSERT INTO "catalogue_version" DEFAULT VALUES;--> statement-breakpoint
-- Hand-written: the triggers that move the version. Deferred to commit, the new version becomes visible
-- with the change itself and its row is locked only for the commit's last moment: locked from a
-- transaction's first catalogue write instead, two writers taking other locks meanwhile could deadlock.
-- A transaction moves it once however many rows it changed (the flag is transaction-local).
CREATE FUNCTION "move_catalogue_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('smm.catalogue_version_moved', true) IS DISTINCT FROM 'yes' THEN
    UPDATE "catalogue_version" SET "version" = "version" + 1;
    PERFORM set_config('smm.catalogue_version_moved', 'yes', true);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
-- Every column of a service and a category can reach the list; of a provider only `enabled` (the list
-- joins on it), so its health, balance and sync stamps, written at every cron run, leave the copies be.
CREATE CONSTRAINT TRIGGER "services_catalogue_version" AFTER INSERT OR DELETE ON "services"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "move_catalogue_version"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "services_catalogue_version_update" AFTER UPDATE ON "services"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION "move_catalogue_version"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "service_categories_catalogue_version" AFTER INSERT OR DELETE ON "service_categories"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "move_catalogue_version"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "service_categories_catalogue_version_update" AFTER UPDATE ON "service_categories"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION "move_catalogue_version"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "providers_catalogue_version" AFTER INSERT OR DELETE ON "providers"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "move_catalogue_version"();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "providers_catalogue_version_update" AFTER UPDATE ON "providers"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW WHEN (OLD."enabled" IS DISTINCT FROM NEW."enabled") EXECUTE FUNCTION "move_catalogue_version"();--> statement-breakpoint
-- TRUNCATE has no row events to defer; it holds the whole table anyway.
CREATE TRIGGER "services_catalogue_version_truncate" AFTER TRUNCATE ON "services"
  FOR EACH STATEMENT EXECUTE FUNCTION "move_catalogue_version"();--> statement-breakpoint
CREATE TRIGGER "service_categories_catalogue_version_truncate" AFTER TRUNCATE ON "service_categories"
  FOR EACH STATEMENT EXECUTE FUNCTION "move_catalogue_version"();--> statement-breakpoint
CREATE TRIGGER "providers_catalogue_version_truncate" AFTER TRUNCATE ON "providers"
  FOR EACH STATEMENT EXECUTE FUNCTION "move_catalogue_version"();
