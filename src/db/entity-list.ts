import { AlertArmStateEntity } from './entities/alert-arm-state.entity';
import { AlertThresholdEntity } from './entities/alert-threshold.entity';
import { AlertTriggerEntity } from './entities/alert-trigger.entity';
import { EventRefreshEntity } from './entities/event-refresh.entity';
import { JobRunEntity } from './entities/job-run.entity';
import { ServiceEventEntity } from './entities/service-event.entity';
import { PredictionSnapshotEntity } from './entities/prediction-snapshot.entity';
import { WatchlistBillEntity } from './entities/watchlist-bill.entity';
import { WatchlistEntity } from './entities/watchlist.entity';
import { WebhookAttemptEntity } from './entities/webhook-attempt.entity';
import { WebhookDeliveryEntity } from './entities/webhook-delivery.entity';
import { WebhookEndpointEntity } from './entities/webhook-endpoint.entity';
import { AccountEntity } from './entities/account.entity';
import { ApiKeyEntity } from './entities/api-key.entity';
import { BillSponsorEntity } from './entities/bill-sponsor.entity';
import { BillStageEntity } from './entities/bill-stage.entity';
import { BillEntity } from './entities/bill.entity';
import { DivisionEntity } from './entities/division.entity';
import { ModelVersionEntity } from './entities/model-version.entity';
import { QuotaCounterEntity } from './entities/quota-counter.entity';
import { ParliamentarySessionEntity } from './entities/parliamentary-session.entity';
import { ScheduledSittingEntity } from './entities/scheduled-sitting.entity';
import { SessionDissolutionEntity } from './entities/session-dissolution.entity';
import { SyncStateEntity } from './entities/sync-state.entity';
import { DashboardSessionEntity } from './entities/dashboard-session.entity';
import { WebsiteBillViewEntity } from './entities/website-bill-view.entity';
import { WatchlistFeedEntity } from './entities/watchlist-feed.entity';
import { CalendarEventVersionEntity } from './entities/calendar-event-version.entity';
import { MailMessageEntity } from './entities/mail-message.entity';
import { LocalMailboxEntity } from './entities/local-mailbox.entity';
import { EmailVerificationEntity } from './entities/email-verification.entity';
import { WatchlistNotificationEntity } from './entities/watchlist-notification.entity';
import { MailDigestEntity } from './entities/mail-digest.entity';
import { ForecastBackfillDayEntity, ForecastOfRecordEntity } from './entities/forecast-of-record.entity';
import { MailDeferredEventEntity } from './entities/mail-deferred-event.entity';

/** Every entity, listed (not globbed) so the same list works compiled and under ts-jest. */
export const ENTITIES = [
  ParliamentarySessionEntity,
  SessionDissolutionEntity,
  BillEntity,
  BillSponsorEntity,
  BillStageEntity,
  DivisionEntity,
  ScheduledSittingEntity,
  AccountEntity,
  ApiKeyEntity,
  SyncStateEntity,
  ModelVersionEntity,
  QuotaCounterEntity,
  WatchlistEntity,
  WatchlistBillEntity,
  AlertThresholdEntity,
  AlertArmStateEntity,
  AlertTriggerEntity,
  PredictionSnapshotEntity,
  JobRunEntity,
  WebhookEndpointEntity,
  WebhookDeliveryEntity,
  WebhookAttemptEntity,
  ServiceEventEntity,
  EventRefreshEntity,
  DashboardSessionEntity,
  WebsiteBillViewEntity,
  WatchlistFeedEntity,
  CalendarEventVersionEntity,
  MailMessageEntity,
  LocalMailboxEntity,
  EmailVerificationEntity,
  WatchlistNotificationEntity,
  MailDeferredEventEntity,
  MailDigestEntity,
  ForecastOfRecordEntity,
  ForecastBackfillDayEntity,
];
