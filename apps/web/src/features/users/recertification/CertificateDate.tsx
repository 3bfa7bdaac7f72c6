// A certificate date (YYYY-MM-DD, a calendar day with no time) as 'DD MMM YYYY'.
import { Text } from '@mantine/core';
import dayjs from 'dayjs';
import { SHORT_DATE_FORMAT } from '../../../components/list/ListDate.tsx';

export const formatCertificateDate = (value: string | null): string =>
  value ? dayjs(value).format(SHORT_DATE_FORMAT) : '—';

export function CertificateDate({ value }: { value: string | null }) {
  return (
    <Text component="span" size="sm" c={value ? undefined : 'dimmed'} style={{ whiteSpace: 'nowrap' }}>
      {formatCertificateDate(value)}
    </Text>
  );
}
