// The Case History section of the ORCA finding modal (part 3 §2, §3): alcohol with its usage last year, other
// substances, the medical conditions, and tobacco use with smoking and smokeless details (frequency, duration,
// quantity, quit ago). Durations are stored in months and shown as years (÷ 12).
import type { ReactNode } from 'react';
import { Badge, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { monthsAsYears, type TOrcaCaseHistory } from '@sc/shared/orca';

const yesNo = (v: boolean): string => (v ? 'Yes' : 'No');
const years = (months: number | null): string => {
  const y = monthsAsYears(months);
  return y === null ? '—' : `${y} ${y === '1' ? 'year' : 'years'}`;
};
const list = (items: readonly string[]): string => (items.length ? items.join(', ') : '—');

function Facts({ rows, testId }: { rows: [string, ReactNode][]; testId: string }) {
  return (
    <Table withTableBorder layout="fixed" data-testid={testId}>
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th w="50%" fw={500}>
              {label}
            </Table.Th>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

export function OrcaCaseHistory({
  history,
  cancerHistory,
}: {
  history: TOrcaCaseHistory | null;
  cancerHistory: boolean;
}) {
  if (!history) {
    return (
      <Text size="sm" c="dimmed" data-testid="orca-case-history-none">
        No case history was recorded with this exam.
      </Text>
    );
  }
  const h = history;
  const conditions: [string, boolean][] = [
    ['Cancer history', cancerHistory],
    ['Hypertension', h.has_hypertension],
    ['Heart attack', h.had_heart_attack],
    ['Asthma / Bronchitis', h.has_asthma_bronchitis],
    ['Diabetes', h.has_diabetes],
    ['Stroke', h.has_stroke],
  ];
  return (
    <Stack gap="md" data-testid="orca-case-history">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Stack gap={6}>
          <Title order={4} size="h6">
            Alcohol
          </Title>
          <Facts
            testId="orca-alcohol"
            rows={[
              ['Consumes alcohol', yesNo(h.consumes_alcohol)],
              ['Usage last year', h.consumes_alcohol ? (h.alcohol_usage_last_year ?? '—') : '—'],
            ]}
          />
        </Stack>
        <Stack gap={6}>
          <Title order={4} size="h6">
            Other substances
          </Title>
          <Facts
            testId="orca-other-substances"
            rows={[
              ['Consumes other substances', yesNo(h.consumes_other_substance)],
              ['Substances', h.consumes_other_substance ? list(h.other_substance_consumed) : '—'],
            ]}
          />
        </Stack>
      </SimpleGrid>
      <Stack gap={6}>
        <Title order={4} size="h6">
          Medical conditions
        </Title>
        <Group gap="xs" data-testid="orca-conditions">
          {conditions.map(([label, present]) => (
            <Badge
              key={label}
              variant={present ? 'filled' : 'light'}
              color={present ? 'red.9' : 'gray'}
              tt="none"
            >
              {label}: {yesNo(present)}
            </Badge>
          ))}
        </Group>
      </Stack>
      <Stack gap={6}>
        <Title order={4} size="h6">
          Tobacco use: {yesNo(h.uses_tobacco)}
        </Title>
        {h.uses_tobacco && (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <Stack gap={4}>
              <Text size="sm" fw={600}>
                Smoking
              </Text>
              <Facts
                testId="orca-smoking"
                rows={
                  h.consumes_smoking_tobacco
                    ? [
                        ['Types', list(h.smoking_tobacco_type)],
                        ['Frequency', h.smoking_tobacco_usage_frequency ?? '—'],
                        ['Duration', years(h.smoking_history_time_months)],
                        [
                          'Quantity',
                          h.smokes_per_unit === null
                            ? '—'
                            : `${h.smokes_per_unit} per ${h.smoke_count_unit ?? 'day'}`,
                        ],
                        ['Quit ago', years(h.smoking_quit_months_ago)],
                      ]
                    : [['Smokes tobacco', 'No']]
                }
              />
            </Stack>
            <Stack gap={4}>
              <Text size="sm" fw={600}>
                Smokeless
              </Text>
              <Facts
                testId="orca-smokeless"
                rows={
                  h.consumes_smokeless_tobacco
                    ? [
                        ['Types', list(h.smokeless_tobacco_type)],
                        ['Frequency', h.smokeless_tobacco_usage_frequency ?? '—'],
                        ['Duration', years(h.smokeless_history_time_months)],
                        [
                          'Quantity',
                          h.smokeless_packets_count_unit === null
                            ? '—'
                            : `${h.smokeless_packets_count_unit} packets per ${h.smokeless_packets_duration_unit ?? 'day'}`,
                        ],
                        ['Quit ago', years(h.smokeless_quit_months_ago)],
                      ]
                    : [['Uses smokeless tobacco', 'No']]
                }
              />
            </Stack>
          </SimpleGrid>
        )}
      </Stack>
    </Stack>
  );
}
