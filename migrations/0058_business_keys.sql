-- Keys that let the schema be distributed by business (docs/scaling.md, "Sharding by business").
-- Every business-owned table gets business_id in its primary key and its unique keys, and a
-- reference between two of them carries business_id on both sides, so each business's rows can
-- live together on one shard. test/sharding-plan.test.ts holds the schema to these rules.

-- Child tables that had their business only through their parent get it themselves.
ALTER TABLE route_stops ADD COLUMN business_id bigint;
UPDATE route_stops SET business_id = p.business_id FROM routes p WHERE p.id = route_stops.route_id;
ALTER TABLE route_stops ALTER COLUMN business_id SET NOT NULL;

ALTER TABLE order_chat_reads ADD COLUMN business_id bigint;
UPDATE order_chat_reads SET business_id = p.business_id FROM order_chats p WHERE p.id = order_chat_reads.chat_id;
ALTER TABLE order_chat_reads ALTER COLUMN business_id SET NOT NULL;

ALTER TABLE app_devices ADD COLUMN business_id bigint;
UPDATE app_devices SET business_id = p.business_id FROM app_assignments p WHERE p.id = app_devices.assignment_id;
ALTER TABLE app_devices ALTER COLUMN business_id SET NOT NULL;

-- References between business-owned tables are dropped here and come back with business_id below.
ALTER TABLE orders DROP CONSTRAINT orders_rerouted_from_fkey;
ALTER TABLE orders DROP CONSTRAINT orders_route;
ALTER TABLE packages DROP CONSTRAINT packages_order_id_fkey;
ALTER TABLE order_events DROP CONSTRAINT order_events_order_id_fkey;
ALTER TABLE driver_profiles DROP CONSTRAINT driver_profiles_depot_id_fkey;
ALTER TABLE routes DROP CONSTRAINT routes_vehicle_id_fkey;
ALTER TABLE route_stops DROP CONSTRAINT route_stops_order_id_fkey;
ALTER TABLE route_stops DROP CONSTRAINT route_stops_route_id_fkey;
ALTER TABLE broker_order_assignments DROP CONSTRAINT broker_order_assignments_order_id_fkey;
ALTER TABLE shipping_labels DROP CONSTRAINT shipping_labels_carrier_id_fkey;
ALTER TABLE shipping_labels DROP CONSTRAINT shipping_labels_order_id_fkey;
ALTER TABLE shipping_labels DROP CONSTRAINT shipping_labels_package_id_fkey;
ALTER TABLE payments DROP CONSTRAINT payments_order_id_fkey;
ALTER TABLE credit_ledger DROP CONSTRAINT credit_ledger_payment_id_fkey;
ALTER TABLE webhook_delivery_logs DROP CONSTRAINT webhook_delivery_logs_settings_id_fkey;
ALTER TABLE app_devices DROP CONSTRAINT app_devices_assignment_id_fkey;
ALTER TABLE datasets DROP CONSTRAINT datasets_group_id_fkey;
ALTER TABLE dataset_records DROP CONSTRAINT dataset_records_dataset_id_fkey;
ALTER TABLE warehouse_locations DROP CONSTRAINT warehouse_locations_warehouse_id_fkey;
ALTER TABLE warehouse_staff DROP CONSTRAINT warehouse_staff_warehouse_id_fkey;
ALTER TABLE warehouse_packages DROP CONSTRAINT warehouse_packages_home_warehouse_id_fkey;
ALTER TABLE warehouse_packages DROP CONSTRAINT warehouse_packages_location_id_fkey;
ALTER TABLE warehouse_packages DROP CONSTRAINT warehouse_packages_warehouse_id_fkey;
ALTER TABLE warehouse_stock DROP CONSTRAINT warehouse_stock_location_id_fkey;
ALTER TABLE warehouse_stock DROP CONSTRAINT warehouse_stock_warehouse_id_fkey;
ALTER TABLE warehouse_movements DROP CONSTRAINT warehouse_movements_warehouse_id_fkey;
ALTER TABLE warehouse_route_lanes DROP CONSTRAINT warehouse_route_lanes_location_id_fkey;
ALTER TABLE warehouse_route_lanes DROP CONSTRAINT warehouse_route_lanes_warehouse_id_fkey;
ALTER TABLE warehouse_outbounds DROP CONSTRAINT warehouse_outbounds_warehouse_id_fkey;
ALTER TABLE warehouse_transfers DROP CONSTRAINT warehouse_transfers_from_warehouse_id_fkey;
ALTER TABLE warehouse_transfers DROP CONSTRAINT warehouse_transfers_to_warehouse_id_fkey;
ALTER TABLE order_chats DROP CONSTRAINT order_chats_order_id_fkey;
ALTER TABLE order_chat_messages DROP CONSTRAINT order_chat_messages_chat_id_fkey;
ALTER TABLE order_chat_reads DROP CONSTRAINT order_chat_reads_chat_id_fkey;
ALTER TABLE driver_positions DROP CONSTRAINT driver_positions_route_id_fkey;
ALTER TABLE fleet_members DROP CONSTRAINT fleet_members_fleet_id_fkey;
ALTER TABLE fleet_shift_patterns DROP CONSTRAINT fleet_shift_patterns_depot_id_fkey;
ALTER TABLE fleet_shift_patterns DROP CONSTRAINT fleet_shift_patterns_fleet_id_fkey;
ALTER TABLE fleet_shifts DROP CONSTRAINT fleet_shifts_depot_id_fkey;
ALTER TABLE fleet_shifts DROP CONSTRAINT fleet_shifts_fleet_id_fkey;
ALTER TABLE fleet_shifts DROP CONSTRAINT fleet_shifts_pattern_id_fkey;
ALTER TABLE fleet_shift_signups DROP CONSTRAINT fleet_shift_signups_shift_id_fkey;
ALTER TABLE route_board_entries DROP CONSTRAINT route_board_entries_fleet_id_fkey;
ALTER TABLE route_board_entries DROP CONSTRAINT route_board_entries_route_id_fkey;
ALTER TABLE route_board_standby DROP CONSTRAINT route_board_standby_route_id_fkey;
ALTER TABLE route_board_history DROP CONSTRAINT route_board_history_fleet_id_fkey;
ALTER TABLE route_board_history DROP CONSTRAINT route_board_history_route_id_fkey;
ALTER TABLE riders DROP CONSTRAINT riders_busy_order_id_fkey;
ALTER TABLE instant_dispatches DROP CONSTRAINT instant_dispatches_order_id_fkey;
ALTER TABLE instant_offers DROP CONSTRAINT instant_offers_order_id_fkey;
ALTER TABLE agent_turns DROP CONSTRAINT agent_turns_conversation_id_fkey;
ALTER TABLE packing_plans DROP CONSTRAINT packing_plans_order_id_fkey;
ALTER TABLE load_plans DROP CONSTRAINT load_plans_route_id_fkey;
ALTER TABLE locker_devices DROP CONSTRAINT locker_devices_site_id_fkey;
ALTER TABLE locker_compartments DROP CONSTRAINT locker_compartments_device_id_fkey;
ALTER TABLE locker_compartments DROP CONSTRAINT locker_compartments_site_id_fkey;
ALTER TABLE locker_bookings DROP CONSTRAINT locker_bookings_compartment_id_fkey;
ALTER TABLE locker_bookings DROP CONSTRAINT locker_bookings_device_id_fkey;
ALTER TABLE locker_bookings DROP CONSTRAINT locker_bookings_order_id_fkey;
ALTER TABLE locker_bookings DROP CONSTRAINT locker_bookings_site_id_fkey;
ALTER TABLE locker_commands DROP CONSTRAINT locker_commands_booking_id_fkey;
ALTER TABLE locker_commands DROP CONSTRAINT locker_commands_compartment_id_fkey;
ALTER TABLE locker_commands DROP CONSTRAINT locker_commands_device_id_fkey;
ALTER TABLE locker_quotas DROP CONSTRAINT locker_quotas_site_id_fkey;
ALTER TABLE reservation_slots DROP CONSTRAINT reservation_slots_resource_id_fkey;
ALTER TABLE reservation_bookings DROP CONSTRAINT reservation_bookings_resource_id_fkey;
ALTER TABLE reservation_bookings DROP CONSTRAINT reservation_bookings_slot_id_fkey;
ALTER TABLE inbound_parcels DROP CONSTRAINT inbound_parcels_suite_id_fkey;
ALTER TABLE consolidations DROP CONSTRAINT consolidations_suite_id_fkey;
ALTER TABLE third_party_orders DROP CONSTRAINT third_party_orders_connection_id_fkey;
ALTER TABLE third_party_status_pushes DROP CONSTRAINT third_party_status_pushes_third_party_order_id_fkey;
ALTER TABLE sms_consent_evidence DROP CONSTRAINT sms_consent_evidence_subscriber_id_fkey;
ALTER TABLE sms_campaigns DROP CONSTRAINT sms_campaigns_segment_id_fkey;
ALTER TABLE sms_campaign_recipients DROP CONSTRAINT sms_campaign_recipients_campaign_id_fkey;
ALTER TABLE sms_campaign_recipients DROP CONSTRAINT sms_campaign_recipients_subscriber_id_fkey;
ALTER TABLE sms_messages DROP CONSTRAINT sms_messages_campaign_id_fkey;
ALTER TABLE sms_messages DROP CONSTRAINT sms_messages_recipient_id_fkey;
ALTER TABLE sms_messages DROP CONSTRAINT sms_messages_subscriber_id_fkey;
ALTER TABLE sms_offer_codes DROP CONSTRAINT sms_offer_codes_campaign_id_fkey;
ALTER TABLE sms_offer_codes DROP CONSTRAINT sms_offer_codes_subscriber_id_fkey;
ALTER TABLE label_orders DROP CONSTRAINT label_orders_order_id_fkey;
ALTER TABLE label_images DROP CONSTRAINT label_images_order_id_fkey;

-- Primary keys take business_id after their columns, so lookups by id keep using them.
ALTER TABLE agent_conversations DROP CONSTRAINT agent_conversations_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE agent_turns DROP CONSTRAINT agent_turns_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE agent_write_proposals DROP CONSTRAINT agent_write_proposals_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE analytics_exceptions DROP CONSTRAINT analytics_exceptions_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE app_assignments DROP CONSTRAINT app_assignments_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE app_devices DROP CONSTRAINT app_devices_pkey, ADD PRIMARY KEY (assignment_id, user_id, device_id, business_id);
ALTER TABLE broker_order_assignments DROP CONSTRAINT broker_order_assignments_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE consolidations DROP CONSTRAINT consolidations_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE contractor_rules DROP CONSTRAINT contractor_rules_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE credit_ledger DROP CONSTRAINT credit_ledger_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE dataset_groups DROP CONSTRAINT dataset_groups_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE dataset_records DROP CONSTRAINT dataset_records_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE datasets DROP CONSTRAINT datasets_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE depots DROP CONSTRAINT depots_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE documents DROP CONSTRAINT documents_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE driver_positions DROP CONSTRAINT driver_positions_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE driver_profiles DROP CONSTRAINT driver_profiles_pkey, ADD PRIMARY KEY (user_id, business_id);
ALTER TABLE driver_registrations DROP CONSTRAINT driver_registrations_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE driver_writes DROP CONSTRAINT driver_writes_pkey, ADD PRIMARY KEY (driver_user_id, client_id, business_id);
ALTER TABLE fleet_members DROP CONSTRAINT fleet_members_pkey, ADD PRIMARY KEY (fleet_id, driver_user_id, business_id);
ALTER TABLE fleet_shift_patterns DROP CONSTRAINT fleet_shift_patterns_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE fleet_shift_signups DROP CONSTRAINT fleet_shift_signups_pkey, ADD PRIMARY KEY (shift_id, driver_user_id, business_id);
ALTER TABLE fleet_shifts DROP CONSTRAINT fleet_shifts_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE fleets DROP CONSTRAINT fleets_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE forwarding_suites DROP CONSTRAINT forwarding_suites_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE inbound_parcels DROP CONSTRAINT inbound_parcels_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE instant_dispatches DROP CONSTRAINT instant_dispatches_pkey, ADD PRIMARY KEY (order_id, business_id);
ALTER TABLE instant_offers DROP CONSTRAINT instant_offers_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE label_images DROP CONSTRAINT label_images_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE label_orders DROP CONSTRAINT label_orders_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE load_plans DROP CONSTRAINT load_plans_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE loading_spaces DROP CONSTRAINT loading_spaces_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE locker_bookings DROP CONSTRAINT locker_bookings_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE locker_commands DROP CONSTRAINT locker_commands_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE locker_compartments DROP CONSTRAINT locker_compartments_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE locker_devices DROP CONSTRAINT locker_devices_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE locker_ledger DROP CONSTRAINT locker_ledger_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE locker_quotas DROP CONSTRAINT locker_quotas_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE locker_sites DROP CONSTRAINT locker_sites_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE luggage_relays DROP CONSTRAINT luggage_relays_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE maps DROP CONSTRAINT maps_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE order_chat_messages DROP CONSTRAINT order_chat_messages_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE order_chat_reads DROP CONSTRAINT order_chat_reads_pkey, ADD PRIMARY KEY (chat_id, user_id, business_id);
ALTER TABLE order_chats DROP CONSTRAINT order_chats_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE order_events DROP CONSTRAINT order_events_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE orders DROP CONSTRAINT orders_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE packages DROP CONSTRAINT packages_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE packaging_types DROP CONSTRAINT packaging_types_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE packing_plans DROP CONSTRAINT packing_plans_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE payments DROP CONSTRAINT payments_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE points_of_interest DROP CONSTRAINT points_of_interest_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE proof_files DROP CONSTRAINT proof_files_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE reservation_bookings DROP CONSTRAINT reservation_bookings_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE reservation_resources DROP CONSTRAINT reservation_resources_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE reservation_slots DROP CONSTRAINT reservation_slots_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE riders DROP CONSTRAINT riders_pkey, ADD PRIMARY KEY (driver_user_id, business_id);
ALTER TABLE route_board_entries DROP CONSTRAINT route_board_entries_pkey, ADD PRIMARY KEY (route_id, business_id);
ALTER TABLE route_board_history DROP CONSTRAINT route_board_history_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE route_board_standby DROP CONSTRAINT route_board_standby_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE route_stops DROP CONSTRAINT route_stops_pkey, ADD PRIMARY KEY (route_id, sequence, business_id);
ALTER TABLE routes DROP CONSTRAINT routes_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE saved_addresses DROP CONSTRAINT saved_addresses_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE service_zones DROP CONSTRAINT service_zones_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE shipping_carriers DROP CONSTRAINT shipping_carriers_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE shipping_labels DROP CONSTRAINT shipping_labels_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE sms_campaign_recipients DROP CONSTRAINT sms_campaign_recipients_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE sms_campaigns DROP CONSTRAINT sms_campaigns_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE sms_consent_evidence DROP CONSTRAINT sms_consent_evidence_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE sms_inbound DROP CONSTRAINT sms_inbound_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE sms_messages DROP CONSTRAINT sms_messages_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE sms_offer_codes DROP CONSTRAINT sms_offer_codes_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE sms_segments DROP CONSTRAINT sms_segments_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE sms_subscribers DROP CONSTRAINT sms_subscribers_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE third_party_connections DROP CONSTRAINT third_party_connections_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE third_party_orders DROP CONSTRAINT third_party_orders_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE third_party_status_pushes DROP CONSTRAINT third_party_status_pushes_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE vehicles DROP CONSTRAINT vehicles_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE warehouse_locations DROP CONSTRAINT warehouse_locations_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE warehouse_movements DROP CONSTRAINT warehouse_movements_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE warehouse_packages DROP CONSTRAINT warehouse_packages_pkey, ADD PRIMARY KEY (package_id, business_id);
ALTER TABLE warehouse_route_lanes DROP CONSTRAINT warehouse_route_lanes_pkey, ADD PRIMARY KEY (warehouse_id, route_id, business_id);
ALTER TABLE warehouse_staff DROP CONSTRAINT warehouse_staff_pkey, ADD PRIMARY KEY (warehouse_id, user_id, business_id);
ALTER TABLE warehouse_stock DROP CONSTRAINT warehouse_stock_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE warehouse_transfers DROP CONSTRAINT warehouse_transfers_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE warehouses DROP CONSTRAINT warehouses_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE webhook_delivery_logs DROP CONSTRAINT webhook_delivery_logs_pkey, ADD PRIMARY KEY (id, business_id);
ALTER TABLE webhook_settings DROP CONSTRAINT webhook_settings_pkey, ADD PRIMARY KEY (id, business_id);

-- Unique keys are per business, business_id last for the same reason.
DROP INDEX route_stops_order_leg;
CREATE UNIQUE INDEX route_stops_order_leg ON route_stops (route_id, order_id, leg, business_id);
DROP INDEX broker_order_assignments_one_active;
CREATE UNIQUE INDEX broker_order_assignments_one_active ON broker_order_assignments (order_id, business_id) WHERE (status = 'active'::text);
ALTER TABLE shipping_labels DROP CONSTRAINT shipping_labels_tracking_number_key, ADD CONSTRAINT shipping_labels_tracking_number_key UNIQUE (tracking_number, business_id);
DROP INDEX payments_paid_once;
CREATE UNIQUE INDEX payments_paid_once ON payments (order_id, business_id) WHERE (status = 'succeeded'::text);
ALTER TABLE driver_registrations DROP CONSTRAINT driver_registrations_user_id_key, ADD CONSTRAINT driver_registrations_user_id_key UNIQUE (user_id, business_id);
ALTER TABLE warehouse_locations DROP CONSTRAINT warehouse_locations_warehouse_id_code_key, ADD CONSTRAINT warehouse_locations_warehouse_id_code_key UNIQUE (warehouse_id, code, business_id);
DROP INDEX warehouse_stock_place;
CREATE UNIQUE INDEX warehouse_stock_place ON warehouse_stock (warehouse_id, customer_user_id, sku, COALESCE(location_id, (0)::bigint), business_id);
DROP INDEX warehouse_movements_scan;
CREATE UNIQUE INDEX warehouse_movements_scan ON warehouse_movements (warehouse_id, scan_id, business_id) WHERE (scan_id IS NOT NULL);
ALTER TABLE warehouse_route_lanes DROP CONSTRAINT warehouse_route_lanes_location_id_route_date_key, ADD CONSTRAINT warehouse_route_lanes_location_id_route_date_key UNIQUE (location_id, route_date, business_id);
ALTER TABLE order_chats DROP CONSTRAINT order_chats_order_id_key, ADD CONSTRAINT order_chats_order_id_key UNIQUE (order_id, business_id);
ALTER TABLE proof_files DROP CONSTRAINT proof_files_storage_key_key, ADD CONSTRAINT proof_files_storage_key_key UNIQUE (storage_key, business_id);
ALTER TABLE proof_files DROP CONSTRAINT proof_files_uploaded_by_client_id_key, ADD CONSTRAINT proof_files_uploaded_by_client_id_key UNIQUE (uploaded_by, client_id, business_id);
DROP INDEX fleet_shifts_pattern_date;
CREATE UNIQUE INDEX fleet_shifts_pattern_date ON fleet_shifts (pattern_id, shift_date, business_id) WHERE (pattern_id IS NOT NULL);
ALTER TABLE route_board_standby DROP CONSTRAINT route_board_standby_route_id_driver_user_id_key, ADD CONSTRAINT route_board_standby_route_id_driver_user_id_key UNIQUE (route_id, driver_user_id, business_id);
ALTER TABLE instant_offers DROP CONSTRAINT instant_offers_order_id_driver_user_id_key, ADD CONSTRAINT instant_offers_order_id_driver_user_id_key UNIQUE (order_id, driver_user_id, business_id);
ALTER TABLE locker_compartments DROP CONSTRAINT locker_compartments_device_id_number_key, ADD CONSTRAINT locker_compartments_device_id_number_key UNIQUE (device_id, number, business_id);
ALTER TABLE locker_commands DROP CONSTRAINT locker_commands_seq_key, ADD CONSTRAINT locker_commands_seq_key UNIQUE (seq, business_id);
ALTER TABLE locker_quotas DROP CONSTRAINT locker_quotas_site_id_tenant_business_id_size_class_key, ADD CONSTRAINT locker_quotas_site_id_tenant_business_id_size_class_key UNIQUE (site_id, tenant_business_id, size_class, business_id);
ALTER TABLE reservation_slots DROP CONSTRAINT reservation_slots_resource_id_starts_at_key, ADD CONSTRAINT reservation_slots_resource_id_starts_at_key UNIQUE (resource_id, starts_at, business_id);
ALTER TABLE third_party_orders DROP CONSTRAINT third_party_orders_connection_id_provider_order_id_key, ADD CONSTRAINT third_party_orders_connection_id_provider_order_id_key UNIQUE (connection_id, provider_order_id, business_id);
DROP INDEX third_party_orders_local;
CREATE UNIQUE INDEX third_party_orders_local ON third_party_orders (order_id, business_id) WHERE (order_id IS NOT NULL);
ALTER TABLE third_party_status_pushes DROP CONSTRAINT third_party_status_pushes_third_party_order_id_seq_key, ADD CONSTRAINT third_party_status_pushes_third_party_order_id_seq_key UNIQUE (third_party_order_id, seq, business_id);
ALTER TABLE sms_campaign_recipients DROP CONSTRAINT sms_campaign_recipients_campaign_id_subscriber_id_key, ADD CONSTRAINT sms_campaign_recipients_campaign_id_subscriber_id_key UNIQUE (campaign_id, subscriber_id, business_id);
DROP INDEX sms_messages_provider_id;
CREATE UNIQUE INDEX sms_messages_provider_id ON sms_messages (provider, provider_message_id, business_id) WHERE (provider_message_id IS NOT NULL);
ALTER TABLE sms_offer_codes DROP CONSTRAINT sms_offer_codes_campaign_id_subscriber_id_key, ADD CONSTRAINT sms_offer_codes_campaign_id_subscriber_id_key UNIQUE (campaign_id, subscriber_id, business_id);
ALTER TABLE label_images DROP CONSTRAINT label_images_storage_key_key, ADD CONSTRAINT label_images_storage_key_key UNIQUE (storage_key, business_id);

-- A locker booking is the tenant's (business_id) at the operator's locker (operator_business_id):
-- its locker, device and compartment are the operator's, and so are the commands that open it.
ALTER TABLE locker_bookings ADD CONSTRAINT locker_bookings_operator_id_key UNIQUE (id, operator_business_id);

-- The references again, with business_id on both sides; SET NULL clears only the referring column.
ALTER TABLE orders ADD CONSTRAINT orders_rerouted_from_fkey
  FOREIGN KEY (business_id, rerouted_from) REFERENCES orders (business_id, id);
ALTER TABLE orders ADD CONSTRAINT orders_route
  FOREIGN KEY (business_id, route_id) REFERENCES routes (business_id, id);
ALTER TABLE packages ADD CONSTRAINT packages_order_id_fkey
  FOREIGN KEY (business_id, order_id) REFERENCES orders (business_id, id) ON DELETE CASCADE;
ALTER TABLE order_events ADD CONSTRAINT order_events_order_id_fkey
  FOREIGN KEY (business_id, order_id) REFERENCES orders (business_id, id) ON DELETE CASCADE;
ALTER TABLE driver_profiles ADD CONSTRAINT driver_profiles_depot_id_fkey
  FOREIGN KEY (business_id, depot_id) REFERENCES depots (business_id, id);
ALTER TABLE routes ADD CONSTRAINT routes_vehicle_id_fkey
  FOREIGN KEY (business_id, vehicle_id) REFERENCES vehicles (business_id, id);
ALTER TABLE route_stops ADD CONSTRAINT route_stops_order_id_fkey
  FOREIGN KEY (business_id, order_id) REFERENCES orders (business_id, id);
ALTER TABLE route_stops ADD CONSTRAINT route_stops_route_id_fkey
  FOREIGN KEY (business_id, route_id) REFERENCES routes (business_id, id) ON DELETE CASCADE;
ALTER TABLE broker_order_assignments ADD CONSTRAINT broker_order_assignments_order_id_fkey
  FOREIGN KEY (business_id, order_id) REFERENCES orders (business_id, id);
ALTER TABLE shipping_labels ADD CONSTRAINT shipping_labels_carrier_id_fkey
  FOREIGN KEY (business_id, carrier_id) REFERENCES shipping_carriers (business_id, id);
ALTER TABLE shipping_labels ADD CONSTRAINT shipping_labels_order_id_fkey
  FOREIGN KEY (business_id, order_id) REFERENCES orders (business_id, id);
ALTER TABLE shipping_labels ADD CONSTRAINT shipping_labels_package_id_fkey
  FOREIGN KEY (business_id, package_id) REFERENCES packages (business_id, id);
ALTER TABLE payments ADD CONSTRAINT payments_order_id_fkey
  FOREIGN KEY (business_id, order_id) REFERENCES orders (business_id, id);
ALTER TABLE credit_ledger ADD CONSTRAINT credit_ledger_payment_id_fkey
  FOREIGN KEY (business_id, payment_id) REFERENCES payments (business_id, id);
ALTER TABLE webhook_delivery_logs ADD CONSTRAINT webhook_delivery_logs_settings_id_fkey
  FOREIGN KEY (business_id, settings_id) REFERENCES webhook_settings (business_id, id) ON DELETE SET NULL (settings_id);
ALTER TABLE app_devices ADD CONSTRAINT app_devices_assignment_id_fkey
  FOREIGN KEY (business_id, assignment_id) REFERENCES app_assignments (business_id, id) ON DELETE CASCADE;
ALTER TABLE datasets ADD CONSTRAINT datasets_group_id_fkey
  FOREIGN KEY (business_id, group_id) REFERENCES dataset_groups (business_id, id);
ALTER TABLE dataset_records ADD CONSTRAINT dataset_records_dataset_id_fkey
  FOREIGN KEY (business_id, dataset_id) REFERENCES datasets (business_id, id) ON DELETE CASCADE;
ALTER TABLE warehouse_locations ADD CONSTRAINT warehouse_locations_warehouse_id_fkey
  FOREIGN KEY (business_id, warehouse_id) REFERENCES warehouses (business_id, id);
ALTER TABLE warehouse_staff ADD CONSTRAINT warehouse_staff_warehouse_id_fkey
  FOREIGN KEY (business_id, warehouse_id) REFERENCES warehouses (business_id, id);
ALTER TABLE warehouse_packages ADD CONSTRAINT warehouse_packages_home_warehouse_id_fkey
  FOREIGN KEY (business_id, home_warehouse_id) REFERENCES warehouses (business_id, id);
ALTER TABLE warehouse_packages ADD CONSTRAINT warehouse_packages_location_id_fkey
  FOREIGN KEY (business_id, location_id) REFERENCES warehouse_locations (business_id, id);
ALTER TABLE warehouse_packages ADD CONSTRAINT warehouse_packages_warehouse_id_fkey
  FOREIGN KEY (business_id, warehouse_id) REFERENCES warehouses (business_id, id);
ALTER TABLE warehouse_stock ADD CONSTRAINT warehouse_stock_location_id_fkey
  FOREIGN KEY (business_id, location_id) REFERENCES warehouse_locations (business_id, id);
ALTER TABLE warehouse_stock ADD CONSTRAINT warehouse_stock_warehouse_id_fkey
  FOREIGN KEY (business_id, warehouse_id) REFERENCES warehouses (business_id, id);
ALTER TABLE warehouse_movements ADD CONSTRAINT warehouse_movements_warehouse_id_fkey
  FOREIGN KEY (business_id, warehouse_id) REFERENCES warehouses (business_id, id);
ALTER TABLE warehouse_route_lanes ADD CONSTRAINT warehouse_route_lanes_location_id_fkey
  FOREIGN KEY (business_id, location_id) REFERENCES warehouse_locations (business_id, id);
ALTER TABLE warehouse_route_lanes ADD CONSTRAINT warehouse_route_lanes_warehouse_id_fkey
  FOREIGN KEY (business_id, warehouse_id) REFERENCES warehouses (business_id, id);
ALTER TABLE warehouse_outbounds ADD CONSTRAINT warehouse_outbounds_warehouse_id_fkey
  FOREIGN KEY (business_id, warehouse_id) REFERENCES warehouses (business_id, id);
ALTER TABLE warehouse_transfers ADD CONSTRAINT warehouse_transfers_from_warehouse_id_fkey
  FOREIGN KEY (business_id, from_warehouse_id) REFERENCES warehouses (business_id, id);
ALTER TABLE warehouse_transfers ADD CONSTRAINT warehouse_transfers_to_warehouse_id_fkey
  FOREIGN KEY (business_id, to_warehouse_id) REFERENCES warehouses (business_id, id);
ALTER TABLE order_chats ADD CONSTRAINT order_chats_order_id_fkey
  FOREIGN KEY (business_id, order_id) REFERENCES orders (business_id, id);
ALTER TABLE order_chat_messages ADD CONSTRAINT order_chat_messages_chat_id_fkey
  FOREIGN KEY (business_id, chat_id) REFERENCES order_chats (business_id, id);
ALTER TABLE order_chat_reads ADD CONSTRAINT order_chat_reads_chat_id_fkey
  FOREIGN KEY (business_id, chat_id) REFERENCES order_chats (business_id, id);
ALTER TABLE driver_positions ADD CONSTRAINT driver_positions_route_id_fkey
  FOREIGN KEY (business_id, route_id) REFERENCES routes (business_id, id) ON DELETE CASCADE;
ALTER TABLE fleet_members ADD CONSTRAINT fleet_members_fleet_id_fkey
  FOREIGN KEY (business_id, fleet_id) REFERENCES fleets (business_id, id) ON DELETE CASCADE;
ALTER TABLE fleet_shift_patterns ADD CONSTRAINT fleet_shift_patterns_depot_id_fkey
  FOREIGN KEY (business_id, depot_id) REFERENCES depots (business_id, id);
ALTER TABLE fleet_shift_patterns ADD CONSTRAINT fleet_shift_patterns_fleet_id_fkey
  FOREIGN KEY (business_id, fleet_id) REFERENCES fleets (business_id, id) ON DELETE CASCADE;
ALTER TABLE fleet_shifts ADD CONSTRAINT fleet_shifts_depot_id_fkey
  FOREIGN KEY (business_id, depot_id) REFERENCES depots (business_id, id);
ALTER TABLE fleet_shifts ADD CONSTRAINT fleet_shifts_fleet_id_fkey
  FOREIGN KEY (business_id, fleet_id) REFERENCES fleets (business_id, id) ON DELETE CASCADE;
ALTER TABLE fleet_shifts ADD CONSTRAINT fleet_shifts_pattern_id_fkey
  FOREIGN KEY (business_id, pattern_id) REFERENCES fleet_shift_patterns (business_id, id) ON DELETE SET NULL (pattern_id);
ALTER TABLE fleet_shift_signups ADD CONSTRAINT fleet_shift_signups_shift_id_fkey
  FOREIGN KEY (business_id, shift_id) REFERENCES fleet_shifts (business_id, id) ON DELETE CASCADE;
ALTER TABLE route_board_entries ADD CONSTRAINT route_board_entries_fleet_id_fkey
  FOREIGN KEY (business_id, fleet_id) REFERENCES fleets (business_id, id) ON DELETE CASCADE;
ALTER TABLE route_board_entries ADD CONSTRAINT route_board_entries_route_id_fkey
  FOREIGN KEY (business_id, route_id) REFERENCES routes (business_id, id) ON DELETE CASCADE;
ALTER TABLE route_board_standby ADD CONSTRAINT route_board_standby_route_id_fkey
  FOREIGN KEY (business_id, route_id) REFERENCES route_board_entries (business_id, route_id) ON DELETE CASCADE;
ALTER TABLE route_board_history ADD CONSTRAINT route_board_history_fleet_id_fkey
  FOREIGN KEY (business_id, fleet_id) REFERENCES fleets (business_id, id) ON DELETE CASCADE;
ALTER TABLE route_board_history ADD CONSTRAINT route_board_history_route_id_fkey
  FOREIGN KEY (business_id, route_id) REFERENCES routes (business_id, id) ON DELETE CASCADE;
ALTER TABLE riders ADD CONSTRAINT riders_busy_order_id_fkey
  FOREIGN KEY (business_id, busy_order_id) REFERENCES orders (business_id, id) ON DELETE SET NULL (busy_order_id);
ALTER TABLE instant_dispatches ADD CONSTRAINT instant_dispatches_order_id_fkey
  FOREIGN KEY (business_id, order_id) REFERENCES orders (business_id, id) ON DELETE CASCADE;
ALTER TABLE instant_offers ADD CONSTRAINT instant_offers_order_id_fkey
  FOREIGN KEY (business_id, order_id) REFERENCES instant_dispatches (business_id, order_id) ON DELETE CASCADE;
ALTER TABLE agent_turns ADD CONSTRAINT agent_turns_conversation_id_fkey
  FOREIGN KEY (business_id, conversation_id) REFERENCES agent_conversations (business_id, id);
ALTER TABLE packing_plans ADD CONSTRAINT packing_plans_order_id_fkey
  FOREIGN KEY (business_id, order_id) REFERENCES orders (business_id, id) ON DELETE SET NULL (order_id);
ALTER TABLE load_plans ADD CONSTRAINT load_plans_route_id_fkey
  FOREIGN KEY (business_id, route_id) REFERENCES routes (business_id, id) ON DELETE SET NULL (route_id);
ALTER TABLE locker_devices ADD CONSTRAINT locker_devices_site_id_fkey
  FOREIGN KEY (business_id, site_id) REFERENCES locker_sites (business_id, id) ON DELETE CASCADE;
ALTER TABLE locker_compartments ADD CONSTRAINT locker_compartments_device_id_fkey
  FOREIGN KEY (business_id, device_id) REFERENCES locker_devices (business_id, id) ON DELETE CASCADE;
ALTER TABLE locker_compartments ADD CONSTRAINT locker_compartments_site_id_fkey
  FOREIGN KEY (business_id, site_id) REFERENCES locker_sites (business_id, id) ON DELETE CASCADE;
ALTER TABLE locker_bookings ADD CONSTRAINT locker_bookings_compartment_id_fkey
  FOREIGN KEY (operator_business_id, compartment_id) REFERENCES locker_compartments (business_id, id);
ALTER TABLE locker_bookings ADD CONSTRAINT locker_bookings_device_id_fkey
  FOREIGN KEY (operator_business_id, device_id) REFERENCES locker_devices (business_id, id);
ALTER TABLE locker_bookings ADD CONSTRAINT locker_bookings_order_id_fkey
  FOREIGN KEY (business_id, order_id) REFERENCES orders (business_id, id) ON DELETE SET NULL (order_id);
ALTER TABLE locker_bookings ADD CONSTRAINT locker_bookings_site_id_fkey
  FOREIGN KEY (operator_business_id, site_id) REFERENCES locker_sites (business_id, id);
ALTER TABLE locker_commands ADD CONSTRAINT locker_commands_booking_id_fkey
  FOREIGN KEY (business_id, booking_id) REFERENCES locker_bookings (operator_business_id, id);
ALTER TABLE locker_commands ADD CONSTRAINT locker_commands_compartment_id_fkey
  FOREIGN KEY (business_id, compartment_id) REFERENCES locker_compartments (business_id, id) ON DELETE CASCADE;
ALTER TABLE locker_commands ADD CONSTRAINT locker_commands_device_id_fkey
  FOREIGN KEY (business_id, device_id) REFERENCES locker_devices (business_id, id) ON DELETE CASCADE;
ALTER TABLE locker_quotas ADD CONSTRAINT locker_quotas_site_id_fkey
  FOREIGN KEY (business_id, site_id) REFERENCES locker_sites (business_id, id) ON DELETE CASCADE;
ALTER TABLE reservation_slots ADD CONSTRAINT reservation_slots_resource_id_fkey
  FOREIGN KEY (business_id, resource_id) REFERENCES reservation_resources (business_id, id) ON DELETE CASCADE;
ALTER TABLE reservation_bookings ADD CONSTRAINT reservation_bookings_resource_id_fkey
  FOREIGN KEY (business_id, resource_id) REFERENCES reservation_resources (business_id, id) ON DELETE CASCADE;
ALTER TABLE reservation_bookings ADD CONSTRAINT reservation_bookings_slot_id_fkey
  FOREIGN KEY (business_id, slot_id) REFERENCES reservation_slots (business_id, id);
ALTER TABLE inbound_parcels ADD CONSTRAINT inbound_parcels_suite_id_fkey
  FOREIGN KEY (business_id, suite_id) REFERENCES forwarding_suites (business_id, id);
ALTER TABLE consolidations ADD CONSTRAINT consolidations_suite_id_fkey
  FOREIGN KEY (business_id, suite_id) REFERENCES forwarding_suites (business_id, id);
ALTER TABLE third_party_orders ADD CONSTRAINT third_party_orders_connection_id_fkey
  FOREIGN KEY (business_id, connection_id) REFERENCES third_party_connections (business_id, id) ON DELETE CASCADE;
ALTER TABLE third_party_status_pushes ADD CONSTRAINT third_party_status_pushes_third_party_order_id_fkey
  FOREIGN KEY (business_id, third_party_order_id) REFERENCES third_party_orders (business_id, id) ON DELETE CASCADE;
ALTER TABLE sms_consent_evidence ADD CONSTRAINT sms_consent_evidence_subscriber_id_fkey
  FOREIGN KEY (business_id, subscriber_id) REFERENCES sms_subscribers (business_id, id) ON DELETE CASCADE;
ALTER TABLE sms_campaigns ADD CONSTRAINT sms_campaigns_segment_id_fkey
  FOREIGN KEY (business_id, segment_id) REFERENCES sms_segments (business_id, id);
ALTER TABLE sms_campaign_recipients ADD CONSTRAINT sms_campaign_recipients_campaign_id_fkey
  FOREIGN KEY (business_id, campaign_id) REFERENCES sms_campaigns (business_id, id) ON DELETE CASCADE;
ALTER TABLE sms_campaign_recipients ADD CONSTRAINT sms_campaign_recipients_subscriber_id_fkey
  FOREIGN KEY (business_id, subscriber_id) REFERENCES sms_subscribers (business_id, id) ON DELETE CASCADE;
ALTER TABLE sms_messages ADD CONSTRAINT sms_messages_campaign_id_fkey
  FOREIGN KEY (business_id, campaign_id) REFERENCES sms_campaigns (business_id, id) ON DELETE SET NULL (campaign_id);
ALTER TABLE sms_messages ADD CONSTRAINT sms_messages_recipient_id_fkey
  FOREIGN KEY (business_id, recipient_id) REFERENCES sms_campaign_recipients (business_id, id) ON DELETE SET NULL (recipient_id);
ALTER TABLE sms_messages ADD CONSTRAINT sms_messages_subscriber_id_fkey
  FOREIGN KEY (business_id, subscriber_id) REFERENCES sms_subscribers (business_id, id) ON DELETE SET NULL (subscriber_id);
ALTER TABLE sms_offer_codes ADD CONSTRAINT sms_offer_codes_campaign_id_fkey
  FOREIGN KEY (business_id, campaign_id) REFERENCES sms_campaigns (business_id, id) ON DELETE CASCADE;
ALTER TABLE sms_offer_codes ADD CONSTRAINT sms_offer_codes_subscriber_id_fkey
  FOREIGN KEY (business_id, subscriber_id) REFERENCES sms_subscribers (business_id, id) ON DELETE CASCADE;
ALTER TABLE label_orders ADD CONSTRAINT label_orders_order_id_fkey
  FOREIGN KEY (business_id, order_id) REFERENCES orders (business_id, id);
ALTER TABLE label_images ADD CONSTRAINT label_images_order_id_fkey
  FOREIGN KEY (business_id, order_id) REFERENCES orders (business_id, id);
