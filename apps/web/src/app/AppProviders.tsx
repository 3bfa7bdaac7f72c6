import type { ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { SessionExpiredDialog } from '../components/SessionExpiredDialog.tsx';
import { cssVariablesResolver, theme } from './theme.ts';

type AppProvidersProps = {
  queryClient: QueryClient;
  children: ReactNode;
  /** The modals manager and notifications (app/hosts.tsx): deferred in the app, at once in component tests. */
  hosts: ReactNode;
  /** 'test' turns off transitions and portals (component tests). */
  env?: 'default' | 'test';
};

export function AppProviders({ queryClient, children, hosts, env = 'default' }: AppProvidersProps) {
  return (
    <MantineProvider
      theme={theme}
      cssVariablesResolver={cssVariablesResolver}
      env={env}
      defaultColorScheme="light"
    >
      <QueryClientProvider client={queryClient}>
        {hosts}
        <SessionExpiredDialog />
        {children}
      </QueryClientProvider>
    </MantineProvider>
  );
}
