ALTER TABLE "outbound_messages" ADD COLUMN "kind" text DEFAULT 'account' NOT NULL;--> statement-breakpoint
ALTER TABLE "outbound_messages" ADD COLUMN "with_letterhead" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "outbound_messages" ADD COLUMN "attachments" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "outbound_messages" ADD COLUMN "idempotency_key" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "final_pdf_file_id" uuid;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_final_pdf_file_id_stored_files_id_fk" FOREIGN KEY ("final_pdf_file_id") REFERENCES "public"."stored_files"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "outbound_messages" ADD CONSTRAINT "outbound_messages_idempotency_key_uq" UNIQUE("idempotency_key");