// The one fetch wrapper of the console: base path, headers of part 1 §7 and the error
// behaviour of part 1 §8 (401 → session-expired dialog, 403 → 'Not allowed', ≥500 → alert).
import { notifications } from '@mantine/notifications';
import { DEFAULT_TIMEZONE } from '@sc/shared/constants';
import { wantAppHosts } from '../components/appHosts.ts';
import { browser } from './browser.ts';
import { IMPERSONATION_TOKEN_KEY, getImpersonationToken, getToken } from './storage.ts';

export const API_BASE = '/api/v1';

/** Error body in the DRF shape (architecture §4). */
export type DrfErrorBody = {
  detail?: string;
  non_field_errors?: string[];
  [field: string]: unknown;
};

export class ApiError extends Error {
  readonly status: number;
  readonly body: DrfErrorBody;

  constructor(status: number, body: DrfErrorBody) {
    super(firstMessage(body) ?? `Request failed with status ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
  }
}

type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

export type RequestOptions = {
  method?: 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  query?: Record<string, QueryValue>;
  signal?: AbortSignal;
  /** false: leave 401/403/5xx to the caller (sign-in calls, sign-out). Default true. */
  handleErrors?: boolean;
  /** Send the impersonation token whatever the method: only for ending the impersonation. */
  asImpersonation?: boolean;
};

// 401 → the shell's 'Expired User Session' dialog listens here.
type Listener = () => void;
const sessionExpiredListeners = new Set<Listener>();
export function onSessionExpired(listener: Listener): () => void {
  sessionExpiredListeners.add(listener);
  return () => {
    sessionExpiredListeners.delete(listener);
  };
}

export function clientTimezone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || DEFAULT_TIMEZONE;
  } catch {
    return DEFAULT_TIMEZONE;
  }
}

/** Minutes east of UTC (India: 330). */
export const clientTimezoneOffset = (): number => -new Date().getTimezoneOffset();

export function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const clean = path.replace(/^\/+/, '');
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null || value === '') continue;
    // Lists travel as one comma-separated value (`ids=1,2,3`).
    params.set(key, Array.isArray(value) ? value.join(',') : String(value as string | number | boolean));
  }
  const qs = params.toString();
  return `${API_BASE}/${clean}${qs ? `?${qs}` : ''}`;
}

function authHeader(method: string, asImpersonation = false): { header: string | null; impersonated: boolean } {
  const impersonation = getImpersonationToken();
  // The impersonation token is read-only on the server: use it for reads only.
  if (impersonation && (asImpersonation || method === 'GET' || method === 'HEAD')) {
    return { header: `Token ${impersonation}`, impersonated: true };
  }
  const token = getToken();
  return { header: token ? `Token ${token}` : null, impersonated: false };
}

function firstMessage(body: DrfErrorBody): string | undefined {
  if (typeof body.detail === 'string') return body.detail;
  for (const value of Object.values(body)) {
    const text = messageOf(value);
    if (text) return text;
  }
  return undefined;
}

function messageOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) {
    for (const item of value) {
      const text = messageOf(item);
      if (text) return text;
    }
  }
  if (value && typeof value === 'object') return firstMessage(value as DrfErrorBody);
  return undefined;
}

/** The message to show for any thrown error. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return firstMessage(error.body) ?? error.message;
  if (error instanceof Error) return error.message;
  return String(error);
}

export type FieldError = { title: string; text: string };

/** DRF field errors as a list to display: title with underscores turned to spaces (part 1 §8). */
export function fieldErrorList(body: DrfErrorBody | undefined): FieldError[] {
  if (!body) return [];
  const list: FieldError[] = [];
  for (const [field, value] of Object.entries(body)) {
    const texts = collectMessages(value);
    if (texts.length > 0) list.push({ title: field.replace(/_/g, ' '), text: texts.join(' ') });
  }
  return list;
}

function collectMessages(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(collectMessages);
  if (value && typeof value === 'object') return Object.values(value).flatMap(collectMessages);
  return [];
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return { detail: text };
    }
  }
  return text;
}

let droppingImpersonation = false;

function handleError(status: number, body: DrfErrorBody, hadToken: boolean, impersonated: boolean): void {
  if (status === 401 && impersonated) {
    // The impersonation ended (expired or revoked): back to the real user, who is still signed in.
    localStorage.removeItem(IMPERSONATION_TOKEN_KEY);
    if (!droppingImpersonation) {
      droppingImpersonation = true;
      browser.reload();
    }
    return;
  }
  if (status === 401) {
    // Without a token there is no session to expire (e.g. a failed sign-in step).
    if (hadToken) sessionExpiredListeners.forEach((listener) => listener());
    return;
  }
  if (status === 403) {
    const detail = body.detail ?? 'You do not have permission to perform this action.';
    console.warn('Not allowed', detail);
    wantAppHosts();
    notifications.show({ color: 'red', title: 'Not allowed', message: detail });
    return;
  }
  if (status >= 500) {
    browser.alert(`Error ${status}: ${body.detail ?? 'A server error occurred.'}`);
  }
}

export async function apiFetch<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Content-Type': 'application/json',
    Timezone: clientTimezone(),
    'Timezone-Offset': String(clientTimezoneOffset()),
  };
  const { header: authorization, impersonated } = authHeader(method, options.asImpersonation);
  if (authorization) headers.Authorization = authorization;

  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError(0, { detail: 'Unable to reach the server. Check your connection and try again.' });
  }

  const data = await readBody(response);
  if (response.ok) return data as T;

  const body: DrfErrorBody =
    data && typeof data === 'object' && !Array.isArray(data)
      ? (data as DrfErrorBody)
      : { detail: typeof data === 'string' && data ? data : response.statusText || `HTTP ${response.status}` };
  if (options.handleErrors !== false) handleError(response.status, body, authorization !== null, impersonated);
  throw new ApiError(response.status, body);
}

type Opts = Omit<RequestOptions, 'method' | 'body'>;

/**
 * What every list read adds to its query: part 1 §7 and §9 send lists with `using_read_db=true`, so a
 * configured read replica serves them. Lists go through `api.list` (or spread this) so none forgets it.
 * Single records and reads that follow a save (a detail page) stay on the primary.
 */
export const LIST_READ_QUERY = { using_read_db: true } as const;

export const api = {
  get: <T>(path: string, opts?: Opts) => apiFetch<T>(path, { ...opts, method: 'GET' }),
  /** GET of a list (`{count, results}` or a lookup such as a picker's search), from the read replica. */
  list: <T>(path: string, opts?: Opts) =>
    apiFetch<T>(path, { ...opts, method: 'GET', query: { ...opts?.query, ...LIST_READ_QUERY } }),
  post: <T>(path: string, body?: unknown, opts?: Opts) => apiFetch<T>(path, { ...opts, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, opts?: Opts) => apiFetch<T>(path, { ...opts, method: 'PUT', body }),
  patch: <T>(path: string, body?: unknown, opts?: Opts) => apiFetch<T>(path, { ...opts, method: 'PATCH', body }),
  delete: <T>(path: string, opts?: Opts) => apiFetch<T>(path, { ...opts, method: 'DELETE' }),
};
