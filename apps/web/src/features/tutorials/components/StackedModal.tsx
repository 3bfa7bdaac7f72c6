// A modal that stays visible behind the modal it opens (the quiz list behind a quiz form, the quiz form behind an
// option's language setting). Mantine's Modal.Stack hides every modal but the top one, so this stacks by portal
// order instead: a modal opened later is mounted later and sits above at the same z-index, its overlay dims the
// one below. Escape closes only the top one: a modal ignores it while a child is open, and while focus is in a
// dialog that is not part of the stack (a confirm, which would otherwise close the form under it too, edits and all).
import { createContext, use, useCallback, useEffect, useMemo, useState } from 'react';
import { Modal, type ModalProps } from '@mantine/core';
import { useWindowEvent } from '@mantine/hooks';

type StackLevel = { depth: number; childOpened: (opened: boolean) => void };

const StackContext = createContext<StackLevel | null>(null);

export function StackedModal({ opened, onClose, children, ...props }: ModalProps) {
  const parent = use(StackContext);
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
      // A dialog outside the stack (a confirm) takes its own Escape. Focus may still sit in a child that is fading
      // out: the count of open children decides for those.
      const dialog = target?.closest('[role="dialog"]');
      if (dialog && !dialog.closest('[data-stacked-modal]')) return;
      onClose();
    },
    { capture: true },
  );

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      closeOnEscape={false}
      data-stacked-modal
      data-stack-depth={level.depth}
      {...props}
    >
      <StackContext value={level}>{children}</StackContext>
    </Modal>
  );
}
