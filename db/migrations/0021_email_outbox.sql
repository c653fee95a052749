ALTER TABLE `bookings` ADD `email_failed_at` integer;--> statement-breakpoint
ALTER TABLE `bookings` ADD `email_error` text;--> statement-breakpoint
ALTER TABLE `outbox_messages` ADD `channel` text DEFAULT 'sms' NOT NULL;--> statement-breakpoint
ALTER TABLE `outbox_messages` ADD `subject` text;--> statement-breakpoint
ALTER TABLE `outbox_messages` ADD `html` text;--> statement-breakpoint
ALTER TABLE `outbox_messages` ADD `attachments` text;--> statement-breakpoint
ALTER TABLE `outbox_messages` ADD `booking_id` integer REFERENCES bookings(id);