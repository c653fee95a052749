CREATE TABLE `document_counter` (
	`id` integer PRIMARY KEY NOT NULL,
	`last` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `documents` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`number` text NOT NULL,
	`kind` text NOT NULL,
	`booking_id` integer NOT NULL,
	`payment_intent_id` text NOT NULL,
	`refund_id` text,
	`relates_to` text,
	`issued_at` integer NOT NULL,
	`seller_name` text NOT NULL,
	`seller_abn` text NOT NULL,
	`seller_address` text NOT NULL,
	`gst_registered` integer NOT NULL,
	`event_name` text NOT NULL,
	`event_starts_at` integer NOT NULL,
	`event_time_zone` text NOT NULL,
	`lines` text NOT NULL,
	`total_cents` integer NOT NULL,
	`gst_cents` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `documents_number` ON `documents` (`number`);--> statement-breakpoint
CREATE UNIQUE INDEX `documents_sale` ON `documents` (`booking_id`) WHERE kind <> 'adjustment';--> statement-breakpoint
CREATE UNIQUE INDEX `documents_adjustment` ON `documents` (`payment_intent_id`) WHERE kind = 'adjustment';--> statement-breakpoint
CREATE INDEX `documents_payment` ON `documents` (`payment_intent_id`);--> statement-breakpoint
CREATE INDEX `documents_issued_at` ON `documents` (`issued_at`);--> statement-breakpoint
-- Documents are tax records: written once, never changed (docs/decisions/032-invoices.md). Deleting
-- one after its 5 years stays possible.
CREATE TRIGGER `documents_immutable` BEFORE UPDATE ON `documents` BEGIN SELECT RAISE(ABORT, 'documents are immutable'); END;
