import type { ExplanationFactor } from '../generated/schema';

/** How many of the (up to 5) factors are shown beside a figure: the largest first. */
const SHOWN = 3;

const points = (effect: number) => {
  const n = Math.abs(effect * 100);
  return `${n < 1 ? n.toFixed(1) : Math.round(n)} ${n === 1 ? 'point' : 'points'}`;
};

/**
 * Why a probability is what it is, in plain words: each factor and how far it moves the figure
 * against a typical bill ("raises it 16 points"). A settled bill has none.
 */
export function Factors({ factors, of }: { factors: ExplanationFactor[]; of: string }) {
  if (!factors.length) return <p class="hint">No factors: the bill’s status settles it.</p>;
  return (
    <div class="factors">
      <p class="hint">What moves it most, against a typical bill:</p>
      <ul aria-label={`Why: ${of}`}>
        {factors.slice(0, SHOWN).map((f) => (
          <li key={f.factor} class={f.effect >= 0 ? 'up' : 'down'}>
            <span aria-hidden="true">{f.effect >= 0 ? '▲' : '▼'} </span>
            {f.factor}: <strong>{f.effect >= 0 ? 'raises' : 'lowers'} it {points(f.effect)}</strong>
          </li>
        ))}
      </ul>
    </div>
  );
}
