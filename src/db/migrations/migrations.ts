import { InitialSchema1763805600000 } from './1763805600000-initial-schema';
import { ModelVersion1763892000000 } from './1763892000000-model-version';
import { QuotaCounter1763978400000 } from './1763978400000-quota-counter';
import { WatchlistsAndAlerts1764064800000 } from './1764064800000-watchlists-and-alerts';
import { ServiceEvents1764151200000 } from './1764151200000-service-events';
import { Webhooks1764237600000 } from './1764237600000-webhooks';
import { DashboardAccounts1764324000000 } from './1764324000000-dashboard-accounts';
import { LoginFailures1764496800000 } from './1764496800000-login-failures';
import { RetentionIndexes1764583200000 } from './1764583200000-retention-indexes';
import { WebhookAttempts1790371562000 } from './1790371562000-webhook-attempts';
import { ModelVersionStatus1790500417000 } from './1790500417000-model-version-status';
import { SessionInference1790533187000 } from './1790533187000-session-inference';
import { ScheduledSittings1790561234000 } from './1790561234000-scheduled-sittings';
import { ScheduledSittingSupersededDay1790600000000 } from './1790600000000-scheduled-sitting-superseded-day';
import { StageSittingFirstSeen1790650000000 } from './1790650000000-stage-sitting-first-seen';
import { StageFirstSittingIndexes1790700000000 } from './1790700000000-stage-first-sitting-indexes';
import { WatchlistFeeds1790750000000 } from './1790750000000-watchlist-feeds';
import { WebhookFormats1790800000000 } from './1790800000000-webhook-formats';
import { MailOutbox1790850000000 } from './1790850000000-mail-outbox';
import { WatchlistNotifications1790850001000 } from './1790850001000-watchlist-notifications';
import { MailDigests1790900000000 } from './1790900000000-mail-digests';
import { DigestCoverage1790950000000 } from './1790950000000-digest-coverage';
import { SessionDissolutions1791000000000 } from './1791000000000-session-dissolutions';
import { ForecastsOfRecord1791050000000 } from './1791050000000-forecasts-of-record';

/** Every migration in order, listed (not globbed) so the same list works compiled and under ts-jest. */
export const MIGRATIONS: Function[] = [InitialSchema1763805600000, ModelVersion1763892000000, QuotaCounter1763978400000, WatchlistsAndAlerts1764064800000, ServiceEvents1764151200000, Webhooks1764237600000, DashboardAccounts1764324000000, LoginFailures1764496800000, RetentionIndexes1764583200000, WebhookAttempts1790371562000, ModelVersionStatus1790500417000, SessionInference1790533187000, ScheduledSittings1790561234000, ScheduledSittingSupersededDay1790600000000, StageSittingFirstSeen1790650000000, StageFirstSittingIndexes1790700000000, WatchlistFeeds1790750000000, WebhookFormats1790800000000, MailOutbox1790850000000, WatchlistNotifications1790850001000, MailDigests1790900000000, DigestCoverage1790950000000, SessionDissolutions1791000000000, ForecastsOfRecord1791050000000];
