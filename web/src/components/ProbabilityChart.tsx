import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { PredictionPoint } from '../generated/schema';
import { axisDate, date, percent } from '../format';

export type ChartPoint = Pick<PredictionPoint, 'referenceDate' | 'royalAssent' | 'nextStage30d'> & { model: Pick<PredictionPoint['model'], 'outOfSample'> };

export interface StageMarker {
  date: string;
  label: string;
}

const seconds = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;

/** Vertical lines at the stage dates, with their names, drawn under the series. */
function stageMarkers(markers: StageMarker[]): uPlot.Plugin {
  return {
    hooks: {
      drawAxes: (u: uPlot) => {
        const { ctx } = u;
        const { top, height } = u.bbox;
        ctx.save();
        ctx.strokeStyle = 'rgba(100, 100, 120, 0.45)';
        ctx.fillStyle = '#555';
        ctx.font = `${Math.round(10 * devicePixelRatio)}px system-ui, sans-serif`;
        ctx.textAlign = 'left';
        ctx.textBaseline = 'alphabetic';
        ctx.setLineDash([4 * devicePixelRatio, 4 * devicePixelRatio]);
        let lastLabelX = -Infinity;
        for (const marker of markers) {
          const x = Math.round(u.valToPos(seconds(marker.date), 'x', true));
          if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) continue;
          ctx.beginPath();
          ctx.moveTo(x, top);
          ctx.lineTo(x, top + height);
          ctx.stroke();
          // labels only where they do not run into the previous one
          const width = ctx.measureText(marker.label).width;
          if (x > lastLabelX) {
            ctx.fillText(marker.label, x + 3 * devicePixelRatio, top + 12 * devicePixelRatio);
            lastLabelX = x + width + 8 * devicePixelRatio;
          }
        }
        ctx.restore();
      },
    },
  };
}

/**
 * A grey band behind the stretches of points made in sample (by a model that learned from facts
 * dated after them, because no model that old was trained yet): not a fair backtest.
 */
function inSampleBands(points: ChartPoint[]): uPlot.Plugin {
  return {
    hooks: {
      drawAxes: (u: uPlot) => {
        const { ctx } = u;
        const { top, height, left, width } = u.bbox;
        const x = (i: number) => Math.min(left + width, Math.max(left, Math.round(u.valToPos(seconds(points[i].referenceDate), 'x', true))));
        ctx.save();
        ctx.fillStyle = 'rgba(120, 120, 120, 0.14)';
        for (let i = 0; i < points.length; i++) {
          if (points[i].model.outOfSample) continue;
          const start = i;
          while (i + 1 < points.length && !points[i + 1].model.outOfSample) i++;
          // the band reaches the next point: the stretch the in-sample points stand for
          const end = i + 1 < points.length ? x(i + 1) : x(i) + 4;
          ctx.fillRect(x(start), top, Math.max(4, end - x(start)), height);
        }
        ctx.restore();
      },
    },
  };
}

/**
 * P(Royal Assent) and P(next stage within 30 days) over a bill's life, as nowcast on each date,
 * with the bill's stages marked on the time axis. A table of the same figures follows for screen
 * readers and keyboard users (see BillPage).
 */
export function ProbabilityChart({ points, markers, title }: { points: ChartPoint[]; markers: StageMarker[]; title: string }) {
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = container.current;
    if (!element || !points.length) return;
    const width = () => Math.max(280, element.clientWidth);
    const plot = new uPlot(
      {
        title,
        width: width(),
        height: 300,
        scales: { x: { time: true }, y: { range: [0, 1] } },
        // uPlot's own time ticks read month/day (6/16): a UK product reads day, then month
        axes: [
          {
            values: (_u, ticks, _axis, _space, spacing) => {
              const labels = ticks.map((t) => axisDate(t, spacing));
              // the canvas's text is invisible to the DOM: kept as an attribute, for tools that read the page
              element.dataset.xAxis = labels.join(' | ');
              return labels;
            },
          },
          { values: (_u, ticks) => ticks.map((t) => `${Math.round(t * 100)}%`) },
        ],
        series: [
          { value: (_u, v) => (v == null ? '—' : date(new Date(v * 1000).toISOString())) },
          { label: 'Royal Assent', stroke: '#1d4ed8', width: 2, points: { show: false }, value: (_u, v) => percent(v) },
          { label: 'Next stage within 30 days', stroke: '#c2410c', width: 2, points: { show: false }, value: (_u, v) => percent(v) },
        ],
        plugins: [inSampleBands(points), stageMarkers(markers)],
      },
      [points.map((p) => seconds(p.referenceDate)), points.map((p) => p.royalAssent), points.map((p) => p.nextStage30d)],
      element,
    );
    const resize = () => plot.setSize({ width: width(), height: 300 });
    addEventListener('resize', resize);
    return () => {
      removeEventListener('resize', resize);
      plot.destroy();
    };
  }, [points, markers, title]);
  return <div ref={container} class="chart" role="img" aria-label={`${title}: a line chart; the same figures are in the table below`} data-testid="probability-chart" />;
}
