import { z } from 'zod';
import { csvLines, IMPORT_JOB_ROWS, importJob } from '../../platform/catalog/jobs.ts';
import { defineOperation, type Operation, STAFF } from '../../platform/catalog/operation.ts';
import { fieldMessage } from '../../platform/i18n/field-messages.ts';
import { pageEnvelope, pageParams } from '../../platform/pagination.ts';
import { idParam, openingHoursOutput } from '../../platform/schemas.ts';
import {
  type AddressesService,
  MAX_IMPORT_ROWS,
  poiCategorySchema,
  poiInput,
  savedAddressInput,
} from './service.ts';

const BOOK_KEEPERS = [...STAFF, 'customer'] as const;
const READ = { kinds: BOOK_KEEPERS, scopes: ['address:read'], customer: 'customer_id' };
const WRITE = { kinds: BOOK_KEEPERS, scopes: ['address:write'], customer: 'customer_id' };

const customerBook = idParam
  .optional()
  .describe("Staff: a customer's address book instead of the business's own. Ignored for customer accounts.");

const savedAddress = z
  .object({
    id: z.int(),
    customer_id: z.int().nullable().describe("null: the business's own book"),
    label: z.string(),
    name: z.string().nullable(),
    phone: z.string().nullable(),
    line1: z.string(),
    line2: z.string().nullable(),
    postal_code: z.string().nullable(),
    city: z.string().nullable(),
    country: z.string().nullable(),
    lat: z.number().nullable(),
    lng: z.number().nullable(),
    delivery_notes: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ title: 'SavedAddress' });
const addressAnswer = z.object({ result: z.literal(true), address: savedAddress });

const pointSchema = z
  .object({
    id: z.int(),
    name: z.string(),
    category: poiCategorySchema,
    line1: z.string(),
    postal_code: z.string().nullable(),
    city: z.string().nullable(),
    country: z.string().nullable(),
    lat: z.number(),
    lng: z.number(),
    opening_hours: openingHoursOutput,
    notes: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ title: 'PointOfInterest' });
const pointAnswer = z.object({ result: z.literal(true), point: pointSchema });

export function addressesOperations(addresses: AddressesService): Operation[] {
  return [
    defineOperation({
      name: 'list_points_of_interest',
      summary: "The business's points of interest (depots, hubs, lockers, customer sites), newest first",
      description:
        'Filter by category. Customers read them too (to find a locker); search_address and the geocoder also look among them.',
      tag: 'POI',
      kind: 'query',
      risk: 'low',
      access: { kinds: BOOK_KEEPERS, scopes: ['address:read'] },
      rest: { method: 'GET', path: '/v1/client/points-of-interest' },
      graphql: 'pointsOfInterest',
      input: z.object({ category: poiCategorySchema.optional(), ...pageParams }),
      output: z.object({ result: z.literal(true), ...pageEnvelope, points: z.array(pointSchema) }),
      handler: (ctx, input) => addresses.pois(ctx, input),
    }),
    defineOperation({
      name: 'create_point_of_interest',
      summary: 'Add a point of interest, with its opening hours',
      description:
        "A place of the business's own with a category, an address with coordinates and opening hours per weekday in local time; address search and the geocoder find it from then on.",
      tag: 'POI',
      kind: 'mutation',
      risk: 'low',
      access: { kinds: STAFF, scopes: ['address:write'] },
      rest: { method: 'POST', path: '/v1/client/points-of-interest' },
      graphql: 'createPointOfInterest',
      input: poiInput,
      output: pointAnswer,
      handler: (ctx, input) => addresses.createPoi(ctx, input),
    }),
    defineOperation({
      name: 'update_point_of_interest',
      summary: 'Change a point of interest: only the fields sent change',
      description:
        'Fields left out keep their value; address search and the geocoder use the new ones at once.',
      tag: 'POI',
      kind: 'mutation',
      risk: 'low',
      access: { kinds: STAFF, scopes: ['address:write'] },
      errors: ['POI_NOT_FOUND'],
      rest: { method: 'PATCH', path: '/v1/client/points-of-interest/:point_id' },
      graphql: 'updatePointOfInterest',
      input: poiInput.partial().extend({ point_id: idParam }),
      output: pointAnswer,
      handler: (ctx, { point_id, ...changes }) => addresses.updatePoi(ctx, point_id, changes),
    }),
    defineOperation({
      name: 'delete_point_of_interest',
      summary: 'Remove a point of interest',
      description: 'Address search and the geocoder stop finding it at once.',
      tag: 'POI',
      kind: 'mutation',
      risk: 'low',
      access: { kinds: STAFF, scopes: ['address:write'] },
      errors: ['POI_NOT_FOUND'],
      rest: { method: 'DELETE', path: '/v1/client/points-of-interest/:point_id' },
      graphql: 'deletePointOfInterest',
      input: z.object({ point_id: idParam }),
      output: z.object({ result: z.literal(true), deleted: z.int() }),
      handler: (ctx, input) => addresses.deletePoi(ctx, input.point_id),
    }),
    defineOperation({
      name: 'search_address',
      summary: 'Search the address book, typos forgiven, best match first',
      description:
        "Words are matched against the caller's address book, the business's points of interest and, for staff, its placed dataset records; the public geocoder answers when nothing of the business's own matches. Use it before create_order to fill a pickup or drop-off.",
      tag: 'AddressBook',
      kind: 'query',
      risk: 'low',
      tool: {
        user: 'search_address',
        guide:
          "Find a saved address by words (label, name, street, postal code, city), typos forgiven, best match first, with its coordinates. Use it before create_order to fill a pickup or drop-off from the caller's address book.",
        idempotent: true,
      },
      access: { kinds: BOOK_KEEPERS, scopes: ['address:read'] },
      rest: { method: 'GET', path: '/v1/client/addresses/search' },
      graphql: 'searchAddress',
      input: z.object({
        q: z.string().trim().min(2).max(200).describe('Words to look for'),
        limit: z.int().min(1).max(50).default(10),
      }),
      output: z.object({
        result: z.literal(true),
        matches: z.array(
          z.object({
            source: z
              .enum(['address_book', 'point_of_interest', 'dataset_record', 'geocoder'])
              .describe(
                'geocoder: a public geocoder placed the words, asked only when nothing of your own matched',
              ),
            score: z.number().describe('0 to 1: how well the words match'),
            address: savedAddress.extend({
              id: z
                .int()
                .nullable()
                .describe('The saved address, point of interest or dataset record; null from a geocoder'),
              category: poiCategorySchema.optional().describe('Points of interest: what kind of place'),
              dataset_id: z.int().optional().describe('Dataset records: their dataset'),
              created_at: z.string().nullable(),
              updated_at: z.string().nullable(),
            }),
          }),
        ),
      }),
      handler: (ctx, input) => addresses.search(ctx, input),
    }),
    defineOperation({
      name: 'geocode_address',
      summary:
        "Place an address on the map: the business's own places first, then the public geocoder if configured",
      description:
        'Answers found: false rather than a guess when no geocoder knows the place. The built-in geocoder answers ' +
        "from the business's address book, points of interest and placed dataset records; a public geocoder " +
        '(Nominatim search API) is asked after it when the operator configured GEOCODER_URL.',
      tag: 'Dataset',
      kind: 'query',
      risk: 'low',
      access: { kinds: STAFF, scopes: ['address:read'] },
      errors: ['GEOCODER_UNAVAILABLE'],
      rest: { method: 'GET', path: '/v1/client/geocode' },
      graphql: 'geocodeAddress',
      input: z.object({
        address: z.string().trim().min(3).max(300).describe('One line: "8 Quai Perrache, 69002 Lyon"'),
        country: z
          .string()
          .regex(/^[A-Z]{2}$/, fieldMessage('country_code'))
          .optional()
          .describe('ISO 3166-1 alpha-2: narrows the search'),
      }),
      output: z.object({
        result: z.literal(true),
        found: z.boolean(),
        place: z
          .object({
            lat: z.number(),
            lng: z.number(),
            label: z.string().describe('The place found, as the geocoder names it'),
            provider: z
              .string()
              .describe('Who placed it: business_data (your own places) or url (the public geocoder)'),
            confidence: z.number().describe('0 to 1'),
          })
          .nullable(),
      }),
      handler: (ctx, input) => addresses.geocode(ctx, input),
    }),
    defineOperation({
      name: 'list_saved_addresses',
      summary: 'The address book, newest first',
      description:
        "Staff read the business's book, or a customer's with customer_id; a customer reads its own.",
      tag: 'AddressBook',
      kind: 'query',
      risk: 'low',
      access: READ,
      rest: { method: 'GET', path: '/v1/client/addresses' },
      graphql: 'savedAddresses',
      input: z.object({ customer_id: customerBook, ...pageParams }),
      output: z.object({ result: z.literal(true), ...pageEnvelope, addresses: z.array(savedAddress) }),
      handler: (ctx, input) => addresses.list(ctx, input),
    }),
    defineOperation({
      name: 'create_saved_address',
      summary: 'Save an address in the address book',
      description:
        "Orders then name it by id (pickup_address_id, dropoff_address_id) instead of writing the address out. Staff save to a customer's book with customer_id.",
      tag: 'AddressBook',
      kind: 'mutation',
      risk: 'low',
      access: WRITE,
      rest: { method: 'POST', path: '/v1/client/addresses' },
      graphql: 'createSavedAddress',
      input: savedAddressInput.extend({ customer_id: customerBook }),
      output: addressAnswer,
      handler: (ctx, input) => addresses.create(ctx, input),
    }),
    defineOperation({
      name: 'update_saved_address',
      summary: 'Change a saved address: only the fields sent change',
      description: 'Orders created from the address before keep the copy they took.',
      tag: 'AddressBook',
      kind: 'mutation',
      risk: 'low',
      access: WRITE,
      errors: ['ADDRESS_NOT_FOUND'],
      rest: { method: 'PATCH', path: '/v1/client/addresses/:address_id' },
      graphql: 'updateSavedAddress',
      input: savedAddressInput.partial().extend({ address_id: idParam, customer_id: customerBook }),
      output: addressAnswer,
      handler: (ctx, { address_id, ...changes }) => addresses.update(ctx, address_id, changes),
    }),
    defineOperation({
      name: 'delete_saved_address',
      summary: 'Remove a saved address',
      description: 'Orders created from the address keep the copy they took.',
      tag: 'AddressBook',
      kind: 'mutation',
      risk: 'low',
      access: WRITE,
      errors: ['ADDRESS_NOT_FOUND'],
      rest: { method: 'DELETE', path: '/v1/client/addresses/:address_id' },
      graphql: 'deleteSavedAddress',
      input: z.object({ address_id: idParam, customer_id: customerBook }),
      output: z.object({ result: z.literal(true), deleted: z.int() }),
      handler: (ctx, input) => addresses.remove(ctx, input.address_id, input.customer_id),
    }),
    defineOperation({
      name: 'import_saved_addresses',
      summary: 'Import addresses from a CSV file, with a report per row',
      description:
        'The CSV has a header row naming the fields (label, name, phone, line1, line2, postal_code, city, country, ' +
        `lat, lng, delivery_notes), one address per row, at most ${MAX_IMPORT_ROWS} rows. Every row is checked and ` +
        'reported; with all_or_nothing, one bad row and none is saved. Over REST, a file of ' +
        `${IMPORT_JOB_ROWS} lines or more, or \`Prefer: respond-async\`, answers 202 with a job (docs/jobs.md).`,
      tag: 'AddressBook',
      kind: 'mutation',
      risk: 'medium',
      expensive: true,
      access: WRITE,
      job: importJob((input: { csv: string }) => csvLines(input.csv)),
      errors: ['CSV_UNREADABLE', 'CSV_TOO_LONG'],
      rest: { method: 'POST', path: '/v1/client/addresses/import' },
      graphql: 'importSavedAddresses',
      input: z.object({
        csv: z.string().min(1).max(2_000_000).describe('The CSV file, UTF-8'),
        customer_id: customerBook,
        all_or_nothing: z.boolean().default(false),
      }),
      output: z.object({
        result: z.boolean(),
        created: z.int(),
        refused: z.int(),
        rows: z.array(
          z.object({
            line: z.int().describe('Line of the file, the header being line 1'),
            success: z.boolean(),
            id: z.int().optional(),
            error_code: z.string().optional(),
            message: z.string().optional(),
            details: z.record(z.string(), z.unknown()).optional(),
          }),
        ),
      }),
      handler: (ctx, input) => addresses.importCsv(ctx, input),
    }),
  ];
}
