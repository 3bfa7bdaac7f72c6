// Cervical exams for tests: a patient, an exam with two photos (or as many documents as asked) and the catalogue of
// qualities (the first one required) and clinical findings, inserted straight into the database.
import { count } from 'drizzle-orm';
import type { TReviewerStatus } from '@sc/shared/cervical';
import type { Db } from '../../db/client.ts';
import {
  cervicalClinicalFindings,
  cervicalDocuments,
  cervicalExams,
  cervicalQualities,
  patients,
} from '../../db/schema/index.ts';

export type SeededExam = { id: number; patientId: number; documentIds: number[] };

let seq = 0;

export async function ensureReviewOptions(db: Db): Promise<void> {
  const [row] = await db.select({ n: count() }).from(cervicalQualities);
  if ((row?.n ?? 0) > 0) return;
  await db.insert(cervicalQualities).values([
    { name: 'Image in focus', isRequired: true, zOrder: 1 },
    { name: 'Adequate lighting', zOrder: 2 },
    { name: 'Retired quality', isActive: false, zOrder: 3 },
  ]);
  await db.insert(cervicalClinicalFindings).values([
    { name: 'Acetowhite lesion', zOrder: 1 },
    { name: 'Mosaicism', zOrder: 2 },
  ]);
}

export async function seedExam(
  db: Db,
  opts: {
    organizationId: number | null;
    technicianId?: number | null;
    patient?: { firstName: string; lastName: string; age: number; mobile?: string; email?: string };
    deviceSerialNumber?: string;
    isSurvivor?: boolean;
    leftBreastFinding?: string[];
    hasSymptoms?: boolean;
    hasFamilyHistory?: boolean;
    dateTime?: Date;
    notes?: string;
    documents?: ('IMAGE' | 'VIDEO')[];
    reviewerOneStatus?: TReviewerStatus;
  },
): Promise<SeededExam> {
  seq++;
  await ensureReviewOptions(db);
  const p = opts.patient ?? { firstName: `Asha${seq}`, lastName: 'Patel', age: 40 };
  const [patient] = await db
    .insert(patients)
    .values({
      firstName: p.firstName,
      lastName: p.lastName,
      age: p.age,
      mobile: p.mobile ?? null,
      email: p.email ?? null,
      organizationId: opts.organizationId,
    })
    .returning();
  const [exam] = await db
    .insert(cervicalExams)
    .values({
      patientId: patient!.id,
      organizationId: opts.organizationId,
      technicianId: opts.technicianId ?? null,
      deviceSerialNumber: opts.deviceSerialNumber ?? `CRV-${seq}`,
      localDbId: `c-${process.pid}-${seq}`,
      dateTime: opts.dateTime ?? new Date('2026-03-01T10:00:00Z'),
      isSurvivor: opts.isSurvivor ?? false,
      hasSymptoms: opts.hasSymptoms ?? false,
      hasFamilyHistory: opts.hasFamilyHistory ?? false,
      leftBreastFinding: opts.leftBreastFinding ?? [],
      latitude: 18.52,
      longitude: 73.85,
      notes: opts.notes ? { message: opts.notes } : {},
      metadata: { device: { device_model: 'Tab A8', manufacturer: 'Samsung', os_version: '13' } },
      filePath: { reports: [{ path: `reports/cervical/cervical_${seq}.pdf` }], consent_form: [] },
      reviewerOneStatus: opts.reviewerOneStatus ?? 'NOT_REVIEWED',
    })
    .returning();
  const documentIds: number[] = [];
  for (const [i, type] of (opts.documents ?? ['IMAGE', 'IMAGE']).entries()) {
    const [doc] = await db
      .insert(cervicalDocuments)
      .values({
        examId: exam!.id,
        path: `documents/cervical/${exam!.id}/${seq}${i}.${type === 'VIDEO' ? 'mp4' : 'jpg'}`,
        documentType: type,
        symptomTag: 'After acetic acid',
      })
      .returning();
    documentIds.push(doc!.id);
  }
  return { id: exam!.id, patientId: patient!.id, documentIds };
}
