import type { DataSource } from 'typeorm';
import type { ServiceClock } from '../clock';
import type { Logger } from '../logger';
import type { Readiness } from '../readiness';
import { AccountService } from './account.service';
import { ApiKeyService } from './api-key.service';
import { BillService } from './bill.service';

/** The domain API every door (GraphQL, REST, admin, CLI) uses; none of it sees a request. */
export interface Services {
  dataSource: DataSource;
  clock: ServiceClock;
  readiness: Readiness;
  logger: Logger;
  accounts: AccountService;
  apiKeys: ApiKeyService;
  bills: BillService;
}

export function createServices(deps: { dataSource: DataSource; clock: ServiceClock; readiness: Readiness; logger: Logger }): Services {
  const accounts = new AccountService(deps.dataSource);
  return {
    ...deps,
    accounts,
    apiKeys: new ApiKeyService(deps.dataSource, accounts),
    bills: new BillService(deps.dataSource),
  };
}
