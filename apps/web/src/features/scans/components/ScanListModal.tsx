// The scan list in a modal (part 2 §2.7): the scans of a map marker or cluster, or a scan's duplicates. Its list
// state lives under its own URL prefix, removed again when the modal closes.
import { Modal } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useSearchParams } from 'react-router';
import { PHONE_QUERY } from '../../../components/list/usePhoneLayout.ts';
import { clusterListTitle } from '@sc/shared/scans';
import { ScanList, type ScanListProps } from './ScanList.tsx';

type ScanListModalProps = {
  opened: boolean;
  title: string;
  prefix: string;
  onClose: () => void;
  listProps: Pick<ScanListProps, 'ids' | 'parentScanId' | 'recertify'>;
};

export function ScanListModal({ opened, title, prefix, onClose, listProps }: ScanListModalProps) {
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  const [, setSearchParams] = useSearchParams();
  const close = () => {
    setSearchParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const key of [...next.keys()]) if (key.startsWith(prefix)) next.delete(key);
        return next;
      },
      { replace: true },
    );
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={title} size="90rem" fullScreen={phone} data-testid={`scan-list-modal-${prefix.replace(/_$/, '')}`}>
      {opened && <ScanList embedded prefix={prefix} {...listProps} />}
    </Modal>
  );
}

/** A map marker's scans as the map hands them over: its ids and how many scans it stands for. */
export type ClusterSelection = { ids: number[]; total: number };

/** The scan list modal of a map marker or cluster, titled with the part of a cluster it lists (clusterListTitle). */
export function ClusterScanListModal({
  cluster,
  prefix,
  onClose,
  recertify,
}: {
  cluster: ClusterSelection | null;
  prefix: string;
  onClose: () => void;
  recertify?: boolean;
}) {
  return (
    <ScanListModal
      opened={cluster !== null}
      title={cluster ? clusterListTitle(cluster.ids.length, cluster.total) : 'Scans'}
      onClose={onClose}
      prefix={prefix}
      listProps={{ ids: cluster?.ids, recertify }}
    />
  );
}
