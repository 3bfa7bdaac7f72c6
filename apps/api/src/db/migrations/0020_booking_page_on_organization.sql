-- Every organization has its booking page token from the moment it exists (issue 22.11): `GET booking/link/{id}/`
-- only reads it, never makes it. The token is 244 random bits (two gen_random_uuid(), from PostgreSQL's strong random
-- source), hex. Organizations made before this migration get theirs here.
CREATE OR REPLACE FUNCTION booking_page_for_organization() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO booking_pages (organization_id, token, created, modified)
  VALUES (NEW.id, replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), now(), now())
  ON CONFLICT (organization_id) DO NOTHING;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS booking_page_on_organization_insert ON organizations;
--> statement-breakpoint
CREATE TRIGGER booking_page_on_organization_insert
AFTER INSERT ON organizations
FOR EACH ROW EXECUTE FUNCTION booking_page_for_organization();
--> statement-breakpoint
INSERT INTO booking_pages (organization_id, token, created, modified)
SELECT o.id, replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', ''), now(), now()
FROM organizations o
WHERE NOT EXISTS (SELECT 1 FROM booking_pages p WHERE p.organization_id = o.id);
