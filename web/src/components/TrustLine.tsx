import { capitalise, kindPlural, percent } from '../format';
import type * as Schema from '../generated/schema';

export type Trust = Pick<Schema.PredictionTrust, 'output' | 'scope' | 'binLower' | 'binUpper' | 'bills' | 'observedRate' | 'testSessions'>;

const range = (t: Trust) => `${Math.round(t.binLower * 100)}–${Math.round(t.binUpper * 100)}%`;

/**
 * How far to trust a figure, in one line, from the model card's evaluation: how often held-out
 * nowcasts like it (same kind of bill, same stage, same tenth of probability) came true. Says so
 * when there were too few to tell.
 */
export function TrustLine({ trust, kind, stage }: { trust: Trust | undefined; kind: Schema.BillKind; stage: string }) {
  if (!trust) return null;
  const bills = kindPlural(kind);
  const who = trust.scope === 'kind_and_stage' ? `${capitalise(bills)} at this stage (${stage})` : `${capitalise(bills)} at any stage (too few at this one)`;
  const sessions = trust.testSessions.join(', ');
  return (
    <p class="trust" data-testid={`trust-${trust.output}`}>
      {trust.observedRate === null ? (
        <>
          Too few {bills} had a figure of {range(trust)} in the held-out sessions ({sessions}) to say how often it came true.
        </>
      ) : (
        <>
          {who}: of nowcasts of {range(trust)}, {percent(trust.observedRate)} came true ({Math.round(trust.bills)} bills of {sessions}).
        </>
      )}{' '}
      <a href={trust.output === 'royal_assent' ? '/docs/model-card#royal-assent-reliability-by-kind' : '/docs/model-card#skill-by-kind'}>How far to trust it</a>
    </p>
  );
}
