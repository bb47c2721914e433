CREATE TYPE "public"."job_status" AS ENUM('pending', 'running', 'succeeded', 'failed');--> statement-breakpoint
CREATE TYPE "public"."message_channel" AS ENUM('email', 'whatsapp');--> statement-breakpoint
CREATE TYPE "public"."modality_group" AS ENUM('USG', 'XRAY', 'CT', 'MRI', 'NM');--> statement-breakpoint
CREATE TYPE "public"."priority_tag" AS ENUM('MLC', 'URGENT', 'ROUTINE', 'FOLLOW_UP', 'POST_SURGICAL', 'ONCO', 'COMPLEX', 'EMERGENCY', 'COMPARATIVE');--> statement-breakpoint
CREATE TYPE "public"."radiologist_user_type" AS ENUM('RADIOLOGIST', 'REPORTER');--> statement-breakpoint
CREATE TYPE "public"."record_status" AS ENUM('ACTIVE', 'INACTIVE');--> statement-breakpoint
CREATE TYPE "public"."report_status" AS ENUM('CREATED', 'DRAFTED', 'COMPLETED');--> statement-breakpoint
CREATE TYPE "public"."report_version_kind" AS ENUM('EDIT', 'ADDENDUM');--> statement-breakpoint
CREATE TYPE "public"."request_status" AS ENUM('INITIATED', 'PENDING', 'FULFILLED', 'REJECTED');--> statement-breakpoint
CREATE TYPE "public"."role" AS ENUM('ADMIN', 'FACILITY_ADMIN', 'RADIOLOGIST', 'TRANSCRIPTIONIST', 'REFERRING_PHYSICIAN');--> statement-breakpoint
CREATE TYPE "public"."scope" AS ENUM('ORGANISATION', 'USER');--> statement-breakpoint
CREATE TYPE "public"."staff_kind" AS ENUM('MANAGER', 'TECHNICIAN');--> statement-breakpoint
CREATE TYPE "public"."study_status" AS ENUM('ORDERED', 'TO_READ', 'ASSIGNED', 'IN_REVIEW', 'DRAFTED', 'FINAL', 'DELETED');--> statement-breakpoint
CREATE TYPE "public"."template_scope" AS ENUM('DEFAULT', 'USER', 'ORGANISATION');--> statement-breakpoint
CREATE TABLE "audit_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organisation_id" uuid,
	"actor_user_id" uuid,
	"action" text NOT NULL,
	"entity_type" text,
	"entity_id" text,
	"ip" "inet",
	"user_agent" text,
	"data" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stored_files" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organisation_id" uuid,
	"storage_driver" text DEFAULT 'local' NOT NULL,
	"storage_key" text NOT NULL,
	"sha256" char(64) NOT NULL,
	"size_bytes" bigint NOT NULL,
	"media_type" text NOT NULL,
	"original_name" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stored_files_storage_key_uq" UNIQUE("storage_key")
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"queue" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" "job_status" DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 8 NOT NULL,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_at" timestamp with time zone,
	"locked_by" text,
	"last_error" text,
	"idempotency_key" text,
	"result" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "jobs_idempotency_key_uq" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "outbound_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organisation_id" uuid NOT NULL,
	"channel" "message_channel" NOT NULL,
	"recipient" text NOT NULL,
	"subject" text,
	"body" text DEFAULT '' NOT NULL,
	"attachment_file_id" uuid,
	"study_id" uuid,
	"report_id" uuid,
	"status" "request_status" DEFAULT 'INITIATED' NOT NULL,
	"provider_message_id" text,
	"error" text,
	"job_id" uuid,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organisation_id" uuid,
	"user_id" uuid NOT NULL,
	"type" text NOT NULL,
	"title" text NOT NULL,
	"body" text,
	"data" jsonb,
	"is_read" boolean DEFAULT false NOT NULL,
	"read_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_preferences" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"scope" "scope" NOT NULL,
	"organisation_id" uuid,
	"user_id" uuid,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_preferences_user_uq" UNIQUE("user_id"),
	CONSTRAINT "user_preferences_scope_owner_ck" CHECK ((scope = 'USER' and user_id is not null)
        or (scope = 'ORGANISATION' and organisation_id is not null and user_id is null))
);
--> statement-breakpoint
CREATE TABLE "facilities" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organisation_id" uuid NOT NULL,
	"parent_facility_id" uuid,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"address" text,
	"phone" text,
	"email" text,
	"time_zone" text DEFAULT 'UTC' NOT NULL,
	"status" "record_status" DEFAULT 'ACTIVE' NOT NULL,
	"letterhead_enabled" boolean DEFAULT false NOT NULL,
	"letterhead_header_file_id" uuid,
	"letterhead_footer_file_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organisations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"report_style" jsonb,
	"status" "record_status" DEFAULT 'ACTIVE' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "patients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organisation_id" uuid NOT NULL,
	"facility_id" uuid NOT NULL,
	"patient_identifier" text NOT NULL,
	"name" text NOT NULL,
	"sex" text,
	"birth_date" date,
	"phone" text,
	"email" text,
	"search_text" text GENERATED ALWAYS AS (lower(ris_unaccent(coalesce(name, '') || ' ' || coalesce(patient_identifier, '')))) STORED NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_images" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"report_id" uuid NOT NULL,
	"file_id" uuid NOT NULL,
	"caption" text,
	"position" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_signatures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"report_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"signed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_signatures_report_user_uq" UNIQUE("report_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "report_versions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"report_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"kind" "report_version_kind" DEFAULT 'EDIT' NOT NULL,
	"content" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_versions_report_version_uq" UNIQUE("report_id","version")
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"study_id" uuid NOT NULL,
	"organisation_id" uuid NOT NULL,
	"status" "report_status" DEFAULT 'CREATED' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"content_text" text DEFAULT '' NOT NULL,
	"search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, coalesce(content_text, ''))) STORED NOT NULL,
	"ydoc_state" "bytea",
	"pdf_file_id" uuid,
	"final_pdf_sha256" char(64),
	"created_by" uuid,
	"updated_by" uuid,
	"finalized_by" uuid,
	"finalized_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reports_study_uq" UNIQUE("study_id")
);
--> statement-breakpoint
CREATE TABLE "patient_documents" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"study_id" uuid NOT NULL,
	"file_id" uuid NOT NULL,
	"filename" text NOT NULL,
	"uploaded_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "studies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organisation_id" uuid NOT NULL,
	"facility_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"study_uid" text,
	"accession_number" text NOT NULL,
	"duplicated_from_study_id" uuid,
	"patient_name" text DEFAULT '' NOT NULL,
	"patient_identifier" text DEFAULT '' NOT NULL,
	"patient_sex" text,
	"patient_birth_date" date,
	"modality" text,
	"modality_group" "modality_group",
	"study_description" text,
	"body_part" text,
	"study_datetime" timestamp with time zone,
	"series_count" integer DEFAULT 0 NOT NULL,
	"instance_count" integer DEFAULT 0 NOT NULL,
	"status" "study_status" DEFAULT 'ORDERED' NOT NULL,
	"priority_tag" "priority_tag",
	"last_assigned_user_id" uuid,
	"assigned_at" timestamp with time zone,
	"referring_physician_id" uuid,
	"referring_physician_name" text,
	"clinical_history" text,
	"collaboration_enabled" boolean DEFAULT false NOT NULL,
	"created_by" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_text" text GENERATED ALWAYS AS (lower(ris_unaccent(coalesce(patient_name, '') || ' ' || coalesce(patient_identifier, '') || ' ' || coalesce(accession_number, '') || ' ' || coalesce(study_description, '')))) STORED NOT NULL
);
--> statement-breakpoint
CREATE TABLE "study_status_history" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"study_id" uuid NOT NULL,
	"from_status" "study_status",
	"to_status" "study_status" NOT NULL,
	"changed_by" uuid,
	"comment" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tags" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organisation_id" uuid,
	"scope" "template_scope" NOT NULL,
	"name" text NOT NULL,
	"colour" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "tags_scope_owner_ck" CHECK ((scope = 'DEFAULT' and organisation_id is null)
        or (scope = 'ORGANISATION' and organisation_id is not null)
        or (scope = 'USER' and created_by is not null))
);
--> statement-breakpoint
CREATE TABLE "worklist_tags" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"study_id" uuid NOT NULL,
	"tag_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "worklist_tags_study_tag_user_uq" UNIQUE("study_id","tag_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "macros" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"short_key" text NOT NULL,
	"value" text NOT NULL,
	"display_name" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organisation_id" uuid,
	"scope" "template_scope" NOT NULL,
	"owner_user_id" uuid,
	"name" text NOT NULL,
	"modality_group" "modality_group",
	"body_part" text,
	"content" text DEFAULT '' NOT NULL,
	"status" "record_status" DEFAULT 'ACTIVE' NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "templates_scope_owner_ck" CHECK ((scope = 'DEFAULT' and organisation_id is null and owner_user_id is null)
        or (scope = 'ORGANISATION' and organisation_id is not null and owner_user_id is null)
        or (scope = 'USER' and organisation_id is not null and owner_user_id is not null))
);
--> statement-breakpoint
CREATE TABLE "radiologist_details" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"user_type" "radiologist_user_type" DEFAULT 'RADIOLOGIST' NOT NULL,
	"description" text,
	"qualification" text,
	"registration_number" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "referring_physicians" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organisation_id" uuid NOT NULL,
	"user_id" uuid,
	"name" text NOT NULL,
	"email" text,
	"phone" text,
	"registration_number" text,
	"status" "record_status" DEFAULT 'ACTIVE' NOT NULL,
	"search_text" text GENERATED ALWAYS AS (lower(ris_unaccent(coalesce(name, '') || ' ' || coalesce(email, '') || ' ' || coalesce(phone, '')))) STORED NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "user_facilities" (
	"user_id" uuid NOT NULL,
	"facility_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_facilities_pk" PRIMARY KEY("user_id","facility_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organisation_id" uuid,
	"email" text NOT NULL,
	"password_hash" text,
	"role" "role",
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"display_name" text DEFAULT '' NOT NULL,
	"status" "record_status" DEFAULT 'ACTIVE' NOT NULL,
	"staff_kind" "staff_kind",
	"phone" text,
	"signature_file_id" uuid,
	"tokens_valid_after" timestamp with time zone,
	"last_sign_in_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stored_files" ADD CONSTRAINT "stored_files_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stored_files" ADD CONSTRAINT "stored_files_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_messages" ADD CONSTRAINT "outbound_messages_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_messages" ADD CONSTRAINT "outbound_messages_attachment_file_id_stored_files_id_fk" FOREIGN KEY ("attachment_file_id") REFERENCES "public"."stored_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_messages" ADD CONSTRAINT "outbound_messages_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_messages" ADD CONSTRAINT "outbound_messages_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_messages" ADD CONSTRAINT "outbound_messages_job_id_jobs_id_fk" FOREIGN KEY ("job_id") REFERENCES "public"."jobs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_messages" ADD CONSTRAINT "outbound_messages_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notifications" ADD CONSTRAINT "notifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_preferences" ADD CONSTRAINT "user_preferences_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_preferences" ADD CONSTRAINT "user_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "facilities" ADD CONSTRAINT "facilities_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "facilities" ADD CONSTRAINT "facilities_parent_facility_id_facilities_id_fk" FOREIGN KEY ("parent_facility_id") REFERENCES "public"."facilities"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "facilities" ADD CONSTRAINT "facilities_letterhead_header_file_id_stored_files_id_fk" FOREIGN KEY ("letterhead_header_file_id") REFERENCES "public"."stored_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "facilities" ADD CONSTRAINT "facilities_letterhead_footer_file_id_stored_files_id_fk" FOREIGN KEY ("letterhead_footer_file_id") REFERENCES "public"."stored_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_facility_id_facilities_id_fk" FOREIGN KEY ("facility_id") REFERENCES "public"."facilities"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_images" ADD CONSTRAINT "report_images_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_images" ADD CONSTRAINT "report_images_file_id_stored_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."stored_files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_signatures" ADD CONSTRAINT "report_signatures_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_signatures" ADD CONSTRAINT "report_signatures_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_versions" ADD CONSTRAINT "report_versions_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_versions" ADD CONSTRAINT "report_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_pdf_file_id_stored_files_id_fk" FOREIGN KEY ("pdf_file_id") REFERENCES "public"."stored_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_finalized_by_users_id_fk" FOREIGN KEY ("finalized_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_documents" ADD CONSTRAINT "patient_documents_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_documents" ADD CONSTRAINT "patient_documents_file_id_stored_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."stored_files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patient_documents" ADD CONSTRAINT "patient_documents_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studies" ADD CONSTRAINT "studies_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studies" ADD CONSTRAINT "studies_facility_id_facilities_id_fk" FOREIGN KEY ("facility_id") REFERENCES "public"."facilities"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studies" ADD CONSTRAINT "studies_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studies" ADD CONSTRAINT "studies_duplicated_from_study_id_studies_id_fk" FOREIGN KEY ("duplicated_from_study_id") REFERENCES "public"."studies"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studies" ADD CONSTRAINT "studies_last_assigned_user_id_users_id_fk" FOREIGN KEY ("last_assigned_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studies" ADD CONSTRAINT "studies_referring_physician_id_referring_physicians_id_fk" FOREIGN KEY ("referring_physician_id") REFERENCES "public"."referring_physicians"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studies" ADD CONSTRAINT "studies_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studies" ADD CONSTRAINT "studies_deleted_by_users_id_fk" FOREIGN KEY ("deleted_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_status_history" ADD CONSTRAINT "study_status_history_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "study_status_history" ADD CONSTRAINT "study_status_history_changed_by_users_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "worklist_tags" ADD CONSTRAINT "worklist_tags_study_id_studies_id_fk" FOREIGN KEY ("study_id") REFERENCES "public"."studies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "worklist_tags" ADD CONSTRAINT "worklist_tags_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "worklist_tags" ADD CONSTRAINT "worklist_tags_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "macros" ADD CONSTRAINT "macros_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_owner_user_id_users_id_fk" FOREIGN KEY ("owner_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "radiologist_details" ADD CONSTRAINT "radiologist_details_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referring_physicians" ADD CONSTRAINT "referring_physicians_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referring_physicians" ADD CONSTRAINT "referring_physicians_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_facilities" ADD CONSTRAINT "user_facilities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_facilities" ADD CONSTRAINT "user_facilities_facility_id_facilities_id_fk" FOREIGN KEY ("facility_id") REFERENCES "public"."facilities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_signature_file_id_stored_files_id_fk" FOREIGN KEY ("signature_file_id") REFERENCES "public"."stored_files"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_events_organisation_created_idx" ON "audit_events" USING btree ("organisation_id","created_at");--> statement-breakpoint
CREATE INDEX "audit_events_entity_idx" ON "audit_events" USING btree ("entity_type","entity_id");--> statement-breakpoint
CREATE INDEX "audit_events_actor_created_idx" ON "audit_events" USING btree ("actor_user_id","created_at");--> statement-breakpoint
CREATE INDEX "stored_files_sha256_idx" ON "stored_files" USING btree ("sha256");--> statement-breakpoint
CREATE INDEX "stored_files_organisation_idx" ON "stored_files" USING btree ("organisation_id") WHERE "stored_files"."organisation_id" is not null;--> statement-breakpoint
CREATE INDEX "jobs_pending_queue_run_at_idx" ON "jobs" USING btree ("queue","run_at") WHERE "jobs"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "jobs_running_locked_at_idx" ON "jobs" USING btree ("locked_at") WHERE "jobs"."status" = 'running';--> statement-breakpoint
CREATE INDEX "outbound_messages_organisation_created_idx" ON "outbound_messages" USING btree ("organisation_id","created_at");--> statement-breakpoint
CREATE INDEX "outbound_messages_study_idx" ON "outbound_messages" USING btree ("study_id") WHERE "outbound_messages"."study_id" is not null;--> statement-breakpoint
CREATE INDEX "outbound_messages_job_idx" ON "outbound_messages" USING btree ("job_id") WHERE "outbound_messages"."job_id" is not null;--> statement-breakpoint
CREATE INDEX "notifications_user_read_created_idx" ON "notifications" USING btree ("user_id","is_read","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "user_preferences_organisation_uq" ON "user_preferences" USING btree ("organisation_id") WHERE "user_preferences"."scope" = 'ORGANISATION';--> statement-breakpoint
CREATE UNIQUE INDEX "facilities_organisation_code_uq" ON "facilities" USING btree ("organisation_id","code");--> statement-breakpoint
CREATE INDEX "facilities_organisation_name_idx" ON "facilities" USING btree ("organisation_id","name");--> statement-breakpoint
CREATE INDEX "facilities_parent_idx" ON "facilities" USING btree ("parent_facility_id") WHERE "facilities"."parent_facility_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "organisations_slug_uq" ON "organisations" USING btree (lower("slug"));--> statement-breakpoint
CREATE UNIQUE INDEX "patients_facility_identifier_uq" ON "patients" USING btree ("facility_id","patient_identifier");--> statement-breakpoint
CREATE INDEX "patients_organisation_identifier_idx" ON "patients" USING btree ("organisation_id","patient_identifier");--> statement-breakpoint
CREATE INDEX "patients_facility_name_idx" ON "patients" USING btree ("facility_id","name");--> statement-breakpoint
CREATE INDEX "patients_search_trgm_idx" ON "patients" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "report_images_report_position_idx" ON "report_images" USING btree ("report_id","position");--> statement-breakpoint
CREATE INDEX "report_images_file_idx" ON "report_images" USING btree ("file_id");--> statement-breakpoint
CREATE INDEX "report_signatures_user_idx" ON "report_signatures" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "reports_search_vector_idx" ON "reports" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "reports_organisation_updated_idx" ON "reports" USING btree ("organisation_id","updated_at");--> statement-breakpoint
CREATE INDEX "reports_organisation_status_updated_idx" ON "reports" USING btree ("organisation_id","status","updated_at");--> statement-breakpoint
CREATE INDEX "patient_documents_study_idx" ON "patient_documents" USING btree ("study_id","created_at");--> statement-breakpoint
CREATE INDEX "patient_documents_file_idx" ON "patient_documents" USING btree ("file_id");--> statement-breakpoint
CREATE UNIQUE INDEX "studies_organisation_study_uid_uq" ON "studies" USING btree ("organisation_id","study_uid") WHERE "studies"."duplicated_from_study_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "studies_facility_accession_uq" ON "studies" USING btree ("facility_id","accession_number") WHERE "studies"."duplicated_from_study_id" is null;--> statement-breakpoint
CREATE INDEX "studies_facility_created_idx" ON "studies" USING btree ("facility_id","created_at","id");--> statement-breakpoint
CREATE INDEX "studies_organisation_created_idx" ON "studies" USING btree ("organisation_id","created_at","id");--> statement-breakpoint
CREATE INDEX "studies_facility_status_created_idx" ON "studies" USING btree ("facility_id","status","created_at");--> statement-breakpoint
CREATE INDEX "studies_facility_modality_created_idx" ON "studies" USING btree ("facility_id","modality_group","created_at");--> statement-breakpoint
CREATE INDEX "studies_assigned_user_created_idx" ON "studies" USING btree ("last_assigned_user_id","created_at") WHERE "studies"."last_assigned_user_id" is not null;--> statement-breakpoint
CREATE INDEX "studies_facility_study_datetime_idx" ON "studies" USING btree ("facility_id","study_datetime");--> statement-breakpoint
CREATE INDEX "studies_organisation_study_datetime_idx" ON "studies" USING btree ("organisation_id","study_datetime");--> statement-breakpoint
CREATE INDEX "studies_search_trgm_idx" ON "studies" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "studies_patient_idx" ON "studies" USING btree ("patient_id");--> statement-breakpoint
CREATE INDEX "studies_referring_physician_idx" ON "studies" USING btree ("referring_physician_id") WHERE "studies"."referring_physician_id" is not null;--> statement-breakpoint
CREATE INDEX "studies_duplicated_from_idx" ON "studies" USING btree ("duplicated_from_study_id") WHERE "studies"."duplicated_from_study_id" is not null;--> statement-breakpoint
CREATE INDEX "study_status_history_study_created_idx" ON "study_status_history" USING btree ("study_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "tags_default_name_uq" ON "tags" USING btree (lower("name")) WHERE "tags"."scope" = 'DEFAULT';--> statement-breakpoint
CREATE UNIQUE INDEX "tags_organisation_name_uq" ON "tags" USING btree ("organisation_id",lower("name")) WHERE "tags"."scope" = 'ORGANISATION';--> statement-breakpoint
CREATE UNIQUE INDEX "tags_user_name_uq" ON "tags" USING btree ("created_by",lower("name")) WHERE "tags"."scope" = 'USER';--> statement-breakpoint
CREATE INDEX "worklist_tags_user_created_idx" ON "worklist_tags" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "worklist_tags_tag_idx" ON "worklist_tags" USING btree ("tag_id");--> statement-breakpoint
CREATE UNIQUE INDEX "macros_user_short_key_uq" ON "macros" USING btree ("user_id",lower("short_key"));--> statement-breakpoint
CREATE INDEX "templates_organisation_scope_name_idx" ON "templates" USING btree ("organisation_id","scope","name");--> statement-breakpoint
CREATE INDEX "templates_owner_name_idx" ON "templates" USING btree ("owner_user_id","name") WHERE "templates"."owner_user_id" is not null;--> statement-breakpoint
CREATE INDEX "referring_physicians_organisation_name_idx" ON "referring_physicians" USING btree ("organisation_id","name");--> statement-breakpoint
CREATE INDEX "referring_physicians_search_trgm_idx" ON "referring_physicians" USING gin ("search_text" gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "referring_physicians_user_uq" ON "referring_physicians" USING btree ("user_id") WHERE "referring_physicians"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "user_facilities_facility_idx" ON "user_facilities" USING btree ("facility_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_uq" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_organisation_role_idx" ON "users" USING btree ("organisation_id","role");