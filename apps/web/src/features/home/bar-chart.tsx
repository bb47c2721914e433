import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { TChartRow, TChartSeries } from './chart-data.ts';

export interface BarChartViewProps {
  rows: readonly TChartRow[];
  series: readonly TChartSeries[];
  /** How a value reads on the axis and in the tooltip (minutes as "1 h 5 min", counts as numbers). */
  format: (value: number) => string;
  /** A shorter form of a value for the axis ticks (defaults to format). */
  axisFormat?: (value: number) => string;
  stacked?: boolean;
  /** Bars along the x axis with the categories down the left (long names, many rows). */
  horizontal?: boolean;
  height?: number;
}

/**
 * The drawn part of a home chart (recharts). Loaded lazily by ChartFigure, so recharts is fetched
 * only by the screens that show a chart, never with the main bundle; the numbers it draws are
 * always in ChartFigure's table as well.
 */
export function BarChartView({
  rows,
  series,
  format,
  axisFormat = format,
  stacked = false,
  horizontal = false,
  height = 200,
}: BarChartViewProps) {
  const data = rows.map((row) => ({ label: row.label, ...row.values }));
  const tick = { fontSize: 11, fill: 'currentColor' };
  const categoryAxis = { dataKey: 'label', tickLine: false, axisLine: false, tick, interval: 0 } as const;
  const valueAxis = {
    tickLine: false,
    axisLine: false,
    allowDecimals: false,
    tick,
    tickFormatter: (value: number) => axisFormat(value),
  } as const;
  return (
    <ResponsiveContainer width="100%" height={height}>
      <BarChart
        data={data}
        layout={horizontal ? 'vertical' : 'horizontal'}
        margin={{ top: 8, right: 12, bottom: 0, left: 0 }}
        barCategoryGap="20%"
      >
        <CartesianGrid
          vertical={horizontal}
          horizontal={!horizontal}
          stroke="currentColor"
          strokeOpacity={0.12}
        />
        {horizontal ? (
          <>
            <XAxis type="number" {...valueAxis} />
            <YAxis type="category" width={112} {...categoryAxis} />
          </>
        ) : (
          <>
            <XAxis type="category" {...categoryAxis} />
            <YAxis type="number" width={48} {...valueAxis} />
          </>
        )}
        <Tooltip
          cursor={{ fill: 'currentColor', fillOpacity: 0.06 }}
          formatter={(value) => (typeof value === 'number' ? format(value) : String(value))}
          contentStyle={{ fontSize: 12, borderRadius: 6 }}
        />
        {series.length > 1 ? <Legend iconSize={8} wrapperStyle={{ fontSize: 11 }} itemSorter={null} /> : null}
        {series.map((item) => (
          <Bar
            key={item.key}
            dataKey={item.key}
            name={item.label}
            fill={item.colour}
            stackId={stacked ? 'stack' : undefined}
            radius={stacked ? 0 : horizontal ? [0, 3, 3, 0] : [3, 3, 0, 0]}
            isAnimationActive={false}
            maxBarSize={36}
          />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}
