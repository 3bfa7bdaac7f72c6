// The exam detail modal's pieces (part 3 §2 "Cervical scan detail modal", "ORCA detail modal"): the modal with its
// loading and error states (full screen on a phone), the labelled fact cards, the location map and the embedded files,
// and `ExamDetailDialog`, the whole modal both areas open (Details: their cards, the map and the files; Report: the
// report files alone).
import { Fragment, type ReactNode } from 'react';
import { Alert, Card, Center, Group, Loader, Modal, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import dayjs from 'dayjs';
import { errorMessage } from '../../api/client.ts';
import { ScanLocationMap } from '../../features/scans/map/ScanLocationMap.tsx';
import { PHONE_QUERY } from './usePhoneLayout.ts';

export type ExamDetailView = { id: number; mode: 'detail' | 'report' };
export type InfoRow = [string, ReactNode];

export const yesNo = (v: boolean): string => (v ? 'Yes' : 'No');
export const day = (v: string | null | undefined): string => (v ? dayjs(v).format('DD MMM YYYY') : '—');
export const text = (v: string | number | null | undefined): string =>
  v === null || v === undefined || v === '' ? '—' : String(v);
/** A row only when its value is there (the spec's "if present"). */
export const rowIf = (label: string, value: ReactNode | null | undefined): InfoRow[] =>
  value === null || value === undefined || value === '' ? [] : [[label, value]];

export function InfoCard({ title, rows, testId }: { title: string; rows: InfoRow[]; testId: string }) {
  return (
    <Card withBorder padding="sm" data-testid={testId}>
      <Title order={3} size="h5" mb="xs">
        {title}
      </Title>
      <Stack gap={4}>
        {rows.map(([label, value]) => (
          <Text key={label} size="sm" component="div" style={{ overflowWrap: 'anywhere' }}>
            <Text span c="dimmed" size="sm">
              {label}:{' '}
            </Text>
            {value}
          </Text>
        ))}
      </Stack>
    </Card>
  );
}

/** The modal around one exam's read: a loader until it comes, the error in words, then `children(data)`. */
export function ExamDetailModal<T>({
  opened,
  title,
  onClose,
  testId,
  query,
  children,
}: {
  opened: boolean;
  title: string;
  onClose: () => void;
  testId: string;
  query: { isError: boolean; error: unknown; data: T | undefined };
  children: (data: T) => ReactNode;
}) {
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      size="70rem"
      fullScreen={phone}
      data-testid={testId}
    >
      {opened &&
        (query.isError ? (
          <Alert color="red">{errorMessage(query.error)}</Alert>
        ) : query.data === undefined ? (
          <Center h={200}>
            <Loader />
          </Center>
        ) : (
          children(query.data)
        ))}
    </Modal>
  );
}

/** A titled block of the detail modal. */
export function DetailSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs">
      <Title order={3} size="h5">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/** The exam's map marker, or a line saying none was recorded. */
export function ExamLocation({
  latitude,
  longitude,
  label,
}: {
  latitude: number | null;
  longitude: number | null;
  label: string;
}) {
  return (
    <DetailSection title="Location">
      {latitude !== null && longitude !== null ? (
        <ScanLocationMap latitude={latitude} longitude={longitude} label={label} />
      ) : (
        <Text size="sm" c="dimmed">
          No location was recorded with this exam.
        </Text>
      )}
    </DetailSection>
  );
}

type FileFrame = (file: { path: string; title: string; height?: number }) => ReactNode;

/** The exam's report files, each embedded (numbered when there are several). */
export function ExamReports({ reports, frame }: { reports: { path: string }[]; frame: FileFrame }) {
  if (reports.length === 0) return <Text c="dimmed">No report is available for this exam.</Text>;
  return (
    <Stack gap="md">
      {reports.map((f, i) => (
        <Fragment key={f.path}>
          {frame({ path: f.path, title: reports.length > 1 ? `Report ${i + 1}` : 'Report' })}
        </Fragment>
      ))}
    </Stack>
  );
}

/** The detail mode's report and consent form blocks. */
export function ExamFiles({
  files,
  frame,
}: {
  files: { reports: { path: string }[]; consent_form: { path: string }[] };
  frame: FileFrame;
}) {
  return (
    <>
      <DetailSection title="Report">
        <ExamReports reports={files.reports} frame={frame} />
      </DetailSection>
      <DetailSection title="Consent form">
        {files.consent_form.length === 0 ? (
          <Text size="sm" c="dimmed">
            No consent form was uploaded.
          </Text>
        ) : (
          files.consent_form.map((f) => (
            <Fragment key={f.path}>{frame({ path: f.path, title: 'Consent form', height: 420 })}</Fragment>
          ))
        )}
      </DetailSection>
    </>
  );
}

type ExamFilesOf = { reports: { path: string }[]; consent_form: { path: string }[] };

/**
 * An exam's detail modal as the cervical and ORCA lists open it: `titles.detail` with the area's fact cards (two a
 * row from a tablet up), the exam's map marker and its report and consent form; or, in report mode, `titles.report`
 * with the report files alone. testids `<testId>-dialog` and `<testId>` (the detail body).
 */
export function ExamDetailDialog<
  T extends { id: number; latitude: number | null; longitude: number | null; file_path: ExamFilesOf },
>({
  view,
  onClose,
  query,
  titles,
  testId,
  frame,
  examLabel,
  cards,
  actions,
}: {
  view: ExamDetailView | null;
  onClose: () => void;
  /** The area's one-exam read, keyed by `view.id`. */
  query: { isError: boolean; error: unknown; data: T | undefined };
  titles: { detail: string; report: string };
  testId: string;
  frame: FileFrame;
  /** The map marker's label: `<examLabel> <id>`. */
  examLabel: string;
  cards: (exam: T) => ReactNode;
  /** Buttons above the cards (the exam's History). */
  actions?: (exam: T) => ReactNode;
}) {
  return (
    <ExamDetailModal
      opened={view !== null}
      title={view?.mode === 'report' ? titles.report : titles.detail}
      onClose={onClose}
      testId={`${testId}-dialog`}
      query={query}
    >
      {(exam) =>
        view?.mode === 'report' ? (
          <ExamReports reports={exam.file_path.reports} frame={frame} />
        ) : (
          <Stack gap="md" data-testid={testId}>
            {actions && <Group justify="flex-end">{actions(exam)}</Group>}
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
              {cards(exam)}
            </SimpleGrid>
            <ExamLocation latitude={exam.latitude} longitude={exam.longitude} label={`${examLabel} ${exam.id}`} />
            <ExamFiles files={exam.file_path} frame={frame} />
          </Stack>
        )
      }
    </ExamDetailModal>
  );
}

type MobileDevice = { device_model?: string | null; manufacturer?: string | null; os_version?: string | null };

/** The Mobile card: the phone or tablet the exam was taken with. */
export function MobileCard({ device, testId }: { device: MobileDevice | null | undefined; testId: string }) {
  return (
    <InfoCard
      title="Mobile"
      testId={testId}
      rows={[
        ['Model', text(device?.device_model)],
        ['Manufacturer', text(device?.manufacturer)],
        ['OS version', text(device?.os_version)],
      ]}
    />
  );
}
