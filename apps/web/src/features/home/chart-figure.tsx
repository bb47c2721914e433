import { lazy, Suspense, useId } from 'react';
import { chartSummary, seriesValueText, type TChartRow, type TChartSeries } from './chart-data.ts';

// recharts (with its d3 parts) loads with the first chart shown, not with the home screen: a
// radiologist's or a referrer's home draws none and never fetches it.
const BarChartView = lazy(() => import('./bar-chart.tsx').then((m) => ({ default: m.BarChartView })));

export interface ChartFigureProps {
  title: string;
  /** The name of the table's first column (what a row is: Priority, Status, Radiologist). */
  category: string;
  rows: readonly TChartRow[];
  series: readonly TChartSeries[];
  format: (value: number) => string;
  axisFormat?: (value: number) => string;
  stacked?: boolean;
  horizontal?: boolean;
  /** The drawing's height; a horizontal chart grows with its rows when not given. */
  height?: number;
  emptyText: string;
}

/**
 * A chart with its numbers: the drawing (lazy, with its words for screen readers) above a compact
 * table of the same values, so nobody has to read a bar's height.
 */
export function ChartFigure({
  title,
  category,
  rows,
  series,
  format,
  axisFormat,
  stacked,
  horizontal = false,
  height: fixedHeight,
  emptyText,
}: ChartFigureProps) {
  const captionId = useId();
  const drawn = series.filter((item) => item.drawn !== false);
  const height = fixedHeight ?? (horizontal ? 40 + rows.length * (12 + 10 * drawn.length) : 200);
  return (
    <figure aria-labelledby={captionId} className="flex flex-col gap-3">
      <figcaption id={captionId} className="text-sm font-semibold text-fg">
        {title}
      </figcaption>
      {rows.length === 0 ? (
        <p className="text-[13px] text-fg-muted">{emptyText}</p>
      ) : (
        <>
          <div
            role="img"
            aria-label={chartSummary(title, rows, series, format)}
            className="text-fg-subtle"
            style={{ height }}
          >
            <Suspense fallback={null}>
              <BarChartView
                rows={rows}
                series={drawn}
                format={format}
                axisFormat={axisFormat}
                stacked={stacked}
                horizontal={horizontal}
                height={height}
              />
            </Suspense>
          </div>
          <table className="w-full text-[12px] tabular-nums" data-chart-table={title}>
            <caption className="sr-only">{title} in numbers</caption>
            <thead>
              <tr className="border-b border-line text-left text-fg-subtle">
                <th scope="col" className="py-1 pr-2 font-medium">
                  {category}
                </th>
                {series.map((item) => (
                  <th key={item.key} scope="col" className="py-1 pl-2 text-right font-medium">
                    {item.drawn === false ? null : (
                      <span
                        aria-hidden="true"
                        className="mr-1 inline-block size-2 rounded-sm"
                        style={{ backgroundColor: item.colour }}
                      />
                    )}
                    {item.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.label} className="border-b border-line last:border-0">
                  <th scope="row" className="py-1 pr-2 text-left font-normal text-fg">
                    {row.label}
                  </th>
                  {series.map((item) => (
                    <td key={item.key} className="py-1 pl-2 text-right text-fg-muted">
                      {seriesValueText(row, item, format)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </figure>
  );
}
