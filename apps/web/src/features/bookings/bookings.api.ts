// Server data of bookings (part 3 §7 Bookings; issue 12): the console's list, one booking, status moves, offline
// payment and the organization's public page link; and the public page's calls by organization token.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TBooking,
  TBookingCreate,
  TBookingDay,
  TBookingLink,
  TBookingListQuery,
  TBookingSaved,
  TBookingSlot,
  TBookingStatus,
  TOfflinePayment,
  TPublicBooking,
  TPublicOrganization,
} from '@sc/shared/bookings';
import type { TPaginated } from '@sc/shared/list';
import { api } from '../../api/client.ts';

export type TBookingQuery = Partial<TBookingListQuery>;

export const bookingKeys = {
  all: ['booking'] as const,
  list: (params: TBookingQuery) => [...bookingKeys.all, 'list', params] as const,
  detail: (id: number) => [...bookingKeys.all, 'detail', id] as const,
  link: (organization: number) => [...bookingKeys.all, 'link', organization] as const,
  page: (token: string) => ['booking-page', token] as const,
};

/** GET booking/ — the previous page stays on screen while the next one loads. */
export function useBookings(params: TBookingQuery) {
  return useQuery({
    queryKey: bookingKeys.list(params),
    queryFn: ({ signal }) => api.list<TPaginated<TBooking>>('booking/', { query: params, signal }),
    placeholderData: keepPreviousData,
  });
}

/** GET booking/{id}/ (the modal passes the token, as part 3 §7 has it). */
export function useBooking(id: number | undefined, token?: string) {
  return useQuery({
    queryKey: bookingKeys.detail(id ?? 0),
    queryFn: ({ signal }) => api.get<TBooking>(`booking/${id}/`, { query: token ? { token } : {}, signal }),
    enabled: id !== undefined && id > 0,
  });
}

function useInvalidateBookings() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: bookingKeys.all });
}

/** POST booking/{id}/status/ */
export function useMoveBooking() {
  const invalidate = useInvalidateBookings();
  return useMutation({
    mutationFn: ({ id, status }: { id: number; status: TBookingStatus }) =>
      api.post<TBookingSaved>(`booking/${id}/status/`, { status }),
    onSuccess: invalidate,
  });
}

/** POST booking/{id}/payment/ */
export function useOfflinePayment() {
  const invalidate = useInvalidateBookings();
  return useMutation({
    mutationFn: ({ id, payment }: { id: number; payment: TOfflinePayment }) =>
      api.post<TBookingSaved>(`booking/${id}/payment/`, payment),
    onSuccess: invalidate,
  });
}

/** GET booking/link/{organization}/ */
export function useBookingLink(organization: number) {
  return useQuery({
    queryKey: bookingKeys.link(organization),
    queryFn: ({ signal }) => api.get<TBookingLink>(`booking/link/${organization}/`, { signal }),
  });
}

// ---- Public page -------------------------------------------------------------------------------------------------

/** The patient is not signed in: errors are shown on the page, never as the console's session dialog or alert. */
const PUBLIC = { handleErrors: false } as const;

const page = (token: string) => `appointment/${encodeURIComponent(token)}`;

export function usePublicOrganization(token: string) {
  return useQuery({
    queryKey: [...bookingKeys.page(token), 'summary'],
    queryFn: ({ signal }) => api.get<TPublicOrganization>(`${page(token)}/`, { signal, ...PUBLIC }),
    retry: false,
  });
}

export function usePublicDays(token: string, enabled: boolean) {
  return useQuery({
    queryKey: [...bookingKeys.page(token), 'days'],
    queryFn: ({ signal }) => api.get<TBookingDay[]>(`${page(token)}/date/`, { signal, ...PUBLIC }),
    enabled,
  });
}

export function usePublicSlots(token: string, date: string | null) {
  return useQuery({
    queryKey: [...bookingKeys.page(token), 'slots', date],
    queryFn: ({ signal }) => api.get<TBookingSlot[]>(`${page(token)}/slot/`, { query: { date }, signal, ...PUBLIC }),
    enabled: date !== null,
  });
}

export function usePublicBooking(token: string, booking: string | undefined) {
  return useQuery({
    queryKey: [...bookingKeys.page(token), 'booking', booking],
    queryFn: ({ signal }) => api.get<TPublicBooking>(`${page(token)}/booking/${encodeURIComponent(booking ?? '')}/`, { signal, ...PUBLIC }),
    enabled: Boolean(booking),
    retry: false,
  });
}

export function useCreatePublicBooking(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TBookingCreate) => api.post<TPublicBooking>(`${page(token)}/booking/`, input, PUBLIC),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: bookingKeys.page(token) }),
  });
}

export function useCancelPublicBooking(token: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (booking: string) =>
      api.post<TPublicBooking>(`${page(token)}/booking/${encodeURIComponent(booking)}/cancel/`, undefined, PUBLIC),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: bookingKeys.page(token) }),
  });
}
