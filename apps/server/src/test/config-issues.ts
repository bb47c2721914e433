import { ConfigError, loadConfig } from '../config.ts';

/** The messages loadConfig refuses env with ([] when it accepts it). */
export function configIssues(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.issues;
    throw error;
  }
  return [];
}
