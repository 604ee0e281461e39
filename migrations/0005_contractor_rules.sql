-- Contractor rules: which of a business's orders a contractor company may see and plan. A rule
-- covers the orders whose service address (the pickup of a pickup order, the drop-off otherwise)
-- has a postal code starting with one of its prefixes and whose scheduled date is in its range.

CREATE TABLE contractor_rules (
  id                    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id           bigint NOT NULL,
  contractor_company_id bigint NOT NULL,
  -- Upper case without spaces, as postal codes are compared.
  postal_prefixes       text[] NOT NULL CHECK (cardinality(postal_prefixes) BETWEEN 1 AND 100),
  valid_from            date NOT NULL,
  valid_to              date CHECK (valid_to IS NULL OR valid_to >= valid_from),
  note                  text CHECK (length(note) <= 500),
  created_at            timestamptz NOT NULL,
  -- A rule exists only while the company works for the business.
  FOREIGN KEY (contractor_company_id, business_id)
    REFERENCES contractor_engagements (contractor_company_id, business_id) ON DELETE CASCADE
);
CREATE INDEX contractor_rules_business_company ON contractor_rules (business_id, contractor_company_id);
