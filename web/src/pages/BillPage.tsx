import { useEffect, useMemo, useState } from 'preact/hooks';
import { type ChartPoint, ProbabilityChart } from '../components/ProbabilityChart';
import { Factors } from '../components/Factors';
import { ErrorMessage, Loading } from '../components/Status';
import { AddToWatchlist } from '../components/AddToWatchlist';
import { date, days, kindName, label, percent } from '../format';
import { errorMessage, gql, GraphQLRequestError } from '../graphql';
import { BILL, BILL_PREDICTIONS } from '../operations';
import { useSession } from '../session';
import { Table } from '../components/Table';
import { type Trust, TrustLine } from '../components/TrustLine';
import type * as Schema from '../generated/schema';

/** What the page selects (the queries below), typed from the schema (web/src/generated/schema.ts). */
type Bill = Pick<Schema.Bill, 'id' | 'title' | 'longTitle' | 'kind' | 'originatingHouse' | 'outcome' | 'introducedDate' | 'royalAssentDate' | 'url'> & {
  stages: Pick<Schema.Stage, 'stage' | 'house' | 'date'>[];
  scheduledSittings: Pick<Schema.ScheduledSitting, 'stage' | 'house' | 'date' | 'firstSeen'>[];
};

type Prediction = Pick<
  Schema.Prediction,
  'referenceDate' | 'status' | 'royalAssent' | 'nextStage30d' | 'timelineEtaDays' | 'timelineEtaScheduledFor' | 'stallRisk' | 'amendmentRisk' | 'closeVote' | 'withdrawalRisk' | 'modelVersion' | 'explanations'
> & { riskIndicators: Schema.RiskIndicators; trust: Trust[]; lastStage: Pick<NonNullable<Schema.Prediction['lastStage']>, 'stage' | 'house'> | null };

function RiskRow({ name, probability, level }: { name: string; probability: number; level?: string }) {
  return (
    <tr>
      <th scope="row">{name}</th>
      <td>{percent(probability)}</td>
      <td>{level ? <span class={`risk ${level.toLowerCase()}`}>{label(level)}</span> : '—'}</td>
    </tr>
  );
}

export function BillPage({ id }: { id: number }) {
  const { me } = useSession();
  const [bill, setBill] = useState<Bill | null | undefined>(undefined);
  const [prediction, setPrediction] = useState<Prediction | null>(null);
  const [history, setHistory] = useState<ChartPoint[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);

  useEffect(() => {
    setBill(undefined);
    setPrediction(null);
    setHistory(null);
    setError(null);
    setRefusal(null);
    gql<{ bill: Bill | null }>(BILL, { id })
      .then(({ bill }) => {
        setBill(bill);
        if (!bill) return;
        return gql<{ bill: { prediction: Prediction; predictionHistory: ChartPoint[] } }>(BILL_PREDICTIONS, { id }).then(
          (data) => {
            setPrediction(data.bill.prediction);
            setHistory(data.bill.predictionHistory);
          },
          (e) => (e instanceof GraphQLRequestError && e.code === 'RATE_LIMITED' ? setRefusal(e.message) : setError(errorMessage(e))),
        );
      })
      .catch((e) => setError(errorMessage(e)));
  }, [id]);

  const markers = useMemo(() => (bill?.stages ?? []).filter((s) => s.date).map((s) => ({ date: s.date!, label: label(s.stage) })), [bill]);

  if (bill === undefined) return error ? <ErrorMessage error={error} /> : <Loading what="Loading the bill" />;
  if (bill === null) return <p role="alert">There is no bill {id}.</p>;
  const risk = prediction?.riskIndicators;
  // the stage the evaluation groups by: the last main stage that sat by the reference date
  const stageNow = prediction?.lastStage ? `${label(prediction.lastStage.stage)}, ${prediction.lastStage.house}` : 'before its first reading';

  return (
    <article>
      <h1>{bill.title}</h1>
      <p class="muted">
        Bill {bill.id} · {kindName(bill.kind)} · from the {label(bill.originatingHouse)} · introduced {date(bill.introducedDate)} ·{' '}
        <a href={bill.url} rel="noopener noreferrer">
          on bills.parliament.uk
        </a>
      </p>
      {bill.longTitle && <p>{bill.longTitle}</p>}
      {bill.scheduledSittings.map((s, i) => (
        // the Bills API keeps no record of when a date was set down: "announced by" is when the service first saw it
        <p key={i} class="callout">
          Scheduled: <strong>{label(s.stage)}</strong> in the {label(s.house)} on {date(s.date)} <span class="muted">(announced by {date(s.firstSeen)})</span>
        </p>
      ))}
      {me && me.tier !== 'FREE' && <AddToWatchlist billId={bill.id} />}

      <section aria-labelledby="predictions-heading">
        <h2 id="predictions-heading">Predictions</h2>
        <ErrorMessage error={error} />
        {refusal && (
          <div class="callout" role="alert">
            <p>{refusal}</p>
            <p>
              The bill’s stage history is below. <a href="#/account">Your account</a> shows what you have used today.
            </p>
          </div>
        )}
        {!prediction && !refusal && !error && <Loading what="Computing the predictions" />}
        {prediction && risk && (
          <>
            <p>
              As of {date(prediction.referenceDate)}, with what was known then (model version {prediction.modelVersion}); status: <strong>{label(prediction.status)}</strong>. What each number
              means and how well the model does on sessions it never saw: <a href="/docs/model-card">the model card</a>.
            </p>
            <div class="figures">
              <div class="figure">
                <span class="value">{percent(prediction.royalAssent)}</span>
                <span>chance of Royal Assent</span>
                <TrustLine trust={prediction.trust.find((t) => t.output === 'royal_assent')} kind={bill.kind} stage={stageNow} />
                <Factors factors={prediction.explanations.royalAssent} reference={prediction.explanations.reference?.royalAssent ?? null} of="chance of Royal Assent" />
              </div>
              <div class="figure">
                <span class="value">{percent(prediction.nextStage30d)}</span>
                <span>chance of the next stage within 30 days</span>
                <TrustLine trust={prediction.trust.find((t) => t.output === 'next_stage_30d')} kind={bill.kind} stage={stageNow} />
                <Factors factors={prediction.explanations.nextStage30d} reference={prediction.explanations.reference?.nextStage30d ?? null} of="chance of the next stage within 30 days" />
              </div>
              <div class="figure">
                <span class="value">{days(prediction.timelineEtaDays)}</span>
                <span>{prediction.timelineEtaScheduledFor ? `to the next stage, scheduled for ${date(prediction.timelineEtaScheduledFor)}` : 'expected to the next stage'}</span>
              </div>
            </div>
            {prediction.explanations.reference && <p class="hint">The typical bill the factors start from: {prediction.explanations.reference.description}.</p>}
            <Table caption="Risks" columns={['Risk', 'Probability', 'Level']}>
              <RiskRow name="Stall (no stage in 200 days)" probability={prediction.stallRisk} level={risk.stallRiskLevel} />
              <RiskRow name="Withdrawal" probability={prediction.withdrawalRisk} level={risk.withdrawalRiskLevel} />
              <RiskRow name="Significant amendment" probability={prediction.amendmentRisk} level={risk.amendmentRiskLevel} />
              <RiskRow name="Close vote" probability={prediction.closeVote} level={risk.closeVoteLevel} />
            </Table>
            <p class="muted">
              Controversy {percent(risk.controversyScore)} · momentum {percent(risk.momentumScore)}
            </p>
          </>
        )}
      </section>

      {history && (
        <section aria-labelledby="chart-heading">
          <h2 id="chart-heading">Chances over the bill’s life</h2>
          <p class="muted">
            Each point is a nowcast made with only the facts known on its date, by a model trained only on facts dated on or before it: what the model would have said then. Dashed lines mark the stages.
            {history.some((p) => !p.model.outOfSample) && ' Grey bands mark points made in sample: no model that old has been trained yet, so today’s model, which knows how things turned out, made them.'}
          </p>
          <ProbabilityChart points={history} markers={markers} title={`${bill.title}: chances over time`} />
          <details>
            <summary>The chart’s figures as a table</summary>
            <Table columns={['Date', 'Royal Assent', 'Next stage within 30 days', 'Model']}>
              {history.map((p) => (
                <tr key={p.referenceDate}>
                  <td>{date(p.referenceDate)}</td>
                  <td>{percent(p.royalAssent)}</td>
                  <td>{percent(p.nextStage30d)}</td>
                  <td>{p.model.outOfSample ? 'out of sample' : 'in sample'}</td>
                </tr>
              ))}
            </Table>
          </details>
        </section>
      )}

      <section aria-labelledby="stages-heading">
        <h2 id="stages-heading">Stage history</h2>
        {bill.stages.length ? (
          <ol class="stages">
            {bill.stages.map((s, i) => (
              <li key={i}>
                <span class="stage-date">{s.date ? date(s.date) : 'not sat'}</span> <strong>{label(s.stage)}</strong> <span class="muted">({label(s.house)})</span>
              </li>
            ))}
          </ol>
        ) : (
          <p>No stages yet.</p>
        )}
      </section>
    </article>
  );
}
