ALTER TABLE `bookings` ADD `came` integer;--> statement-breakpoint
ALTER TABLE `bookings` ADD `dates` integer;