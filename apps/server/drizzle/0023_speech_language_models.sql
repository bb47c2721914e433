CREATE TABLE "speech_language_models" (
	"organisation_id" uuid PRIMARY KEY NOT NULL,
	"built_at" timestamp with time zone DEFAULT now() NOT NULL,
	"words" integer NOT NULL,
	"sentences" integer NOT NULL,
	"lm_sha256" text NOT NULL,
	"lm_arpa" text NOT NULL,
	"dictionary" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "speech_language_models" ADD CONSTRAINT "speech_language_models_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;