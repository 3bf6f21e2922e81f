/**
 * Calls to the dashboard's JSON API on the server that served this page. The
 * session cookie (HttpOnly) rides along by itself; the token is sent once, in
 * a POST body, to obtain it. Every call names the repository picked
 * (`?repo=`); a 401 from any of them (the session expired, or was signed out
 * elsewhere) is announced once to the page as a `signed-out` event.
 */
import type { Repositories } from '../../src/web/api.js';

export type { Repositories };

export class ApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

/** The event the page listens for: its `detail` is the server's sentence on how to sign in again. */
export const SIGNED_OUT = 'sightline:signed-out';

let repository: string | null = null;

/** Scopes every later call to the repository `id`. */
export function pickRepository(id: string): void {
  repository = id;
}

/** `path` with `params` and the picked repository as its query. */
export function apiUrl(path: string, params: Record<string, string> = {}): string {
  const query = new URLSearchParams({ ...params, ...(repository === null ? {} : { repo: repository }) }).toString();
  return query ? `${path}?${query}` : path;
}

async function call<T>(url: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(url, { credentials: 'same-origin', cache: 'no-store', ...init });
  const body = (await res.json().catch(() => ({}))) as { error?: string };
  if (!res.ok) {
    const message = body.error ?? `${res.status} ${res.statusText}`;
    if (res.status === 401) window.dispatchEvent(new CustomEvent(SIGNED_OUT, { detail: message }));
    throw new ApiError(res.status, message);
  }
  return body as T;
}

export const get = <T>(path: string, params: Record<string, string> = {}) => call<T>(apiUrl(path, params));

export const post = <T>(path: string, body: unknown) =>
  call<T>(apiUrl(path), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** The repositories this caller may see (none is the workspace's nothing_registered). */
export const repositories = () => call<Repositories>('/api/repositories');

/** Trades the token for a session cookie; false when the server refuses it. */
export async function signIn(token: string): Promise<boolean> {
  const res = await fetch('/api/session', { method: 'POST', credentials: 'same-origin', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
  if (res.status === 401) return false;
  if (!res.ok) throw new ApiError(res.status, `signing in failed: ${res.status} ${res.statusText}`);
  return true;
}

/** Ends the session on the server and drops its cookie. */
export async function signOut(): Promise<void> {
  const res = await fetch('/api/session', { method: 'DELETE', credentials: 'same-origin' });
  if (!res.ok) throw new ApiError(res.status, `signing out failed: ${res.status} ${res.statusText}`);
}
