-- Order chat: a conversation per order between the business's dispatchers, the driver the order
-- is assigned to (through its route), the contractor holding it and, when allowed, its customer.
-- The chat's own rows name the order; who may take part is read from the order at every call.

-- The opt-in families' switches (order chat first; the operations AI agent and SMS marketing
-- reuse them): the business's own `enabled`, and the platform admin's `revoked` over it.
CREATE TABLE business_families (
  business_id bigint NOT NULL REFERENCES businesses (id),
  family      text NOT NULL,
  enabled     boolean NOT NULL,
  revoked     boolean NOT NULL,
  updated_at  timestamptz NOT NULL,
  PRIMARY KEY (business_id, family)
);

-- A business is set up for order chat ("migrated") once it has these settings.
CREATE TABLE order_chat_settings (
  business_id   bigint PRIMARY KEY REFERENCES businesses (id),
  -- Whether an order's customer takes part, unless the order says otherwise.
  customer_chat boolean NOT NULL,
  created_at    timestamptz NOT NULL,
  updated_at    timestamptz NOT NULL
);

CREATE TABLE order_chats (
  id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id      bigint NOT NULL REFERENCES businesses (id),
  order_id         bigint NOT NULL UNIQUE REFERENCES orders (id),
  -- The order's customer (it does not change), so a customer's conversations list without the orders.
  customer_user_id bigint REFERENCES users (id),
  -- null: the business's setting.
  customer_chat    boolean,
  closed_at        timestamptz,
  closed_by        bigint REFERENCES users (id),
  last_message_id  bigint,
  last_message_at  timestamptz,
  created_at       timestamptz NOT NULL
);
CREATE INDEX order_chats_recent ON order_chats (business_id, last_message_id DESC NULLS LAST, id DESC);
CREATE INDEX order_chats_customer ON order_chats (customer_user_id, last_message_id DESC NULLS LAST)
  WHERE customer_user_id IS NOT NULL;

CREATE TABLE order_chat_messages (
  id             bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  business_id    bigint NOT NULL REFERENCES businesses (id),
  chat_id        bigint NOT NULL REFERENCES order_chats (id),
  author_user_id bigint NOT NULL REFERENCES users (id),
  author_role    text NOT NULL CHECK (author_role IN ('dispatcher', 'driver', 'contractor', 'customer')),
  -- null for a message the service wrote: system_event says which, worded in the reader's language.
  text           text CHECK (length(text) <= 2000),
  attachments    jsonb NOT NULL,
  system_event   text CHECK (system_event IN ('closed', 'reopened')),
  created_at     timestamptz NOT NULL,
  CHECK ((text IS NULL) = (system_event IS NOT NULL))
);
CREATE INDEX order_chat_messages_chat ON order_chat_messages (chat_id, id DESC);

-- Read receipts: how far each participant has read.
CREATE TABLE order_chat_reads (
  chat_id              bigint NOT NULL REFERENCES order_chats (id),
  user_id              bigint NOT NULL REFERENCES users (id),
  last_read_message_id bigint NOT NULL,
  read_at              timestamptz NOT NULL,
  PRIMARY KEY (chat_id, user_id)
);
