/**
 * Calls to the dashboard's JSON API on the server that served this page. The
 * session cookie (HttpOnly) rides along by itself; the token is sent once, in
 * a POST body, to obtain it.
 */
export class ApiError extends Error {
  constructor(readonly status: number, message: string) {
    super(message);
  }
}

async function call<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(path, { credentials: 'same-origin', cache: 'no-store', ...init });
  const body = (await res.json().catch(() => ({}))) as { error?: string };
  if (!res.ok) throw new ApiError(res.status, body.error ?? `${res.status} ${res.statusText}`);
  return body as T;
}

export const get = <T>(path: string, params: Record<string, string> = {}) => {
  const query = new URLSearchParams(params).toString();
  return call<T>(query ? `${path}?${query}` : path);
};

export const post = <T>(path: string, body: unknown) =>
  call<T>(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** Trades the token for a session cookie; false when the server refuses it. */
export async function signIn(token: string): Promise<boolean> {
  try {
    await post('/api/session', { token });
    return true;
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return false;
    throw err;
  }
}
