import { FEATURE_NAMES } from '../../src/model/serve/features';

/**
 * What no real bill's feature vector can break: each rule reads features by name and is skipped
 * when a feature it names is not in the list, so it checks any version of the features. Returns
 * the rules a vector breaks (empty: the vector could be a real bill's).
 */
export function impossibilities(features: readonly number[]): string[] {
  const has = (name: string) => FEATURE_NAMES.includes(name);
  const f = (name: string) => features[FEATURE_NAMES.indexOf(name)];
  const broken: string[] = [];
  const rule = (names: string[], holds: () => boolean, what: string) => {
    if (names.every(has) && !holds()) broken.push(what);
  };
  const near = (a: number, b: number) => Math.abs(a - b) < 1e-9;
  const isBinary = (name: string) => f(name) === 0 || f(name) === 1;

  const oneHot = (prefix: string) => {
    const names = FEATURE_NAMES.filter((n) => n.startsWith(prefix));
    if (names.length && !(names.every(isBinary) && names.reduce((sum, n) => sum + f(n), 0) === 1)) broken.push(`exactly one of ${prefix}* is 1`);
  };
  oneHot('kind_');
  // a bill with no main stage yet has no last stage
  const lastStages = FEATURE_NAMES.filter((n) => n.startsWith('last_stage_'));
  const lastStagesSet = lastStages.reduce((sum, n) => sum + f(n), 0);
  if (!(lastStages.every(isBinary) && lastStagesSet <= 1)) broken.push('at most one of last_stage_* is 1');
  for (const name of ['originates_in_lords', 'sponsor_party_in_government', 'sponsor_party_unknown', 'in_second_house', 'report_reached', 'carried_over', 'ballot_first_fridays', 'session_after_election']) {
    rule([name], () => isBinary(name), `${name} is 0 or 1`);
  }
  const progress = () => f('progress') * 12;
  rule(['progress'], () => (lastStagesSet === 0) === near(progress(), 0), 'no last stage exactly at position 0');
  rule(['progress'], () => near(progress(), Math.round(progress())) && progress() >= 0 && progress() <= 11, 'a live bill is at a whole passage position from 0 to 11');
  rule(['progress', 'in_second_house'], () => f('in_second_house') === (progress() > 5.5 && progress() < 10.5 ? 1 : 0), 'in the second house exactly at positions 6–10');
  rule(['progress', 'report_reached'], () => f('report_reached') === 0 || progress() > 3.5, 'a report stage only after committee');
  rule(['progress', 'committee_sittings'], () => f('committee_sittings') === 0 || progress() > 2.5, 'committee sittings only from committee stage on');
  rule(['progress', 'ping_pong_rounds'], () => f('ping_pong_rounds') === 0 || progress() > 10.5, 'ping-pong only at position 11');
  rule(['sponsor_party_unknown', 'sponsor_party_in_government'], () => !(f('sponsor_party_unknown') === 1 && f('sponsor_party_in_government') === 1), 'an unknown party is not in government');
  rule(['days_since_introduction', 'days_since_last_main_stage'], () => f('days_since_last_main_stage') <= f('days_since_introduction') + 1e-9, 'the last main stage is not before the introduction');
  rule(['days_since_last_main_stage', 'days_since_last_sitting'], () => f('days_since_last_sitting') <= f('days_since_last_main_stage') + 1e-9, 'the last sitting is not before the last main stage');
  rule(['main_sittings_last_30_days', 'main_sittings_last_90_days'], () => f('main_sittings_last_30_days') * 5 <= f('main_sittings_last_90_days') * 10 + 1e-9, 'no more main sittings in 30 days than in 90');
  rule(['main_sittings_last_90_days', 'main_sittings'], () => f('main_sittings_last_90_days') === 0 || f('main_sittings') > 0, 'recent main sittings are main sittings');
  rule(['main_sittings_last_30_days', 'days_since_last_main_stage'], () => f('main_sittings_last_30_days') === 0 || f('days_since_last_main_stage') < Math.log1p(30) / Math.log1p(1000), 'a main sitting in the last 30 days means the last main stage is that recent');
  rule(['ballot_position', 'kind_pmb_ballot'], () => f('ballot_position') === 0 || f('kind_pmb_ballot') === 1, 'a ballot place only for a ballot bill');
  rule(['ballot_first_fridays', 'ballot_position'], () => f('ballot_first_fridays') === 0 || (f('ballot_position') > 0 && f('ballot_position') <= 7 / 20 + 1e-9), 'a first Friday only for the first seven in the ballot');
  rule(['day_of_year_sin', 'day_of_year_cos'], () => near((2 * f('day_of_year_sin') - 1) ** 2 + (2 * f('day_of_year_cos') - 1) ** 2, 1), 'the day of the year is a point on the circle');
  return broken;
}
