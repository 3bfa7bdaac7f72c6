// Patients (part 2 §3). Created in the console or uploaded by devices (device_serial_number + local_db_id).
import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { GENDERS } from '@sc/shared/constants';
import { byUser, createdModified } from './columns.ts';
import { users } from './identity.ts';
import { organizations, references } from './organizations.ts';

export const patients = pgTable(
  'patients',
  {
    id: serial('id').primaryKey(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull().default(''),
    /** Dial code, a hyphen, then the number: '+91-9876543210'. */
    mobile: text('mobile'),
    mobileCountryCode: text('mobile_country_code'),
    age: integer('age'),
    dateOfBirth: date('date_of_birth'),
    email: text('email'),
    gender: text('gender', { enum: GENDERS }).notNull().default('FEMALE'),
    clinicPatientId: text('clinic_patient_id'),
    physicianName: text('physician_name'),
    physicianEmail: text('physician_email'),
    referenceId: integer('reference_id').references(() => references.id, { onDelete: 'set null' }),
    organizationId: integer('organization_id').references(() => organizations.id, { onDelete: 'set null' }),
    technicianId: integer('technician_id').references(() => users.id, { onDelete: 'set null' }),
    /** When the record was made (on the device for uploads); `created` is when the server stored it. */
    dateTime: timestamp('date_time', { withTimezone: true }),
    localDbId: text('local_db_id'),
    deviceSerialNumber: text('device_serial_number'),
    /** Stored file paths of earlier mammogram reports. */
    mostRecentMammogramReport: jsonb('most_recent_mammogram_report').$type<string[]>().notNull().default([]),
    /**
     * The patient agreed to receive follow-up reminders by SMS (issue 26), and the language of the consent they
     * gave (a Language iso_code): reminders go only to consenting patients, in this language.
     */
    reminderConsent: boolean('reminder_consent').notNull().default(false),
    consentLanguage: text('consent_language'),
    /** Last upload from a device ("Synced on"). */
    synced: timestamp('synced', { withTimezone: true }),
    /**
     * Name, mobile and e-mail lower-cased, kept by the database: list searches match it with LIKE and a lower-cased
     * pattern, which is what ILIKE does (lower both sides, then LIKE) without lower-casing every candidate row on
     * each search (about five times faster on a three-letter term that matches tens of thousands of patients).
     */
    searchText: text('search_text').generatedAlwaysAs(
      sql.raw(`lower(first_name || ' ' || last_name || ' ' || coalesce(mobile, '') || ' ' || coalesce(email, ''))`),
    ),
    ...createdModified(),
    ...byUser(),
  },
  (t) => [
    index('patients_org_created_idx').on(t.organizationId, t.created),
    index('patients_created_idx').on(t.created),
    index('patients_technician_idx').on(t.technicianId),
    index('patients_device_local_idx').on(t.deviceSerialNumber, t.localDbId),
    // The patient, breast scan, cervical and ORCA list searches (search_text LIKE lower(pattern)).
    index('patients_search_text_trgm_idx').using('gin', sql`${t.searchText} gin_trgm_ops`),
  ],
);
