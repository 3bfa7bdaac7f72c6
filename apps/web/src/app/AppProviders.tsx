import type { ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { SessionExpiredDialog } from '../components/SessionExpiredDialog.tsx';
import { cssVariablesResolver, theme } from './theme.ts';

type AppProvidersProps = {
  queryClient: QueryClient;
  children: ReactNode;
  /** 'test' turns off transitions and portals (component tests). */
  env?: 'default' | 'test';
};

export function AppProviders({ queryClient, children, env = 'default' }: AppProvidersProps) {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      env={env}
      defaultColorScheme="light"
    >
      <QueryClientProvider client={queryClient}>
        <ModalsProvider labels={{ confirm: 'Confirm', cancel: 'Cancel' }}>
          <Notifications position="top-right" />
          <SessionExpiredDialog />
          {children}
        </ModalsProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
