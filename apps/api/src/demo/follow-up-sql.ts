// The demo's screen-positives, read set-based from what the demo loaded: the opening rule of @sc/shared/follow-up
// (isBreastScreenPositive, isCervicalScreenPositive, isOralScreenPositive) written as one query, so a million scans
// cost one pass. Positives without a patient open no case (a case is a patient's).
import type { TFollowUpSourceKind } from '@sc/shared/follow-up';

export type DemoPositive = {
  kind: TFollowUpSourceKind;
  source_id: number;
  patient_id: number;
  /** ms since the epoch. */
  at: number;
  organization_id: number | null;
  /** The patient has a mobile and agreed to reminders (a reminder SMS may be sent), in `consent_language`. */
  reminded: boolean;
  consent_language: string | null;
};

/** A cervical exam's final read: both reviewers agree, or the ADMIN's final read of a disagreement. */
const CERVICAL_FINAL = `coalesce(e.final_status,
  CASE WHEN e.reviewer_one_status <> 'NOT_REVIEWED' AND e.reviewer_one_status = e.reviewer_two_status
       THEN e.reviewer_one_status END)`;

export const POSITIVES_SQL = `
  SELECT x.kind, x.source_id, x.patient_id, (extract(epoch FROM x.date_time) * 1000)::float8 AS at,
         p.organization_id,
         p.mobile IS NOT NULL AND p.reminder_consent AS reminded, p.consent_language
    FROM (
      SELECT 'SCAN' AS kind, s.id AS source_id, s.patient_id, s.date_time
        FROM scans s
       WHERE s.scan_type = 'SCAN' AND s.patient_id IS NOT NULL
         AND (cardinality(s.left_breast_finding) > 0 OR cardinality(s.right_breast_finding) > 0)
      UNION ALL
      SELECT 'CERVICAL', e.id, e.patient_id, e.date_time
        FROM cervical_exams e
       WHERE e.patient_id IS NOT NULL
         AND EXISTS (
           SELECT 1 FROM cervical_documents d JOIN cervical_document_reviews r ON r.document_id = d.id
            WHERE d.exam_id = e.id AND r.clinical_finding @> '[{"answer": true}]'::jsonb
              AND ((r.user_id = e.reviewer_one_id AND e.reviewer_one_status = ${CERVICAL_FINAL})
                OR (r.user_id = e.reviewer_two_id AND e.reviewer_two_status = ${CERVICAL_FINAL})))
      UNION ALL
      SELECT 'ORCA', o.id, o.patient_id, o.date_time
        FROM orca_exams o
       WHERE o.patient_id IS NOT NULL
         AND EXISTS (SELECT 1 FROM orca_findings f WHERE f.exam_id = o.id AND jsonb_array_length(f.symptoms) > 0)
    ) x
    JOIN patients p ON p.id = x.patient_id
   ORDER BY x.patient_id, x.date_time, x.kind, x.source_id`;

/** Organizations with their zone, state (for facility names) and country. */
export const ORGANIZATIONS_SQL = `
  SELECT o.id, o.timezone, coalesce(o.state, o.country, '') AS place, o.country_code
    FROM organizations o
   ORDER BY o.id`;

/**
 * The users who follow up an organization's cases: its ORG_ADMINs and the MANAGERs linked to it or to an ancestor,
 * then its distributor's DISTRIBUTOR_ADMINs (first the nearest).
 */
export const FOLLOWERS_SQL = `
  SELECT o.id AS organization_id, u.id AS user_id, u.user_type, trim(u.first_name || ' ' || u.last_name) AS name
    FROM organizations o
    JOIN users u ON u.deleted_at IS NULL AND (
         (u.user_type = 'ORG_ADMIN' AND u.organization_id = o.id)
      OR (u.user_type = 'MANAGER' AND EXISTS (
            SELECT 1 FROM manager_organizations m JOIN organizations mo ON mo.id = m.organization_id
             WHERE m.user_id = u.id AND o.tree_path LIKE mo.tree_path || '%'))
      OR (u.user_type = 'DISTRIBUTOR_ADMIN' AND u.organization_id IS NOT NULL AND EXISTS (
            SELECT 1 FROM organizations d WHERE d.id = u.organization_id AND o.tree_path LIKE d.tree_path || '%')))
   ORDER BY o.id, (u.user_type = 'ORG_ADMIN') DESC, (u.user_type = 'MANAGER') DESC, u.id`;
