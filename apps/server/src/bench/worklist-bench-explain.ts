// EXPLAIN (ANALYZE, BUFFERS) of what a worklist request ran (BENCH_MATRIX_EXPLAIN=1): the statements
// are caught as hotRows sends them (observeWorklistStatements) and explained again on the matrix's
// own connection, planned as the app planned them (generic or custom), with their parameters.
import type pg from 'pg';
import {
  observeWorklistStatements,
  type TWorklistStatement,
} from '../features/worklist/list/worklist-sql.ts';

type TPlanNode = {
  'Node Type': string;
  'Plan Rows': number;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  'Shared Hit Blocks'?: number;
  'Shared Read Blocks'?: number;
  'Index Name'?: string;
  'Relation Name'?: string;
  Plans?: TPlanNode[];
};

export type TExplained = {
  /** Execution time as EXPLAIN ANALYZE measured it (ms). */
  executionMs: number;
  /** Shared buffers hit + read by the whole plan. */
  buffers: number;
  /**
   * The worst ratio between a node's estimated and actual rows (per loop, both at least 1); under a
   * Limit only underestimates count (the limit stops a scan before its estimated rows).
   */
  worstEstimate: number;
  /** The node with that ratio, e.g. "Index Scan studies_organisation_created_idx 786 est / 81,299". */
  worstNode: string;
  /** The plan as text, for the record. */
  text: string;
};

/**
 * Every node with whether a Limit above it may have stopped it early: such a node's actual rows
 * below its estimate is the limit at work, not a misestimate.
 */
function nodes(node: TPlanNode, underLimit = false): { node: TPlanNode; underLimit: boolean }[] {
  const below = underLimit || node['Node Type'] === 'Limit';
  return [{ node, underLimit }, ...(node.Plans ?? []).flatMap((child) => nodes(child, below))];
}

/**
 * Catches the statements `run` makes hotRows send, but the plans it asks for itself (a keyless
 * search's estimate, keylessPlan): an EXPLAIN cannot be explained.
 */
export async function statementsOf(run: () => Promise<void>): Promise<TWorklistStatement[]> {
  const caught: TWorklistStatement[] = [];
  observeWorklistStatements((statement) => {
    if (!/^\s*explain\b/i.test(statement.text)) caught.push(statement);
  });
  try {
    await run();
  } finally {
    observeWorklistStatements(null);
  }
  return caught;
}

/** EXPLAIN (ANALYZE, BUFFERS) of one statement as the app planned it. */
export async function explain(client: pg.Client, statement: TWorklistStatement): Promise<TExplained> {
  const literal = (value: unknown) =>
    value === null || value === undefined ? 'null' : client.escapeLiteral(String(value));
  const mode = statement.plan === 'generic' ? 'force_generic_plan' : 'force_custom_plan';
  // As the worklist's pools plan (worklist-sql.ts): the plan cache mode, no parallel workers.
  await client.query(`set plan_cache_mode = ${mode}`);
  await client.query('set max_parallel_workers_per_gather = 0');
  await client.query(`prepare bench_explained as ${statement.text}`);
  try {
    const args = statement.params.map(literal).join(', ');
    const execute = `execute bench_explained${args ? `(${args})` : ''}`;
    const json = await client.query<{ 'QUERY PLAN': [{ Plan: TPlanNode; 'Execution Time': number }] }>(
      `explain (analyze, buffers, format json) ${execute}`,
    );
    const text = await client.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${execute}`);
    const [result] = json.rows[0]?.['QUERY PLAN'] ?? [];
    if (!result) throw new Error('EXPLAIN returned no plan');
    let worstEstimate = 1;
    let worstNode = '';
    for (const { node, underLimit } of nodes(result.Plan)) {
      if (!node['Actual Loops']) continue;
      const estimated = Math.max(1, node['Plan Rows']);
      const actual = Math.max(1, node['Actual Rows'] ?? 0);
      const ratio = underLimit ? actual / estimated : Math.max(estimated / actual, actual / estimated);
      if (ratio > worstEstimate) {
        worstEstimate = ratio;
        const on = node['Index Name'] ?? node['Relation Name'] ?? '';
        worstNode = `${node['Node Type']}${on ? ` ${on}` : ''}: ${node['Plan Rows'].toLocaleString('en')} est / ${(node['Actual Rows'] ?? 0).toLocaleString('en')}`;
      }
    }
    return {
      executionMs: result['Execution Time'],
      buffers: (result.Plan['Shared Hit Blocks'] ?? 0) + (result.Plan['Shared Read Blocks'] ?? 0),
      worstEstimate,
      worstNode,
      text: text.rows.map((row) => row['QUERY PLAN']).join('\n'),
    };
  } finally {
    await client.query('deallocate bench_explained');
    await client.query('reset plan_cache_mode');
    await client.query('reset max_parallel_workers_per_gather');
  }
}
