/** The reliability diagram the model card draws: its SVG is well formed, scaled and deterministic. */
import type { BinaryOutcome } from '../../../../../src/model/train/metrics';
import { reliabilityTable } from '../../../../support/sample-metrics';
import { reliabilityDiagramSvg } from '../../../../../src/model/evaluate/reliability-svg';

const s = (p: number, y: 0 | 1): BinaryOutcome => ({ p, y });

/** A small well-formedness check: balanced tags, quoted attributes, no raw `<` or stray `&` in text. */
function assertWellFormedXml(xml: string): void {
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  const tag = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>/g;
  let last = 0;
  let match: RegExpExecArray | null;
  while ((match = tag.exec(body)) !== null) {
    const text = body.slice(last, match.index);
    expect(text).not.toMatch(/[<>]/);
    expect(text).not.toMatch(/&(?!(amp|lt|gt|quot|apos);)/);
    const [, closing, name, attributes, selfClosing] = match;
    expect(attributes).not.toMatch(/&(?!(amp|lt|gt|quot|apos);)/);
    if (closing) expect(stack.pop()).toBe(name);
    else if (!selfClosing) stack.push(name);
    last = tag.lastIndex;
  }
  expect(body.slice(last).trim()).toBe('');
  expect(stack).toEqual([]);
}

describe('reliabilityDiagramSvg', () => {
  const model = reliabilityTable([s(0.15, 0), s(0.15, 1), s(0.85, 1), s(0.85, 1), s(0.9, 0), s(0.45, 0)]);
  const baseline = reliabilityTable([s(0.5, 0), s(0.5, 1), s(0.5, 1)]);
  const empty = reliabilityTable([]);

  it('is a standalone SVG document with axes, diagonal, title and legend', () => {
    const svg = reliabilityDiagramSvg({ title: 'Royal Assent', series: [{ name: 'model', bins: model }] });
    expect(svg.startsWith('<?xml') || svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(svg.trim().endsWith('</svg>')).toBe(true);
    assertWellFormedXml(svg);
    expect(svg).toContain('predicted probability');
    expect(svg).toContain('observed frequency');
    expect(svg).toMatch(/class="diagonal"[^>]*stroke-dasharray/);
    for (const label of ['0', '0.2', '0.4', '0.6', '0.8', '1']) expect(svg).toContain(`>${label}</text>`);
    expect(svg).toContain('>Royal Assent</text>');
    expect(svg).toContain('>model</text>');
    // One marker per non-empty bin: bins 1, 4, 8, 9.
    expect(svg.match(/<circle cx=[^>]*fill-opacity/g)).toHaveLength(4);
  });

  it('draws one polyline per series with a non-empty bin, in distinct colours', () => {
    const svg = reliabilityDiagramSvg({
      title: 'x',
      series: [
        { name: 'model', bins: model },
        { name: 'base rate', bins: baseline },
        { name: 'nothing yet', bins: empty },
      ],
    });
    assertWellFormedXml(svg);
    expect(svg.match(/<polyline /g)).toHaveLength(2);
    const colours = [...svg.matchAll(/<g class="series" fill="([^"]+)"/g)].map((m) => m[1]);
    expect(colours).toHaveLength(2);
    expect(new Set(colours).size).toBe(2);
    // The empty series is still named in the legend.
    expect(svg).toContain('>nothing yet</text>');
  });

  it('scales marker size with the bin count', () => {
    // Bin 1 holds 3 forecasts, bin 8 holds 1: the larger bin gets the larger radius.
    const bins = reliabilityTable([s(0.1, 0), s(0.1, 0), s(0.1, 1), s(0.8, 1)]);
    const svg = reliabilityDiagramSvg({ title: 't', series: [{ name: 'm', bins }] });
    const radii = [...svg.matchAll(/<circle cx="[^"]+" cy="[^"]+" r="([^"]+)" fill-opacity/g)].map((m) => Number(m[1]));
    expect(radii).toHaveLength(2);
    expect(radii[0]).toBeGreaterThan(radii[1]);
    // Area proportional to count: r1/r0 = sqrt(1/3).
    expect(radii[1] / radii[0]).toBeCloseTo(Math.sqrt(1 / 3), 2);
  });

  it('rounds coordinates to at most 2 decimals', () => {
    const svg = reliabilityDiagramSvg({ title: 't', series: [{ name: 'm', bins: model }], width: 487, height: 511 });
    const numbers = [...svg.matchAll(/ (?:x|y|x1|x2|y1|y2|cx|cy|r|width|height|points)="([^"]+)"/g)].flatMap((m) => m[1].split(/[ ,]/));
    expect(numbers.length).toBeGreaterThan(20);
    for (const n of numbers) expect(n).toMatch(/^-?\d+(\.\d{1,2})?$/);
  });

  it('escapes XML special characters in the title and series names', () => {
    const svg = reliabilityDiagramSvg({ title: 'A <&> "B"', series: [{ name: "Tom's <model>", bins: model }] });
    assertWellFormedXml(svg);
    expect(svg).toContain('A &lt;&amp;&gt; &quot;B&quot;');
    expect(svg).not.toContain('A <&>');
    expect(svg).toContain('Tom&apos;s &lt;model&gt;');
  });

  it('is deterministic', () => {
    const options = { title: 'Royal Assent', series: [{ name: 'model', bins: model }, { name: 'base rate', bins: baseline }] };
    const first = reliabilityDiagramSvg(options);
    const second = reliabilityDiagramSvg({
      title: 'Royal Assent',
      series: [{ name: 'model', bins: model.map((b) => ({ ...b })) }, { name: 'base rate', bins: baseline.map((b) => ({ ...b })) }],
    });
    expect(second).toBe(first);
  });

  it('rejects unusable sizes', () => {
    expect(() => reliabilityDiagramSvg({ title: 't', series: [], width: Number.NaN })).toThrow(RangeError);
    expect(() => reliabilityDiagramSvg({ title: 't', series: [], height: 10 })).toThrow(RangeError);
  });
});
