// A modal that stays visible behind the modal it opens (the quiz list behind a quiz form, the quiz form behind an
// option's language setting). Mantine's Modal.Stack hides every modal but the top one, so this stacks by portal
// order instead: a modal opened later is mounted later and sits above at the same z-index, its overlay dims the
// one below. Escape closes only the top one: a modal ignores it while a child is open, and while focus is in another
// dialog above it (a confirm, which would otherwise close the form under it as well, edits and all).
import { createContext, use, useCallback, useEffect, useId, useMemo, useState } from 'react';
import { Modal, type ModalProps } from '@mantine/core';
import { useWindowEvent } from '@mantine/hooks';

type StackLevel = { depth: number; childOpened: (opened: boolean) => void };

const StackContext = createContext<StackLevel | null>(null);

export function StackedModal({ opened, onClose, children, ...props }: ModalProps) {
  const parent = use(StackContext);
  const stackId = useId();
  const [openChildren, setOpenChildren] = useState(0);
  const childOpened = useCallback((open: boolean) => setOpenChildren((n) => Math.max(0, n + (open ? 1 : -1))), []);
  const level = useMemo(() => ({ depth: (parent?.depth ?? 0) + 1, childOpened }), [parent?.depth, childOpened]);
  const tellParent = parent?.childOpened;

  useEffect(() => {
    if (!opened || !tellParent) return undefined;
    tellParent(true);
    return () => tellParent(false);
  }, [opened, tellParent]);

  useWindowEvent(
    'keydown',
    (event) => {
      if (event.key !== 'Escape' || event.isComposing || !opened || openChildren > 0) return;
      const target = event.target instanceof Element ? event.target : null;
      // An open dropdown (a Select's) takes its own Escape, as in Mantine's modals.
      if (target?.getAttribute('data-mantine-stop-propagation') === 'true') return;
      const dialog = target?.closest('[role="dialog"]');
      if (dialog && dialog.closest('[data-stacked-modal]')?.getAttribute('data-stacked-modal') !== stackId) return;
      onClose();
    },
    { capture: true },
  );

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      closeOnEscape={false}
      data-stacked-modal={stackId}
      data-stack-depth={level.depth}
      {...props}
    >
      <StackContext value={level}>{children}</StackContext>
    </Modal>
  );
}
