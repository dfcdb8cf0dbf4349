import { FakeBillsApi } from '../src/ingest/bills-api/fake-bills-api';
import { everyBillChanged, manyBills } from './bench-many-bills';

/**
 * A fake Bills API of BENCH_SYNC_BILLS bills in a process of its own, as the real one is far from
 * the load generator: served from the bench's process, its answers to a sync would hold up the load
 * generator's own event loop and count as the server's latency. Messages: it sends `{ baseUrl, membersApiUrl }` once
 * listening; on "change" every bill changes, and it answers "changed".
 */
async function main(): Promise<void> {
  const api = new FakeBillsApi(manyBills(Number(process.env.BENCH_SYNC_BILLS ?? 3_000)));
  await api.start();
  process.on('message', (message) => {
    if (message !== 'change') return;
    everyBillChanged(api);
    process.send!('changed');
  });
  process.on('disconnect', () => void api.stop().then(() => process.exit(0)));
  process.send!({ baseUrl: api.baseUrl, membersApiUrl: api.membersApiUrl });
}

void main();
