// Two-column frame of the sign-in pages: a brand panel (from md up) and the form card.
import type { ReactNode } from 'react';
import { Box, Group, List, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconActivityHeartbeat, IconShieldCheck, IconStethoscope, IconUsersGroup } from '@tabler/icons-react';
import classes from './AuthLayout.module.css';

type AuthLayoutProps = {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
};

export function AuthLayout({ title, subtitle, children }: AuthLayoutProps) {
  return (
    <Box className={classes.page}>
      <Box className={classes.brand} visibleFrom="md">
        <Group gap="sm">
          <ThemeIcon size={44} radius="md" variant="white" color="clinic">
            <IconActivityHeartbeat size={26} />
          </ThemeIcon>
          <Text fw={700} fz="xl" c="white">
            Screening Console
          </Text>
        </Group>
        <Stack gap="lg" maw={440}>
          <Title order={2} c="white" fz={32} lh={1.25}>
            One console for your breast, cervical and oral screening programme.
          </Title>
          <List spacing="md" c="white" center size="md">
            <List.Item icon={<BrandIcon icon={<IconStethoscope size={18} />} />}>
              Follow scans and exams from every device
            </List.Item>
            <List.Item icon={<BrandIcon icon={<IconUsersGroup size={18} />} />}>
              Manage organizations, technicians and devices
            </List.Item>
            <List.Item icon={<BrandIcon icon={<IconShieldCheck size={18} />} />}>
              Role-based access for every member of the programme
            </List.Item>
          </List>
        </Stack>
        <Text size="xs" c="rgba(255,255,255,0.7)">
          IBE · Cervical · ORCA
        </Text>
      </Box>
      <Box className={classes.formSide}>
        <Paper className={classes.card} shadow="md" p={{ base: 'lg', sm: 'xl' }} withBorder>
          <Group gap="xs" mb="lg" hiddenFrom="md">
            <ThemeIcon size={32} radius="md" color="clinic">
              <IconActivityHeartbeat size={20} />
            </ThemeIcon>
            <Text fw={700}>Screening Console</Text>
          </Group>
          <Title order={2} mb={4}>
            {title}
          </Title>
          {subtitle && (
            <Text c="dimmed" size="sm" mb="lg">
              {subtitle}
            </Text>
          )}
          {children}
        </Paper>
      </Box>
    </Box>
  );
}

function BrandIcon({ icon }: { icon: ReactNode }) {
  return (
    <ThemeIcon size={30} radius="xl" variant="white" color="clinic">
      {icon}
    </ThemeIcon>
  );
}
