DROP INDEX "wallet_transactions_user_created_idx";--> statement-breakpoint
CREATE INDEX "referral_commissions_referred_idx" ON "referral_commissions" USING btree ("referred_user_id");--> statement-breakpoint
CREATE INDEX "referrals_created_idx" ON "referrals" USING btree ("created_at","referred_user_id");--> statement-breakpoint
CREATE INDEX "wallet_transactions_source_created_idx" ON "wallet_transactions" USING btree ("source_kind","created_at","id");--> statement-breakpoint
CREATE INDEX "wallet_transactions_search_trgm_idx" ON "wallet_transactions" USING gin ("source_ref" gin_trgm_ops,"description" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "wallet_transactions_user_created_idx" ON "wallet_transactions" USING btree ("user_id","created_at","id");