CREATE TABLE `refund_claims` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`booking_id` integer NOT NULL,
	`payment_intent_id` text NOT NULL,
	`idempotency_key` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`reason` text NOT NULL,
	`claimed_at` integer NOT NULL,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `refund_claims_payment_intent` ON `refund_claims` (`payment_intent_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `refund_claims_idempotency_key` ON `refund_claims` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `refund_claims_claimed_at` ON `refund_claims` (`claimed_at`);