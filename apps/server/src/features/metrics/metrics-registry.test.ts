import { describe, expect, it } from 'vitest';
import { createMetrics, type TMetricSources } from './metrics-registry.ts';
import type { TQueueDepth } from './metrics-queries.ts';

// A scrape reads the job table; scrapes arriving while one is under way must not each read it
// again (a flood on the tokenless METRICS_PORT would take every connection of the pool).
function sourcesCounting(reads: { jobs: number; pacs: number }, release: Promise<void>): TMetricSources {
  return {
    database: { kind: 'pglite', pool: null },
    realtimeSockets: () => 0,
    collaboration: () => ({ documents: 0, connections: 0 }),
    dictationStreams: () => 0,
    async queueDepths(): Promise<readonly TQueueDepth[]> {
      reads.jobs++;
      await release;
      return [{ queue: 'email', state: 'due', jobs: reads.jobs, oldest_seconds: 1 }];
    },
    async archiveLags() {
      reads.pacs++;
      return [];
    },
    onCollectError() {},
  };
}

describe('metrics scrape', () => {
  it('answers scrapes that arrive during one with its reads, and reads again afterwards', async () => {
    const reads = { jobs: 0, pacs: 0 };
    let open = () => {};
    const release = new Promise<void>((resolve) => (open = resolve));
    const metrics = createMetrics(sourcesCounting(reads, release));
    const scrapes = Array.from({ length: 20 }, () => metrics.scrape());
    open();
    const texts = await Promise.all(scrapes);
    expect(reads).toEqual({ jobs: 1, pacs: 1 });
    expect(new Set(texts).size).toBe(1);
    expect(texts[0]).toContain('ris_jobs{queue="email",state="due"} 1');

    // A later scrape reads the sources again.
    expect(await metrics.scrape()).toContain('ris_jobs{queue="email",state="due"} 2');
    expect(reads).toEqual({ jobs: 2, pacs: 2 });
  });
});
