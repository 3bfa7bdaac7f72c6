// Organizations (part 1 §3), their references and the language they default to.
import { sql } from 'drizzle-orm';
import {
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { byUser, createdModified } from './columns.ts';

export type CompanyInfo = {
  name?: string | null;
  city?: string | null;
  zip_code?: string | null;
  state?: string | null;
  address?: string | null;
  email?: string | null;
  contact_number?: string | null;
  country_code?: string | null;
  profile_image_path?: string | null;
};

export type LocalizedConsent = {
  name: string;
  ibe_consent_form: string[];
  cervaical_consent_form: string[];
  orca_consent_form: string[];
};

export const languages = pgTable(
  'languages',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    isoCode: text('iso_code').notNull(),
    isTutorialAvailable: boolean('is_tutorial_available').notNull().default(false),
    // References app_versions(id); the foreign key is declared in the migration to avoid an import cycle.
    appVersionId: integer('app_version_id'),
    ibeConsentForm: jsonb('ibe_consent_form').$type<string[]>().notNull().default([]),
    ...createdModified(),
  },
  (t) => [uniqueIndex('languages_iso_code_uq').on(sql`lower(${t.isoCode})`), index('languages_name_idx').on(t.name)],
);

export const organizations = pgTable(
  'organizations',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    address1: text('address_1'),
    address2: text('address_2'),
    address3: text('address_3'),
    country: text('country'),
    countryCode: text('country_code'),
    state: text('state'),
    zipcode: text('zipcode'),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    timezone: text('timezone').notNull().default('Asia/Kolkata'),
    languageId: integer('language_id').references(() => languages.id, { onDelete: 'set null' }),
    parentId: integer('parent_id').references((): AnyPgColumn => organizations.id, { onDelete: 'restrict' }),
    /** Materialized path of ids, '/1/5/12/': descendants are `tree_path LIKE '/1/5/%'`. */
    treePath: text('tree_path').notNull().default('/'),
    mobile: text('mobile'),
    hasWebAccess: boolean('has_web_access').notNull().default(false),
    canCreateOrganization: boolean('can_create_organization').notNull().default(false),
    webhookUrl: text('webhook_url'),
    webhookAuthToken: text('webhook_auth_token'),
    webhookSwitch: boolean('webhook_switch').notNull().default(false),
    /** The key every delivery's HMAC-SHA256 signature is made with (issue 27): shown once when made, rotatable. */
    webhookSecret: text('webhook_secret'),
    webhookSecretCreated: timestamp('webhook_secret_created', { withTimezone: true }),
    qrEnabledForTraining: boolean('qr_enabled_for_training').notNull().default(true),
    isOrcaNavigationAllowed: boolean('is_orca_navigation_allowed').notNull().default(false),
    isCervaicalNavigationAllowed: boolean('is_cervaical_navigation_allowed').notNull().default(false),
    enableSendSmsToPatient: boolean('enable_send_sms_to_patient').notNull().default(false),
    enableSendEmailToPatient: boolean('enable_send_email_to_patient').notNull().default(false),
    includeConsentFormInReport: boolean('include_consent_form_in_report').notNull().default(false),
    automaticTileSelectionEnabled: boolean('automatic_tile_selection_enabled').notNull().default(false),
    isStorageOptimised: boolean('is_storage_optimised').notNull().default(false),
    isBookingEnabled: boolean('is_booking_enabled').notNull().default(false),
    allowOfflinePayment: boolean('allow_offline_payment').notNull().default(false),
    /** Minor units (amount × 100). */
    price: integer('price'),
    currency: text('currency'),
    totalBookingsPerSlot: integer('total_bookings_per_slot'),
    /** Hours before a slot during which a booking may still be cancelled. */
    canBeCancelBefore: integer('can_be_cancel_before'),
    customizedMessage: text('customized_message'),
    customizedMessageQrPath: text('customized_message_qr_path'),
    ibeConsentForm: jsonb('ibe_consent_form').$type<string[]>().notNull().default([]),
    /** Days of week MON..SUN as ids 0..6. */
    availableDays: jsonb('available_days').$type<number[]>().notNull().default([]),
    localize: jsonb('localize').$type<Record<string, LocalizedConsent>>().notNull().default({}),
    companyInfo: jsonb('company_info').$type<CompanyInfo>().notNull().default({}),
    lastSyncDate: timestamp('last_sync_date', { withTimezone: true }),
    ...createdModified(),
    ...byUser(),
  },
  (t) => [
    index('organizations_parent_idx').on(t.parentId),
    index('organizations_tree_path_idx').on(t.treePath.op('text_pattern_ops')),
    index('organizations_created_idx').on(t.created),
    index('organizations_distributor_idx').on(t.canCreateOrganization),
    index('organizations_name_trgm_idx').using('gin', t.name.op('gin_trgm_ops')),
    index('organizations_address_trgm_idx').using(
      'gin',
      sql`(coalesce(${t.address1}, '') || ' ' || coalesce(${t.address2}, '') || ' ' || coalesce(${t.address3}, '')) gin_trgm_ops`,
    ),
  ],
);

export const references = pgTable(
  'references',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    organizationId: integer('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    ...createdModified(),
    ...byUser(),
  },
  (t) => [index('references_org_idx').on(t.organizationId, t.isActive)],
);
