import './consoleStyles.ts';
import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

export function NotFoundPage() {
  return (
    <Center mih="100vh" p="xl" bg="gray.0">
      <Stack align="center" gap="sm" data-testid="not-found">
        <Text fz={72} fw={800} c="clinic.2" lh={1}>
          404
        </Text>
        <Title order={1}>Page not found</Title>
        <Text c="dimmed" ta="center" maw={420}>
          The page you opened does not exist or has moved.
        </Text>
        <Button component={Link} to="/" mt="md">
          Go to the console
        </Button>
      </Stack>
    </Center>
  );
}
