// One audit row in full (issue 27): when, who and as whom, the action, the target, the organization, the outcome, the
// address and user agent, the details (key / value), and what changed as Field | Before | After. Opened from a row of
// the audit screen and of a record's History.
import { Anchor, Badge, Modal, Stack, Table, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { TAuditOutcome, TAuditRow } from '@sc/shared/audit';
import { formatDateTime } from '../../../components/dateTime.ts';
import { NO_VALUE, actionLabel, formatValue, groupLabel, targetLabel, targetPath, whoOf } from './auditFormat.ts';

const OUTCOME_LABELS: Record<TAuditOutcome, string> = { success: 'Success', failure: 'Failure' };

/** The outcome as a badge, filled in dark shades (a light badge fails AA contrast). */
export function AuditOutcomeBadge({ outcome }: { outcome: TAuditOutcome }) {
  return (
    <Badge variant="filled" color={outcome === 'success' ? 'teal.9' : 'red.9'} data-testid="audit-outcome">
      {OUTCOME_LABELS[outcome]}
    </Badge>
  );
}

/** A value that may be long or an object: kept on its lines, wrapped anywhere. */
function Value({ value, testId }: { value: unknown; testId?: string }) {
  const text = formatValue(value);
  return (
    <Text
      size="sm"
      c={text === NO_VALUE ? 'dimmed' : undefined}
      ff={typeof value === 'object' && value !== null ? 'monospace' : undefined}
      style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
      data-testid={testId}
    >
      {text}
    </Text>
  );
}

/** What a write changed: Field | Before | After; a row without changes (a read, a sign-in) says so. */
export function AuditChanges({ changes }: { changes: TAuditRow['changes'] }) {
  if (changes.length === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid="audit-no-changes">
        No field changed.
      </Text>
    );
  }
  return (
    <Table withTableBorder withColumnBorders layout="fixed" verticalSpacing="xs" data-testid="audit-changes">
      <Table.Thead>
        <Table.Tr>
          <Table.Th w="28%">Field</Table.Th>
          <Table.Th>Before</Table.Th>
          <Table.Th>After</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {changes.map((change) => (
          <Table.Tr key={change.field} data-testid={`audit-change-${change.field}`}>
            <Table.Td>
              <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                {change.field}
              </Text>
            </Table.Td>
            <Table.Td>
              <Value value={change.before} />
            </Table.Td>
            <Table.Td>
              <Value value={change.after} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <Table layout="fixed" verticalSpacing={6} data-testid="audit-row-facts">
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th w={{ base: 110, sm: 150 }} style={{ verticalAlign: 'top' }}>
              {label}
            </Table.Th>
            <Table.Td>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export function AuditRowDetails({ row }: { row: TAuditRow }) {
  const { who, as } = whoOf(row);
  const target = targetLabel(row);
  const path = targetPath(row);
  const details = Object.entries(row.details);
  return (
    <Stack gap="md" data-testid="audit-row-details">
      <Facts
        rows={[
          ['When', formatDateTime(row.created)],
          ['Who', who],
          ...(as ? ([['As', as]] as [string, ReactNode][]) : []),
          [
            'Action',
            <Stack gap={0} key="action">
              <Text size="sm">{actionLabel(row.action)}</Text>
              <Text size="xs" c="dimmed">
                {groupLabel(row)} · {row.action}
              </Text>
            </Stack>,
          ],
          [
            'Target',
            path ? (
              <Anchor component={Link} to={path} size="sm">
                {target}
              </Anchor>
            ) : (
              target || NO_VALUE
            ),
          ],
          ['Organization', row.organization?.name ?? NO_VALUE],
          ['Outcome', <AuditOutcomeBadge key="outcome" outcome={row.outcome} />],
          ['Address', row.ip ?? NO_VALUE],
          ['User agent', <Value key="ua" value={row.user_agent} />],
        ]}
      />
      {details.length > 0 && (
        <Stack gap={4}>
          <Title order={4} size="h5">
            Details
          </Title>
          <Facts rows={details.map(([key, value]) => [key, <Value key={key} value={value} />])} />
        </Stack>
      )}
      <Stack gap={4}>
        <Title order={4} size="h5">
          Changes
        </Title>
        <AuditChanges changes={row.changes} />
      </Stack>
    </Stack>
  );
}

export function AuditRowDialog({ row, onClose }: { row: TAuditRow | undefined; onClose: () => void }) {
  return (
    <Modal
      opened={row !== undefined}
      onClose={onClose}
      title={row ? `${actionLabel(row.action)} · ${formatDateTime(row.created)}` : ''}
      size="xl"
      data-testid="audit-row-dialog"
    >
      {row && <AuditRowDetails row={row} />}
    </Modal>
  );
}
