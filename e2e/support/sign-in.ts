import type { Page } from 'playwright-core';
import { DEMO_PASSWORD } from './api.ts';

/** Signs in through the login form as a demo user and waits for the home screen. */
export async function signInAs(
  page: Page,
  baseUrl: string,
  email: string,
  password = DEMO_PASSWORD,
): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Home', level: 1 }).waitFor();
}
