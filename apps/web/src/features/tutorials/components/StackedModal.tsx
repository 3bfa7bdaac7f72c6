// A modal that stays visible behind the modal it opens (the quiz list behind a quiz form, the quiz form behind an
// option's language setting). Mantine's Modal.Stack hides every modal but the top one, so this stacks by portal
// order instead: a modal opened later is mounted later and sits above at the same z-index, its overlay dims the
// one below. While a child is open, Escape closes only the child: the parent stops listening for it.
import { createContext, use, useCallback, useEffect, useMemo, useState } from 'react';
import { Modal, type ModalProps } from '@mantine/core';

type StackLevel = { depth: number; childOpened: (opened: boolean) => void };

const StackContext = createContext<StackLevel | null>(null);

export function StackedModal({ opened, children, ...props }: ModalProps) {
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

  return (
    <Modal opened={opened} closeOnEscape={openChildren === 0} data-stack-depth={level.depth} {...props}>
      <StackContext value={level}>{children}</StackContext>
    </Modal>
  );
}
