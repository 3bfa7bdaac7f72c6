// Says why a map shows country outlines and no streets: its tiles did not load (useTileLayer).
import { Text } from '@mantine/core';

export function TilesFailedNote() {
  return (
    <Text
      role="status"
      size="xs"
      pos="absolute"
      top={8}
      right={8}
      px={8}
      py={4}
      maw="calc(100% - 64px)"
      bg="rgba(255, 255, 255, 0.9)"
      c="dark.6"
      style={{ zIndex: 1000, borderRadius: 'var(--mantine-radius-sm)', pointerEvents: 'none' }}
      data-testid="map-tiles-failed"
    >
      Map tiles could not be loaded: showing country outlines only.
    </Text>
  );
}
