/**
 * Reliability diagram for the model card: observed event frequency against forecast
 * probability, one line per model, with the diagonal a perfectly calibrated model
 * would follow. Points above the diagonal mean the model was under-confident there,
 * points below mean it was over-confident; marker area shows how many forecasts the
 * point rests on, so sparse bins do not look as trustworthy as full ones.
 *
 * Pure string building: the output is a standalone SVG document and is byte-for-byte
 * reproducible for the same input, so a regenerated model card only diffs when the
 * numbers do.
 */
import type { ReliabilityBin } from '../train/binary-report';

export interface ReliabilitySeries {
  name: string;
  bins: ReliabilityBin[];
}

export interface ReliabilityDiagramOptions {
  title: string;
  series: ReliabilitySeries[];
  /** Overall width in px (default 480). */
  width?: number;
  /** Overall height in px (default 480). */
  height?: number;
}

/** Okabe–Ito palette: distinguishable with the common forms of colour blindness. */
const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000', '#F0E442'];
/** Dash patterns combined with the palette, so series stay distinct past its length. */
const DASHES = ['', '8 3', '2 3', '8 3 2 3'];

const MARGIN = { left: 64, right: 24, top: 48, bottom: 60 };
const MIN_SIZE = 160;
const MAX_MARKER_RADIUS = 9;
const MIN_MARKER_RADIUS = 2.5;
const TICKS = [0, 1, 2, 3, 4, 5].map((i) => i / 5);

/** Escapes text for use in XML character data and attribute values. */
export function escapeXml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** A coordinate rounded to 2 decimals, never printed as "-0". */
function num(value: number): string {
  const rounded = Math.round(value * 100) / 100;
  return String(rounded === 0 ? 0 : rounded);
}

function tickLabel(value: number): string {
  return value === 0 || value === 1 ? String(value) : value.toFixed(1);
}

function seriesStyle(index: number): { colour: string; dash: string } {
  return {
    colour: PALETTE[index % PALETTE.length],
    dash: DASHES[Math.floor(index / PALETTE.length) % DASHES.length],
  };
}

function dashAttribute(dash: string): string {
  return dash === '' ? '' : ` stroke-dasharray="${dash}"`;
}

interface PlotPoint {
  x: number;
  y: number;
  count: number;
}

function plottablePoints(bins: readonly ReliabilityBin[]): PlotPoint[] {
  const points: PlotPoint[] = [];
  for (const bin of bins) {
    if (bin.count <= 0 || bin.meanPredicted === null || bin.observedRate === null) continue;
    if (!Number.isFinite(bin.meanPredicted) || !Number.isFinite(bin.observedRate)) continue;
    points.push({ x: bin.meanPredicted, y: bin.observedRate, count: bin.count });
  }
  return points;
}

function validateSize(name: string, value: number): void {
  if (!Number.isFinite(value) || value < MIN_SIZE) {
    throw new RangeError(`reliabilityDiagramSvg: ${name} must be a finite number ≥ ${MIN_SIZE} (got ${String(value)})`);
  }
}

/**
 * Renders a reliability diagram as a standalone SVG document. Each series is drawn
 * through the (meanPredicted, observedRate) points of its non-empty bins; a series
 * with no non-empty bins still appears in the legend but draws nothing.
 */
export function reliabilityDiagramSvg(options: ReliabilityDiagramOptions): string {
  const width = options.width ?? 480;
  const height = options.height ?? 480;
  validateSize('width', width);
  validateSize('height', height);

  // A square plot keeps the diagonal at 45°, which is what the eye compares against.
  const side = Math.min(width - MARGIN.left - MARGIN.right, height - MARGIN.top - MARGIN.bottom);
  const left = MARGIN.left;
  const top = MARGIN.top;
  const bottom = top + side;
  const right = left + side;
  const sx = (v: number): string => num(left + v * side);
  const sy = (v: number): string => num(bottom - v * side);

  const series = options.series.map((s, index) => ({ name: s.name, points: plottablePoints(s.bins), ...seriesStyle(index) }));
  const maxCount = Math.max(1, ...series.flatMap((s) => s.points.map((p) => p.count)));
  // Marker area proportional to the bin's count.
  const radius = (count: number): string =>
    num(Math.max(MIN_MARKER_RADIUS, MAX_MARKER_RADIUS * Math.sqrt(count / maxCount)));

  const title = escapeXml(options.title);
  const out: string[] = [];
  out.push('<?xml version="1.0" encoding="UTF-8"?>');
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${num(width)}" height="${num(height)}" viewBox="0 0 ${num(width)} ${num(height)}" font-family="sans-serif" role="img">`,
  );
  out.push(`<title>${title}</title>`);
  out.push(`<rect x="0" y="0" width="${num(width)}" height="${num(height)}" fill="#ffffff"/>`);
  out.push(`<text x="${num(width / 2)}" y="${num(MARGIN.top / 2 + 5)}" text-anchor="middle" font-size="16" font-weight="bold">${title}</text>`);

  // Grid, ticks and tick labels.
  out.push('<g class="axes" font-size="11" fill="#333333">');
  for (const t of TICKS) {
    out.push(`<line x1="${sx(t)}" y1="${num(top)}" x2="${sx(t)}" y2="${num(bottom)}" stroke="#e5e5e5" stroke-width="1"/>`);
    out.push(`<line x1="${num(left)}" y1="${sy(t)}" x2="${num(right)}" y2="${sy(t)}" stroke="#e5e5e5" stroke-width="1"/>`);
    out.push(`<line x1="${sx(t)}" y1="${num(bottom)}" x2="${sx(t)}" y2="${num(bottom + 5)}" stroke="#333333" stroke-width="1"/>`);
    out.push(`<line x1="${num(left - 5)}" y1="${sy(t)}" x2="${num(left)}" y2="${sy(t)}" stroke="#333333" stroke-width="1"/>`);
    out.push(`<text x="${sx(t)}" y="${num(bottom + 18)}" text-anchor="middle">${tickLabel(t)}</text>`);
    out.push(`<text x="${num(left - 8)}" y="${num(Number(sy(t)) + 4)}" text-anchor="end">${tickLabel(t)}</text>`);
  }
  out.push(`<rect x="${num(left)}" y="${num(top)}" width="${num(side)}" height="${num(side)}" fill="none" stroke="#333333" stroke-width="1"/>`);
  out.push('</g>');

  // Axis titles.
  out.push(`<text x="${num(left + side / 2)}" y="${num(bottom + 42)}" text-anchor="middle" font-size="13">predicted probability</text>`);
  const yTitleX = num(left - 44);
  const yTitleY = num(top + side / 2);
  out.push(
    `<text x="${yTitleX}" y="${yTitleY}" text-anchor="middle" font-size="13" transform="rotate(-90 ${yTitleX} ${yTitleY})">observed frequency</text>`,
  );

  // Perfect calibration.
  out.push(
    `<line class="diagonal" x1="${sx(0)}" y1="${sy(0)}" x2="${sx(1)}" y2="${sy(1)}" stroke="#888888" stroke-width="1.5" stroke-dasharray="6 4"/>`,
  );

  // Series.
  for (const s of series) {
    if (s.points.length === 0) continue;
    const name = escapeXml(s.name);
    out.push(`<g class="series" fill="${s.colour}" stroke="${s.colour}">`);
    out.push(
      `<polyline points="${s.points.map((p) => `${sx(p.x)},${sy(p.y)}`).join(' ')}" fill="none" stroke-width="2"${dashAttribute(s.dash)}/>`,
    );
    for (const p of s.points) {
      out.push(
        `<circle cx="${sx(p.x)}" cy="${sy(p.y)}" r="${radius(p.count)}" fill-opacity="0.8" stroke="#ffffff" stroke-width="1"><title>${name}: predicted ${p.x.toFixed(3)}, observed ${p.y.toFixed(3)}, n=${p.count}</title></circle>`,
      );
    }
    out.push('</g>');
  }

  // Legend, in the upper-left corner of the plot, which a roughly calibrated curve leaves empty.
  const rowHeight = 18;
  const legendRows = [
    ...series.map((s) => ({ name: s.name, colour: s.colour, dash: s.dash, marker: true })),
    { name: 'perfect calibration', colour: '#888888', dash: '6 4', marker: false },
  ];
  const longestName = Math.max(...legendRows.map((r) => r.name.length));
  const legendWidth = Math.min(side - 16, 44 + longestName * 6.5);
  const legendX = left + 8;
  const legendY = top + 8;
  out.push('<g class="legend" font-size="12">');
  out.push(
    `<rect x="${num(legendX)}" y="${num(legendY)}" width="${num(legendWidth)}" height="${num(legendRows.length * rowHeight + 8)}" fill="#ffffff" fill-opacity="0.85" stroke="#cccccc" stroke-width="1"/>`,
  );
  legendRows.forEach((row, i) => {
    const y = legendY + 4 + rowHeight * i + rowHeight / 2;
    out.push(
      `<line x1="${num(legendX + 6)}" y1="${num(y)}" x2="${num(legendX + 30)}" y2="${num(y)}" stroke="${row.colour}" stroke-width="2"${dashAttribute(row.dash)}/>`,
    );
    if (row.marker) out.push(`<circle cx="${num(legendX + 18)}" cy="${num(y)}" r="4" fill="${row.colour}"/>`);
    out.push(`<text x="${num(legendX + 36)}" y="${num(y + 4)}" fill="#333333">${escapeXml(row.name)}</text>`);
  });
  out.push('</g>');

  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
