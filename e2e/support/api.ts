// A tiny API client for e2e set-up: sign in as a demo user and call /api/v1 with the ID token, so a
// test prepares its data the way the app would instead of through the database.

export type TApiUser = { token: string; id: string; displayName: string };

export const DEMO_PASSWORD = 'demo-radiology';

export async function apiSignIn(baseUrl: string, email: string, password = DEMO_PASSWORD): Promise<TApiUser> {
  const response = await fetch(`${baseUrl}/api/v1/auth/sign-in`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) throw new Error(`sign-in of ${email}: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { id_token: string; user: { id: string; display_name: string } };
  return { token: body.id_token, id: body.user.id, displayName: body.user.display_name };
}

export async function api<T>(
  baseUrl: string,
  user: TApiUser,
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${baseUrl}/api/v1${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${user.token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}
