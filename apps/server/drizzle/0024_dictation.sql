CREATE TABLE "dictation_recordings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organisation_id" uuid NOT NULL,
	"report_id" uuid NOT NULL,
	"by_user_id" uuid NOT NULL,
	"file_id" uuid NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"duration_seconds" double precision NOT NULL,
	"content_type" text NOT NULL,
	"transcript" text,
	"error" text,
	"inserted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organisation_speech_settings" (
	"organisation_id" uuid PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"augnito_server_url" text,
	"augnito_account_code" text,
	"augnito_lm_id" text,
	"augnito_access_key_sealed" text,
	"browser_speech_allowed" boolean DEFAULT false NOT NULL,
	"recording_retention_days" integer DEFAULT 90 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid
);
--> statement-breakpoint
ALTER TABLE "dictation_recordings" ADD CONSTRAINT "dictation_recordings_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dictation_recordings" ADD CONSTRAINT "dictation_recordings_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dictation_recordings" ADD CONSTRAINT "dictation_recordings_by_user_id_users_id_fk" FOREIGN KEY ("by_user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dictation_recordings" ADD CONSTRAINT "dictation_recordings_file_id_stored_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."stored_files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_speech_settings" ADD CONSTRAINT "organisation_speech_settings_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organisation_speech_settings" ADD CONSTRAINT "organisation_speech_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dictation_recordings_report_idx" ON "dictation_recordings" USING btree ("report_id","created_at");--> statement-breakpoint
CREATE INDEX "dictation_recordings_expires_idx" ON "dictation_recordings" USING btree ("expires_at");