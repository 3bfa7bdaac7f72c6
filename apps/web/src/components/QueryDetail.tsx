// One record read by a query, shown once it is there: a loader while it loads, the API's message in red when it
// failed (a 404 out of scope reads "Not found."), else `children` with the data.
import type { ReactNode } from 'react';
import { Center, Loader, Text } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { errorMessage } from '../api/client.ts';

export function QueryDetail<T>({ query, children }: { query: UseQueryResult<T>; children: (data: T) => ReactNode }) {
  if (query.isError) return <Text c="red">{errorMessage(query.error)}</Text>;
  if (query.data === undefined) {
    return (
      <Center h={160}>
        <Loader />
      </Center>
    );
  }
  return children(query.data);
}
