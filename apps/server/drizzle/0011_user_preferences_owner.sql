ALTER TABLE "user_preferences" DROP CONSTRAINT "user_preferences_scope_owner_ck";--> statement-breakpoint
ALTER TABLE "user_preferences" ADD CONSTRAINT "user_preferences_scope_owner_ck" CHECK ((scope = 'USER' and user_id is not null and organisation_id is null)
        or (scope = 'ORGANISATION' and organisation_id is not null and user_id is null));