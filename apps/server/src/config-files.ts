import { readFileSync } from 'node:fs';

/** An environment with every `X_FILE` replaced by X's value read from that file. */
export type TFileVariables = {
  env: Record<string, string>;
  /** The variables whose value came from a file (a bad value names X_FILE too). */
  fromFiles: ReadonlySet<string>;
  /** Problems naming the variables, never a file's contents. */
  issues: string[];
};

/**
 * Secrets as files (Docker and Kubernetes secrets): for every variable X the server reads, `X_FILE`
 * names a file whose contents, without trailing line breaks, are X's value. Setting both X and
 * X_FILE is refused, as is a file that cannot be read or is empty or blank (an empty secret would
 * silently fall back to a default). Empty variables count as unset, as everywhere else in the
 * configuration.
 */
export function readFileVariables(env: NodeJS.ProcessEnv, names: readonly string[]): TFileVariables {
  const fileVariables = new Set(names.map((name) => `${name}_FILE`));
  const present: Record<string, string> = {};
  const files: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || value === '') continue;
    if (fileVariables.has(name)) files[name] = value;
    else present[name] = value;
  }
  const fromFiles = new Set<string>();
  const issues: string[] = [];
  for (const name of names) {
    const fileVariable = `${name}_FILE`;
    const file = files[fileVariable];
    if (file === undefined) continue;
    if (present[name] !== undefined) {
      issues.push(`${name} and ${fileVariable}: set one or the other, not both`);
      continue;
    }
    let value: string;
    try {
      value = readFileSync(file, 'utf8').replace(/[\r\n]+$/, '');
    } catch (error) {
      const code = error instanceof Error && 'code' in error ? String(error.code) : 'unreadable';
      issues.push(`${fileVariable}: cannot read ${file} (${code})`);
      continue;
    }
    if (value.trim() === '') {
      // A blank secret (a file saved with only spaces or tabs) would otherwise be used as it is.
      issues.push(`${fileVariable}: ${file} is ${value === '' ? 'empty' : 'blank (only whitespace)'}`);
      continue;
    }
    present[name] = value;
    fromFiles.add(name);
  }
  return { env: present, fromFiles, issues };
}
