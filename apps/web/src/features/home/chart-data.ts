/** One category of a home chart (a priority, a status, a radiologist) and its value per series. */
export interface TChartRow {
  label: string;
  values: Readonly<Record<string, number | null>>;
}

/** One drawn series: the key of its values, its name in the legend and table, its colour. */
export interface TChartSeries {
  key: string;
  label: string;
  colour: string;
  /** False: a column of the table only (e.g. how many finals a median stands on), not drawn. */
  drawn?: boolean;
  /** How this series' values read, when not as the chart's axis does. */
  format?: (value: number) => string;
}

/** A series' value as text ("—" when there is none). */
export function seriesValueText(
  row: TChartRow,
  series: TChartSeries,
  format: (value: number) => string,
): string {
  const value = row.values[series.key];
  if (value === null || value === undefined) return '—';
  return (series.format ?? format)(value);
}

/**
 * Colours that read on the light and the dark theme alike (SVG fills take no CSS variables from
 * presentation attributes everywhere), in the order series use them.
 */
export const CHART_COLOURS = ['#3b82f6', '#f59e0b', '#10b981', '#a855f7', '#ef4444', '#64748b'] as const;

export function colourAt(index: number): string {
  return CHART_COLOURS[index % CHART_COLOURS.length] ?? '#3b82f6';
}

/** The text a screen reader gets for a chart: every category with every series' value, in words. */
export function chartSummary(
  title: string,
  rows: readonly TChartRow[],
  series: readonly TChartSeries[],
  format: (value: number) => string,
): string {
  if (rows.length === 0) return `${title}: nothing to show.`;
  const parts = rows.map((row) => {
    const values = series.map((item) => {
      const text = seriesValueText(row, item, format);
      return `${item.label} ${text === '—' ? 'none' : text}`;
    });
    return `${row.label}: ${values.join(', ')}`;
  });
  return `${title}. ${parts.join('; ')}.`;
}

export function formatCount(value: number): string {
  return value.toLocaleString('en');
}

/** Minutes on a chart's axis, short: "45m", "13h", "3d" (the table has the exact figures). */
export function formatAxisMinutes(minutes: number): string {
  if (minutes < 60) return `${Math.round(minutes)}m`;
  if (minutes < 48 * 60) return `${Math.round(minutes / 60)}h`;
  return `${Math.round(minutes / (24 * 60))}d`;
}
