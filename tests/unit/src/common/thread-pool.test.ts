import { passwordJobs, sizeThreadPool } from '../../../../src/common/thread-pool';

it('sizes the pool for two password jobs beside libuv’s usual four, unless the operator chose a size', () => {
  const unset: NodeJS.ProcessEnv = {};
  sizeThreadPool(unset);
  expect(unset.UV_THREADPOOL_SIZE).toBe('6');
  expect(passwordJobs(unset)).toBe(2);
  const chosen: NodeJS.ProcessEnv = { UV_THREADPOOL_SIZE: '3' };
  sizeThreadPool(chosen);
  expect(chosen.UV_THREADPOOL_SIZE).toBe('3');
  // the password queue leaves two threads to the file system and DNS, and always runs one job
  expect(passwordJobs(chosen)).toBe(1);
  expect(passwordJobs({ UV_THREADPOOL_SIZE: '1' })).toBe(1);
  expect(passwordJobs({})).toBe(2);
});
