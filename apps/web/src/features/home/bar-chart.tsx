import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { TChartRow, TChartSeries } from './chart-data.ts';

export interface BarChartViewProps {
  rows: readonly TChartRow[];
  series: readonly TChartSeries[];
  /** How a value reads on the axis and in the tooltip (minutes as "1 h 5 min", counts as numbers). */
  format: (value: number) => string;
  stacked?: boolean;
  height?: number;
}

/**
 * The drawn part of a home chart (recharts). Loaded lazily by ChartFigure, so recharts is fetched
 * only by the screens that show a chart, never with the main bundle; the numbers it draws are
 * always in ChartFigure's table as well.
 */
export function BarChartView({ rows, series, format, stacked = false, height = 200 }: BarChartViewProps) {
  const data = rows.map((row) => ({ label: row.label, ...row.values }));
  return (
    <ResponsiveContainer width="100%" height={height}>
      <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} barCategoryGap="20%">
        <CartesianGrid vertical={false} stroke="currentColor" strokeOpacity={0.12} />
        <XAxis
          dataKey="label"
          tickLine={false}
          axisLine={false}
          tick={{ fontSize: 11, fill: 'currentColor' }}
          interval={0}
        />
        <YAxis
          tickLine={false}
          axisLine={false}
          width={56}
          allowDecimals={false}
          tick={{ fontSize: 11, fill: 'currentColor' }}
          tickFormatter={(value: number) => format(value)}
        />
        <Tooltip
          cursor={{ fill: 'currentColor', fillOpacity: 0.06 }}
          formatter={(value) => (typeof value === 'number' ? format(value) : String(value))}
          contentStyle={{ fontSize: 12, borderRadius: 6 }}
        />
        {series.length > 1 ? <Legend iconSize={8} wrapperStyle={{ fontSize: 11 }} /> : null}
        {series.map((item) => (
          <Bar
            key={item.key}
            dataKey={item.key}
            name={item.label}
            fill={item.colour}
            stackId={stacked ? 'stack' : undefined}
            radius={stacked ? 0 : [3, 3, 0, 0]}
            isAnimationActive={false}
            maxBarSize={36}
          />
        ))}
      </BarChart>
    </ResponsiveContainer>
  );
}
