CREATE TABLE "referring_physician_facilities" (
	"referring_physician_id" uuid NOT NULL,
	"facility_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "referring_physician_facilities_pk" PRIMARY KEY("referring_physician_id","facility_id")
);
--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "merged_into_id" uuid;--> statement-breakpoint
ALTER TABLE "patients" ADD COLUMN "merged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "referring_physician_facilities" ADD CONSTRAINT "referring_physician_facilities_referring_physician_id_referring_physicians_id_fk" FOREIGN KEY ("referring_physician_id") REFERENCES "public"."referring_physicians"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referring_physician_facilities" ADD CONSTRAINT "referring_physician_facilities_facility_id_facilities_id_fk" FOREIGN KEY ("facility_id") REFERENCES "public"."facilities"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "referring_physician_facilities_facility_idx" ON "referring_physician_facilities" USING btree ("facility_id");--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_merged_into_id_patients_id_fk" FOREIGN KEY ("merged_into_id") REFERENCES "public"."patients"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "patients_merged_into_idx" ON "patients" USING btree ("merged_into_id") WHERE "patients"."merged_into_id" is not null;