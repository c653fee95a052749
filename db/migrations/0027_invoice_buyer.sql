ALTER TABLE `documents` ADD `buyer_name` text;--> statement-breakpoint
ALTER TABLE `documents` ADD `buyer_email` text;