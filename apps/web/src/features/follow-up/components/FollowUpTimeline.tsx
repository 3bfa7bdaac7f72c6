// A case's timeline, oldest first: each entry's kind, who wrote it (or System), when in the viewer's zone, the
// move it made, its fields and note; an entry that later ones correct says so, and a correction names its entry.
import { Badge, Group, Stack, Text, Timeline } from '@mantine/core';
import {
  CONTACT_METHOD_LABELS,
  CONTACT_RESULT_LABELS,
  FOLLOW_UP_ENTRY_LABELS,
  FOLLOW_UP_MODALITY_LABELS,
  FOLLOW_UP_OUTCOME_LABELS,
  FOLLOW_UP_SITE_LABELS,
  FOLLOW_UP_STATUS_LABELS,
  type TFollowUpEntry,
} from '@sc/shared/follow-up';
import { formatDateTime } from '../../../components/dateTime.ts';

const FIELD_LABELS: Record<string, string> = {
  method: 'Method',
  result: 'Result',
  facility: 'Facility',
  referral_date: 'Referral date',
  appointment_date: 'Appointment',
  outcome: 'Outcome',
  site: 'Site',
  diagnosis_date: 'Diagnosis date',
  modality: 'Modality',
  source_kind: 'Source',
  source_id: 'Source id',
  from_name: 'From',
  to_name: 'To',
  language: 'Language',
};
const VALUE_LABELS: Record<string, Record<string, string>> = {
  method: CONTACT_METHOD_LABELS,
  result: CONTACT_RESULT_LABELS,
  outcome: FOLLOW_UP_OUTCOME_LABELS,
  site: FOLLOW_UP_SITE_LABELS,
  modality: FOLLOW_UP_MODALITY_LABELS,
};

/** The entry's fields as 'Label: value', known fields first, in their order; ids and nested objects left out. */
export function entryFields(data: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const [field, label] of Object.entries(FIELD_LABELS)) {
    const value = data[field];
    if (value === null || value === undefined || value === '' || typeof value === 'object') continue;
    out.push(`${label}: ${VALUE_LABELS[field]?.[String(value)] ?? String(value)}`);
  }
  return out;
}

export function FollowUpTimeline({ entries }: { entries: readonly TFollowUpEntry[] }) {
  const sorted = [...entries].sort((a, b) => a.at.localeCompare(b.at) || a.id - b.id);
  return (
    <Timeline active={sorted.length - 1} bulletSize={14} lineWidth={2} data-testid="follow-up-timeline">
      {sorted.map((e) => (
        <Timeline.Item
          key={e.id}
          data-testid="follow-up-entry"
          title={
            <Group gap="xs" wrap="wrap">
              <Text size="sm" fw={600}>
                #{e.id} {FOLLOW_UP_ENTRY_LABELS[e.kind]}
              </Text>
              {e.from_status && e.to_status && (
                <Text size="sm">
                  {FOLLOW_UP_STATUS_LABELS[e.from_status]} → {FOLLOW_UP_STATUS_LABELS[e.to_status]}
                </Text>
              )}
              {e.corrected_by.length > 0 && (
                <Badge color="red.9" variant="filled" tt="none" data-testid="follow-up-corrected-by">
                  Corrected by {e.corrected_by.map((n) => `#${n}`).join(', ')}
                </Badge>
              )}
              {e.corrects !== null && (
                <Badge color="blue.9" variant="filled" tt="none">
                  Corrects #{e.corrects}
                </Badge>
              )}
            </Group>
          }
        >
          <Stack gap={2}>
            <Text size="xs" c="dimmed">
              {e.by?.name ?? 'System'} · {formatDateTime(e.at)}
            </Text>
            {entryFields(e.data).map((line) => (
              <Text size="sm" key={line}>
                {line}
              </Text>
            ))}
            {e.note && (
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {e.note}
              </Text>
            )}
          </Stack>
        </Timeline.Item>
      ))}
    </Timeline>
  );
}
