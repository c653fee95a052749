CREATE TABLE `kept_details` (
	`phone` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`date_of_birth` text NOT NULL,
	`gender` text NOT NULL,
	`image_name` text NOT NULL,
	`thumb_name` text NOT NULL,
	`kept_at` integer NOT NULL,
	`last_booked_at` integer NOT NULL
);
