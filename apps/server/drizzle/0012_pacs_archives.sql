CREATE TABLE "pacs_archive_facilities" (
	"archive_id" uuid NOT NULL,
	"facility_id" uuid NOT NULL,
	"institution_name" text,
	CONSTRAINT "pacs_archive_facilities_archive_id_facility_id_pk" PRIMARY KEY("archive_id","facility_id")
);
--> statement-breakpoint
CREATE TABLE "pacs_archives" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organisation_id" uuid NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"dicomweb_url" text NOT NULL,
	"orthanc_url" text,
	"auth_kind" text DEFAULT 'none' NOT NULL,
	"username" text,
	"secret_sealed" text,
	"default_facility_id" uuid,
	"enabled" boolean DEFAULT true NOT NULL,
	"poll_interval_seconds" integer DEFAULT 10 NOT NULL,
	"changes_cursor" bigint,
	"polled_until" timestamp with time zone,
	"last_sync_at" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"last_error" text,
	"last_error_at" timestamp with time zone,
	"failure_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "studies" ADD COLUMN "pacs_archive_id" uuid;--> statement-breakpoint
ALTER TABLE "studies" ADD COLUMN "archive_study_key" text;--> statement-breakpoint
ALTER TABLE "studies" ADD COLUMN "archive_deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pacs_archive_facilities" ADD CONSTRAINT "pacs_archive_facilities_archive_id_pacs_archives_id_fk" FOREIGN KEY ("archive_id") REFERENCES "public"."pacs_archives"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pacs_archive_facilities" ADD CONSTRAINT "pacs_archive_facilities_facility_id_facilities_id_fk" FOREIGN KEY ("facility_id") REFERENCES "public"."facilities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pacs_archives" ADD CONSTRAINT "pacs_archives_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pacs_archives" ADD CONSTRAINT "pacs_archives_default_facility_id_facilities_id_fk" FOREIGN KEY ("default_facility_id") REFERENCES "public"."facilities"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pacs_archive_facilities_facility_idx" ON "pacs_archive_facilities" USING btree ("facility_id");--> statement-breakpoint
CREATE INDEX "pacs_archive_facilities_institution_idx" ON "pacs_archive_facilities" USING btree (lower("institution_name"));--> statement-breakpoint
CREATE INDEX "pacs_archives_organisation_idx" ON "pacs_archives" USING btree ("organisation_id","name");--> statement-breakpoint
ALTER TABLE "studies" ADD CONSTRAINT "studies_pacs_archive_id_pacs_archives_id_fk" FOREIGN KEY ("pacs_archive_id") REFERENCES "public"."pacs_archives"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "studies_pacs_archive_idx" ON "studies" USING btree ("pacs_archive_id") WHERE "studies"."pacs_archive_id" is not null;