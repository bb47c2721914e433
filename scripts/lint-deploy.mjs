#!/usr/bin/env node
// `npm run lint:deploy` (part of `npm run check`): the Dockerfile through dockerfile-utils (the
// linter of VS Code's Docker support; every warning fails too) and compose.yaml through dclint,
// which validates it against the Compose specification's JSON schema and its own rules
// (deploy/dclint.json turns off the key-order style rules and the one asking public ports to name an
// interface: Caddy's 80/443 and Orthanc's DICOM port are public on purpose, on IPv4 and IPv6).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import dockerfileUtils from 'dockerfile-utils';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SEVERITY = { 1: 'error', 2: 'warning', 3: 'information', 4: 'hint' };

const problems = dockerfileUtils.validate(readFileSync(path.join(root, 'Dockerfile'), 'utf8'));
for (const problem of problems) {
  const where = `Dockerfile:${problem.range.start.line + 1}:${problem.range.start.character + 1}`;
  process.stderr.write(`${where} ${SEVERITY[problem.severity] ?? 'problem'}: ${problem.message}\n`);
}
try {
  execFileSync(
    process.execPath,
    [
      path.join(root, 'node_modules', 'dclint', 'bin', 'dclint.cjs'),
      '-c',
      'deploy/dclint.json',
      'compose.yaml',
    ],
    { cwd: root, stdio: 'inherit' },
  );
} catch {
  process.exitCode = 1;
}
if (problems.length > 0) process.exitCode = 1;
