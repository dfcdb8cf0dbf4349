import { sightingWindow } from '../../../../src/services/scheduled-sightings';

describe('sightingWindow: the days of sightings a refresh announces', () => {
  it('after an earlier day, every day since it, that day included, passing over what that day announced', () => {
    // a sync on the 14th after the 14th's refresh: the 16th's refresh announces it
    expect(sightingWindow('2026-10-14', '2026-10-16')).toEqual({ from: '2026-10-14', announcedOn: '2026-10-14' });
  });

  it('on the same day again, that day less what it announced; on a first refresh or a day gone back, that day', () => {
    expect(sightingWindow('2026-10-14', '2026-10-14')).toEqual({ from: '2026-10-14', announcedOn: '2026-10-14' });
    expect(sightingWindow(null, '2026-10-14')).toEqual({ from: '2026-10-14', announcedOn: null });
    expect(sightingWindow('2026-10-20', '2026-10-14')).toEqual({ from: '2026-10-14', announcedOn: null });
  });
});
