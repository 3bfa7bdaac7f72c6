// A record's History (issue 27): the audit rows of one target (type + id), newest first, keyset-paged; a row opens
// the same details and changes as the audit screen. Shown only to AUDIT_ROLES (the API refuses the others), as a
// History button in the dialogs and pages of patients, users, organizations, devices, scans and exams.
import { useContext, useState } from 'react';
import { Button, Modal, Paper, type ButtonProps } from '@mantine/core';
import { IconHistory } from '@tabler/icons-react';
import { AUDIT_TARGET_LABELS, canReadAudit, type TAuditRow, type TAuditTargetType } from '@sc/shared/audit';
import { DEFAULT_PAGE_SIZE } from '@sc/shared/constants';
import { SessionUserContext } from '../../../app/SessionUserContext.tsx';
import { KeysetFooter, type KeysetCursor } from '../../../components/list/ListFooter.tsx';
import { ListDate } from '../../../components/list/ListDate.tsx';
import { ListLoadError } from '../../../components/list/ListParts.tsx';
import { ListTable, type ListColumn } from '../../../components/list/ListTable.tsx';
import { useRecordHistory } from '../audit.api.ts';
import { ActionCell, WhoCell } from './AuditList.tsx';
import { AuditOutcomeBadge, AuditRowDialog } from './AuditRowDialog.tsx';

export type RecordHistoryProps = { targetType: TAuditTargetType; targetId: number | string };

const COLUMNS: ListColumn<TAuditRow>[] = [
  { accessor: 'created', title: 'When', render: (r) => <ListDate value={r.created} /> },
  { accessor: 'actor', title: 'Who', render: (r) => <WhoCell row={r} /> },
  { accessor: 'action', title: 'Action', render: (r) => <ActionCell row={r} /> },
  { accessor: 'outcome', title: 'Outcome', hideOnPhone: true, render: (r) => <AuditOutcomeBadge outcome={r.outcome} /> },
];

export function RecordHistory({ targetType, targetId }: RecordHistoryProps) {
  const [cursor, setCursor] = useState<KeysetCursor>({});
  const [limit, setLimit] = useState(DEFAULT_PAGE_SIZE);
  const [open, setOpen] = useState<TAuditRow | undefined>(undefined);
  const history = useRecordHistory({ target_type: targetType, target_id: String(targetId), limit, ...cursor });
  return (
    <Paper withBorder radius="lg" style={{ overflow: 'hidden' }} data-testid="record-history">
      <ListLoadError error={history.error} testId="record-history-error" />
      <ListTable
        records={history.data?.results}
        columns={COLUMNS}
        fetching={history.isFetching}
        onRowClick={setOpen}
        emptyText="No history yet!"
        testId="record-history-table"
      />
      <KeysetFooter
        limit={limit}
        total={history.data?.count ?? 0}
        capped={history.data?.count_capped}
        next={history.data?.next}
        previous={history.data?.previous}
        paged={cursor.before !== undefined || cursor.after !== undefined}
        onCursorChange={setCursor}
        onLimitChange={(n) => {
          setLimit(n);
          setCursor({});
        }}
      />
      <AuditRowDialog row={open} onClose={() => setOpen(undefined)} />
    </Paper>
  );
}

/** Whether the signed-in user may see a History (none outside the console shell). */
export function useCanReadHistory(): boolean {
  const user = useContext(SessionUserContext);
  return user !== null && canReadAudit(user.user_type);
}

/**
 * The History action of a record's dialog or page: a button opening the record's History in a dialog; nothing for a
 * role that may not read the trail.
 */
export function RecordHistoryButton({ targetType, targetId, ...button }: RecordHistoryProps & Pick<ButtonProps, 'size' | 'variant'>) {
  const [opened, setOpened] = useState(false);
  const allowed = useCanReadHistory();
  if (!allowed) return null;
  return (
    <>
      <Button
        variant="default"
        size="sm"
        leftSection={<IconHistory size={16} />}
        onClick={() => setOpened(true)}
        data-testid={`history-${targetType}`}
        {...button}
      >
        History
      </Button>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={`History of ${AUDIT_TARGET_LABELS[targetType]} ${targetId}`}
        size="xl"
        data-testid="record-history-dialog"
      >
        {opened && <RecordHistory targetType={targetType} targetId={targetId} />}
      </Modal>
    </>
  );
}
