import * as WEB from '../../web/src/operations';
import { startTestApp, type TestApp } from '../support/test-app';

// The test app's today is its snapshot's day, 2021-12-31.
let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await startTestApp();
  key = await t.userWithKey('pilot');
  const row = (date: string, firstSeen: string, superseded: boolean) =>
    t.db.dataSource.query(
      `INSERT INTO scheduled_sitting (bill_id, bill_stage_id, stage, house, scheduled_for, first_seen_at, first_seen_day, superseded_at) VALUES (2900, 1, 'second_reading', 'Commons', $1, now(), $2, $3)`,
      [date, firstSeen, superseded ? new Date() : null],
    );
  await row('2021-12-10', '2021-12-01', false); // has come: no longer scheduled
  await row('2022-01-14', '2021-12-20', true); // moved: superseded by the next
  await row('2022-01-21', '2021-12-28', false);
});
afterAll(() => t.close());

it('Bill.scheduledSittings answers the standing sittings after today with the day the service first saw them, as the dashboard’s bill page asks', async () => {
  const res = await t.graphql(WEB.BILL, { key, variables: { id: 2900 } });
  expect(res.body.errors).toBeUndefined();
  expect(res.body.data.bill.scheduledSittings).toEqual([{ stage: 'second_reading', house: 'COMMONS', date: '2022-01-21', firstSeen: '2021-12-28' }]);

  const none = await t.graphql('{ bill(id: 2950) { scheduledSittings { date } } }', { key });
  expect(none.body.data.bill.scheduledSittings).toEqual([]);
});
