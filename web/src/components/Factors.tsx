import type { ExplanationFactor } from '../generated/schema';
import { percent } from '../format';

const points = (effect: number) => {
  const n = Math.abs(effect * 100);
  if (n < 0.05) return 'under 0.1 points';
  return `${n < 1 ? n.toFixed(1) : Math.round(n)} ${n === 1 ? 'point' : 'points'}`;
};

/**
 * Why a probability is what it is, in plain words: the typical bill's figure it starts from, then
 * each factor and how far it moves the figure from there ("raises it 16 points"); they add up to
 * the bill's figure. A settled bill has none.
 */
export function Factors({ factors, reference, of }: { factors: ExplanationFactor[]; reference: number | null; of: string }) {
  if (reference === null) return <p class="hint">No factors: the bill’s status settles it.</p>;
  return (
    <div class="factors">
      <p class="hint">A typical bill of its kind: {percent(reference)}. What makes the difference:</p>
      <ul aria-label={`Why: ${of}`}>
        {factors.map((f) => (
          <li key={f.factor} class={f.effect >= 0 ? 'up' : 'down'}>
            <span aria-hidden="true">{f.effect >= 0 ? '▲' : '▼'} </span>
            {f.factor}: <strong>{f.effect >= 0 ? 'raises' : 'lowers'} it {points(f.effect)}</strong>
          </li>
        ))}
      </ul>
    </div>
  );
}
