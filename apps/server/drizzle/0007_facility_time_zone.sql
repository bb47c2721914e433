-- Each organisation gets a time zone (IANA name); a facility's time_zone becomes nullable: null
-- inherits the organisation's. Existing facilities keep their zone (their dates do not move); each
-- organisation starts with the zone most of its facilities use, so new facilities default to it.
ALTER TABLE "facilities" ALTER COLUMN "time_zone" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "facilities" ALTER COLUMN "time_zone" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "time_zone" text DEFAULT 'UTC' NOT NULL;--> statement-breakpoint
UPDATE "organisations" o SET "time_zone" = z."time_zone"
FROM (
  SELECT DISTINCT ON ("organisation_id") "organisation_id", "time_zone"
  FROM "facilities"
  WHERE "time_zone" IS NOT NULL
  GROUP BY "organisation_id", "time_zone"
  ORDER BY "organisation_id", count(*) DESC, "time_zone"
) z
WHERE z."organisation_id" = o."id";
