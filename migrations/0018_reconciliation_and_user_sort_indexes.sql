CREATE INDEX "users_name_idx" ON "users" USING btree ("full_name","id");--> statement-breakpoint
CREATE INDEX "users_last_login_idx" ON "users" USING btree ("last_login" desc nulls last,"id");--> statement-breakpoint
CREATE INDEX "wallet_transactions_user_id_idx" ON "wallet_transactions" USING btree ("user_id","id");