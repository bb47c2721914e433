-- Failed sign-ins are counted per account and source (IP, or the account's device cookie) instead of
-- per account and per IP: each row names the account, the IP and the device. The rows of the old
-- shape are dropped first (they only slow sign-ins down for a few minutes; none is worth keeping).
-- auth_attack_alerts remembers when an account's owner and admins were last told it is under attack.
DELETE FROM "auth_sign_in_failures";--> statement-breakpoint
CREATE TABLE "auth_attack_alerts" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"sent_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
DROP INDEX "auth_sign_in_failures_key_created_idx";--> statement-breakpoint
ALTER TABLE "auth_sign_in_failures" ADD COLUMN "account" text NOT NULL;--> statement-breakpoint
ALTER TABLE "auth_sign_in_failures" ADD COLUMN "ip" text NOT NULL;--> statement-breakpoint
ALTER TABLE "auth_sign_in_failures" ADD COLUMN "device_id" text;--> statement-breakpoint
ALTER TABLE "auth_attack_alerts" ADD CONSTRAINT "auth_attack_alerts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auth_sign_in_failures_account_created_idx" ON "auth_sign_in_failures" USING btree ("account","created_at");--> statement-breakpoint
CREATE INDEX "auth_sign_in_failures_ip_created_idx" ON "auth_sign_in_failures" USING btree ("ip","created_at");--> statement-breakpoint
ALTER TABLE "auth_sign_in_failures" DROP COLUMN "scope";--> statement-breakpoint
ALTER TABLE "auth_sign_in_failures" DROP COLUMN "key";