import { plannedVintages, versionFor } from '../../../../src/services/model-vintages';

describe('which stored version answers a past date', () => {
  const versions = [
    { id: 1, trainingCutoff: '2021-12-31' },
    { id: 2, trainingCutoff: '2021-05-10' },
    { id: 3, trainingCutoff: '2019-12-16' },
    { id: 4, trainingCutoff: '2021-05-10' },
  ];

  it('is the one with the latest cutoff on or before the date (the newest of equal cutoffs)', () => {
    expect(versionFor('2021-06-01', versions)?.id).toBe(4);
    expect(versionFor('2021-05-10', versions)?.id).toBe(4);
    expect(versionFor('2021-05-09', versions)?.id).toBe(3);
    expect(versionFor('2021-12-31', versions)?.id).toBe(1);
  });

  it('is none before every cutoff: the serving model answers, in sample', () => {
    expect(versionFor('2019-12-15', versions)).toBeNull();
    expect(versionFor('2021-01-01', [])).toBeNull();
  });
});

describe('the vintages the sessions call for', () => {
  const sessions = [
    { id: 30, startDate: '2017-06-13', endDate: '2019-10-08' },
    { id: 34, startDate: '2019-10-14', endDate: '2019-11-05' },
    { id: 35, startDate: '2019-12-17', endDate: '2021-04-29' },
    { id: 36, startDate: '2021-05-11', endDate: null },
    { id: 37, startDate: '2022-05-10', endDate: null },
  ];

  it('one per begun session, trained through the eve of its start, newest first; none where no session had ended before it', () => {
    expect(plannedVintages(sessions, '2021-12-31')).toEqual([
      { sessionId: 36, cutoff: '2021-05-10' },
      { sessionId: 35, cutoff: '2019-12-16' },
      { sessionId: 34, cutoff: '2019-10-13' },
    ]);
  });

  it('knows session ends only as of each cutoff: a session still running at the next one’s start does not count as ended', () => {
    // session 2 began before session 1 ended: as of 2020-05-31 no session had ended, so neither gets one
    const overlapping = [
      { id: 1, startDate: '2020-01-01', endDate: '2020-06-30' },
      { id: 2, startDate: '2020-06-01', endDate: null },
    ];
    expect(plannedVintages(overlapping, '2021-01-01')).toEqual([]);
  });
});
