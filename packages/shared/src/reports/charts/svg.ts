import { escapeHtml } from '../render-html.js';
import { chartHeight, chartTable, HATCH_SPACING, layoutChart } from './layout.js';
import type { Chart, ChartFill, ChartPrimitive } from './model.js';

/*
 * A chart as SVG (issue 28 point 6): the primitives of layoutChart written as SVG elements, the
 * hatchings as <pattern>s, every text escaped. Inline in a server-made preview, it costs the web
 * bundle nothing. Pure.
 */

const FONT_FAMILY = 'DejaVu Sans, Arial, sans-serif';
/** Every chart at one scale on screen (its units are a PDF's points), narrowed only by a narrow frame. */
const SCREEN_SCALE = 1.1;
const n = (value: number) => String(Number(value.toFixed(2)));
const dashOf = (dash: readonly number[] | null) => (dash ? ` stroke-dasharray="${dash.map(n).join(' ')}"` : '');

/** The strokes of one tile of a hatching (HATCH_SPACING square). */
function hatchTile(fill: ChartFill): string {
  const s = HATCH_SPACING;
  const line = (d: string) => `<path d="${d}" stroke="${fill.ink}" stroke-width="0.7" fill="none"/>`;
  const rising = `M0,${s} L${s},0 M-1,1 L1,-1 M${s - 1},${s + 1} L${s + 1},${s - 1}`;
  const falling = `M0,0 L${s},${s} M-1,${s - 1} L1,${s + 1} M${s - 1},-1 L${s + 1},1`;
  switch (fill.hatch) {
    case 'diagonal':
      return line(rising);
    case 'back':
      return line(falling);
    case 'cross':
      return line(`${rising} ${falling}`);
    case 'horizontal':
      return line(`M0,${s / 2} L${s},${s / 2}`);
    case 'vertical':
      return line(`M${s / 2},0 L${s / 2},${s}`);
    case 'dots':
      return `<circle cx="${s / 2}" cy="${s / 2}" r="0.9" fill="${fill.ink}"/>`;
    default:
      return '';
  }
}

const fillKey = (fill: ChartFill) => `${fill.hatch}-${fill.grey.slice(1)}-${fill.ink.slice(1)}`;

function markerSvg(item: Extract<ChartPrimitive, { type: 'marker' }>): string {
  const { x, y, size } = item;
  const paint = item.filled ? 'fill="#111111"' : 'fill="#ffffff" stroke="#111111" stroke-width="1"';
  switch (item.shape) {
    case 'square':
      return `<rect x="${n(x - size)}" y="${n(y - size)}" width="${n(2 * size)}" height="${n(2 * size)}" ${paint}/>`;
    case 'triangle':
      return `<polygon points="${n(x)},${n(y - size * 1.2)} ${n(x + size * 1.1)},${n(y + size * 0.8)} ${n(x - size * 1.1)},${n(y + size * 0.8)}" ${paint}/>`;
    case 'diamond':
      return `<polygon points="${n(x)},${n(y - size * 1.3)} ${n(x + size * 1.3)},${n(y)} ${n(x)},${n(y + size * 1.3)} ${n(x - size * 1.3)},${n(y)}" ${paint}/>`;
    default:
      return `<circle cx="${n(x)}" cy="${n(y)}" r="${n(size)}" ${paint}/>`;
  }
}

export interface ChartSvgOptions {
  width?: number;
  height?: number;
  /** Prefixes the patterns' ids: distinct for each chart of one HTML document. */
  id?: string;
}

/** A chart as one `<svg>` element (the layout's box at SCREEN_SCALE, narrowed to its container when it is narrower). */
export function chartSvg(chart: Chart, options: ChartSvgOptions = {}): string {
  const id = (options.id ?? 'chart').replace(/[^A-Za-z0-9_-]/g, '_');
  const drawing = layoutChart(chart, options.width, options.height ?? chartHeight(chart, options.width));
  const patterns = new Map<string, string>();
  const paint = (fill: ChartFill) => {
    if (!fill.hatch) return fill.grey;
    const key = `${id}-${fillKey(fill)}`;
    if (!patterns.has(key))
      patterns.set(
        key,
        `<pattern id="${key}" patternUnits="userSpaceOnUse" width="${HATCH_SPACING}" height="${HATCH_SPACING}"><rect width="${HATCH_SPACING}" height="${HATCH_SPACING}" fill="${fill.grey}"/>${hatchTile(fill)}</pattern>`,
      );
    return `url(#${key})`;
  };
  const body = drawing.items
    .map((item) => {
      switch (item.type) {
        case 'rect':
          return `<rect x="${n(item.x)}" y="${n(item.y)}" width="${n(item.width)}" height="${n(item.height)}" fill="${paint(item.fill)}"${item.stroke ? ` stroke="${item.stroke}" stroke-width="0.6"` : ''}/>`;
        case 'line':
          return `<line x1="${n(item.x1)}" y1="${n(item.y1)}" x2="${n(item.x2)}" y2="${n(item.y2)}" stroke="${item.stroke}" stroke-width="${n(item.width)}"${dashOf(item.dash)}/>`;
        case 'polyline':
          return `<polyline points="${item.points.map(([x, y]) => `${n(x)},${n(y)}`).join(' ')}" fill="none" stroke="${item.stroke}" stroke-width="${n(item.width)}"${dashOf(item.dash)}/>`;
        case 'marker':
          return markerSvg(item);
        case 'text':
          return `<text x="${n(item.x)}" y="${n(item.y)}" font-size="${n(item.size)}"${item.anchor === 'start' ? '' : ` text-anchor="${item.anchor}"`}${item.bold ? ' font-weight="bold"' : ''} fill="${item.colour}">${escapeHtml(item.text)}</text>`;
        default:
          return '';
      }
    })
    .join('');
  const title = escapeHtml(drawing.title);
  const defs = patterns.size ? `<defs>${[...patterns.values()].join('')}</defs>` : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${n(drawing.width)} ${n(drawing.height)}" width="${n(drawing.width * SCREEN_SCALE)}" height="${n(drawing.height * SCREEN_SCALE)}" role="img" aria-label="${title}" font-family="${FONT_FAMILY}" style="max-width:100%;height:auto;display:block"><title>${title}</title>${defs}<rect width="${n(drawing.width)}" height="${n(drawing.height)}" fill="#ffffff"/>${body}</svg>`;
}

/** The chart's table (chartTable) as HTML, every text escaped. */
export function chartTableHtml(chart: Chart): string {
  const { head, rows } = chartTable(chart);
  const cells = (tag: 'th' | 'td', row: readonly string[]) => row.map((cell) => `<${tag}>${escapeHtml(cell)}</${tag}>`).join('');
  return `<table class="chart-table"><thead><tr>${cells('th', head)}</tr></thead><tbody>${rows.map((row) => `<tr>${cells('td', row)}</tr>`).join('')}</tbody></table>`;
}

/**
 * A chart and its table side by side (wrapping under it in a narrow frame), for a preview: a
 * `<figure data-chart>` that needs no style sheet of the page.
 */
export function chartFigureHtml(chart: Chart, options: ChartSvgOptions = {}): string {
  return `<figure class="chart" data-chart="${escapeHtml(chart.title)}" style="display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start;margin:10px 0 16px"><div style="flex:0 1 auto;min-width:280px">${chartSvg(chart, options)}</div>${chartTableHtml(chart)}</figure>`;
}
