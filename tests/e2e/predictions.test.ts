import { ModelVersionEntity } from '../../src/db/entities/model-version.entity';
import { ingest } from '../../src/ingest/ingest.service';
import { SnapshotSource } from '../../src/ingest/snapshot.source';
import { ModelService } from '../../src/services/model.service';
import { Readiness } from '../../src/health/readiness';
import { makeSnapshot, SAMPLE_BILL_IDS } from '../support/fixtures';
import { startTestApp, type TestApp, TEST_TRAINING } from '../support/test-app';

const PREDICTION = `query ($id: Int!, $date: Date) {
  prediction(billId: $id, referenceDate: $date) {
    billId mode referenceDate status royalAssent nextStage30d timelineEtaDays stallRisk amendmentRisk closeVote withdrawalRisk modelVersion
    riskIndicators { controversyScore momentumScore stallRiskLevel withdrawalRiskLevel amendmentRiskLevel closeVoteLevel }
  }
}`;

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await startTestApp();
  key = await t.userWithKey('pilot');
});
afterAll(() => t.close());

const predict = (id: number, date?: string) => t.graphql(PREDICTION, { key, variables: { id, date } });

describe('before a model is ready', () => {
  it('answers 503 "models loading", also while training runs, and serves once trained', async () => {
    const before = await predict(2900);
    expect(before.status).toBe(503);
    expect(before.body.errors[0]).toMatchObject({ extensions: { code: 'SERVICE_UNAVAILABLE' }, message: expect.stringMatching(/models loading/) });
    expect((await t.http().get('/readyz')).body).toEqual({ detail: 'Not ready: models loading' });

    const training = t.services.models.train();
    // the worker thread trains; the server keeps answering meanwhile
    expect((await t.http().get('/healthz')).status).toBe(200);
    expect((await predict(2900)).status).toBe(503);
    const version = await training;
    expect(version.metrics).toMatchObject({ trainingMs: expect.any(Number), samples: { all: expect.any(Number) }, calibrationPeriod: { royal_assent: { n: expect.any(Number) } } });

    const after = await predict(2900);
    expect(after.status).toBe(200);
    expect(after.body.data.prediction).toMatchObject({ billId: 2900, mode: 'nowcast', referenceDate: '2021-12-31', status: 'LIVE', modelVersion: version.id });
    expect((await t.http().get('/readyz')).status).toBe(200);
  });
});

describe('a served model', () => {
  it('gives probabilities in [0, 1], levels by the specified rule, and an ETA for a live bill', async () => {
    const p = (await predict(2900)).body.data.prediction;
    for (const field of ['royalAssent', 'nextStage30d', 'stallRisk', 'amendmentRisk', 'closeVote', 'withdrawalRisk']) {
      expect(p[field]).toBeGreaterThanOrEqual(0);
      expect(p[field]).toBeLessThanOrEqual(1);
    }
    const level = (x: number) => (x < 0.3 ? 'LOW' : x > 0.7 ? 'HIGH' : 'MEDIUM');
    expect(p.riskIndicators).toMatchObject({ stallRiskLevel: level(p.stallRisk), withdrawalRiskLevel: level(p.withdrawalRisk), amendmentRiskLevel: level(p.amendmentRisk), closeVoteLevel: level(p.closeVote) });
    expect(p.timelineEtaDays).toBeGreaterThan(0);
  });

  it('knows a settled bill from its facts: enacted, withdrawn, or fallen with its session', async () => {
    expect((await predict(144)).body.data.prediction).toMatchObject({ status: 'ENACTED', royalAssent: 1, nextStage30d: 0, timelineEtaDays: null });
    expect((await predict(2950)).body.data.prediction).toMatchObject({ status: 'WITHDRAWN', royalAssent: 0, withdrawalRisk: 1 });
    expect((await predict(26)).body.data.prediction).toMatchObject({ status: 'FELL', royalAssent: 0, nextStage30d: 0 });
    // on a date before its Royal Assent, the same Act was still a live bill
    expect((await predict(144, '2006-11-01')).body.data.prediction.status).toBe('LIVE');
  });

  it.each([
    ['an unknown bill', 999_999, undefined, 404, 'NOT_FOUND', /bill 999999 does not exist/],
    ['a bill id of zero', 0, undefined, 400, 'BAD_USER_INPUT', /billId must be a positive integer/],
    ['a reference date after today', 2900, '2022-01-05', 400, 'BAD_USER_INPUT', /after today/],
    ['a date that does not exist', 2900, '2021-02-30', 400, 'BAD_USER_INPUT', /Date must be a calendar date/],
    ['a date before the bill was introduced', 2900, '2020-01-01', 400, 'BAD_USER_INPUT', /introduced on 2021-06-16, after the reference date 2020-01-01/],
  ])('refuses %s', async (_name, id, date, status, code, message) => {
    const res = await predict(id as number, date as string | undefined);
    expect(res.status).toBe(status);
    expect(res.body.errors[0]).toMatchObject({ extensions: { code }, message: expect.stringMatching(message as RegExp) });
  });

  it('does not change a nowcast for an earlier date when later facts are loaded', async () => {
    const date = '2021-11-25';
    const before = (await predict(2900, date)).body.data.prediction;
    // facts dated after `date`: bill 2900 reaches committee and report, and a new bill appears
    const later = makeSnapshot([...SAMPLE_BILL_IDS, 2901], {
      edit: (bill) =>
        bill.billId === 2900
          ? {
              ...bill,
              stages: [
                ...bill.stages,
                { ...bill.stages[0], seq: 90, billStageId: 990_001, stageId: 8, stage: 'committee', description: 'Committee stage', dates: ['2021-12-08'] },
                { ...bill.stages[0], seq: 91, billStageId: 990_002, stageId: 9, stage: 'report', description: 'Report stage', dates: ['2021-12-20'] },
              ],
            }
          : bill,
    });
    const report = await ingest(t.db.dataSource, new SnapshotSource(later));
    expect(report.billsChanged).toBe(2);
    await t.services.predictions.checkDataState(); // what the server does after a sync, and every 2 seconds
    const after = (await predict(2900, date)).body.data.prediction;
    expect(after).toEqual(before);
    // …while today's nowcast does see the new stages
    expect((await predict(2900)).body.data.prediction.riskIndicators.momentumScore).toBeGreaterThan(0);
  });

  it("follows a ballot bill's place in the order of presentation when a sync brings the bills presented before it", async () => {
    const before = (await predict(2900)).body.data.prediction;
    // 2895–2899 were presented before 2900 in the 2021-22 session: 2900 goes from first to fifth of the data
    await ingest(t.db.dataSource, new SnapshotSource(makeSnapshot([...SAMPLE_BILL_IDS, 2901, 2895, 2896, 2897, 2899])));
    await t.services.predictions.checkDataState();
    const after = (await predict(2900)).body.data.prediction;
    expect(after.royalAssent).not.toBe(before.royalAssent);
    const why = await t.graphql(`query { prediction(billId: 2900) { explanations { royalAssent { factor } } } }`, { key });
    expect(JSON.stringify(why.body)).not.toMatch(/presented 1st/);
  });

  it('switches to a newer version trained elsewhere without a restart, and a restart loads the stored version', async () => {
    const served = (await predict(2900)).body.data.prediction.modelVersion;
    // another process (the CLI on PostgreSQL) trains and stores a version
    const elsewhere = new ModelService(t.db.dataSource, new Readiness(), t.services.clock, t.services.logger, { ...TEST_TRAINING, seed: 99 });
    const newer = await elsewhere.train();
    expect(newer.id).toBeGreaterThan(served);
    expect((await predict(2900)).body.data.prediction.modelVersion).toBe(served);
    await t.services.models.followPromotions(); // what the server's poll does every 2 seconds
    expect((await predict(2900)).body.data.prediction.modelVersion).toBe(newer.id);

    const restarted = new ModelService(t.db.dataSource, new Readiness(), t.services.clock, t.services.logger);
    await restarted.start({ trainIfMissing: true });
    expect(restarted.activeVersion()?.id).toBe(newer.id);
    expect(await t.db.dataSource.getRepository(ModelVersionEntity).count()).toBe(2);
  });
});
