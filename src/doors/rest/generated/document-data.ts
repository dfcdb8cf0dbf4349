// Generated from schema/schema.graphql and src/doors/rest/documents.ts by `npm run schema` (src/cli/rest-document-types.ts): do not edit.

/** timeline_eta (days to the next stage), probability (Royal Assent), the four risks (probabilities), and for Pro trend (rise over recent snapshots) and spike (jump between two snapshots) */
export type AlertType = 'AMENDMENT_RISK' | 'CLOSE_VOTE' | 'PROBABILITY' | 'SPIKE' | 'STALL_RISK' | 'TIMELINE_ETA' | 'TREND' | 'WITHDRAWAL_RISK';

/** success; error (e.g. the bill does not exist: see detail); blocked (the daily prediction quota was used up before this bill) */
export type BatchItemStatus = 'BLOCKED' | 'ERROR' | 'SUCCESS';

/** Where the bill stood on the reference date, from the facts known then */
export type BillStatusAsOf = 'ENACTED' | 'FELL' | 'LIVE' | 'WITHDRAWN';

export type Comparison = 'GREATER_THAN' | 'LESS_THAN';

/** How a watchlist’s events are emailed: OFF; INSTANT as they happen; a DAILY or WEEKLY digest at its time (Europe/London) */
export type EmailDelivery = 'DAILY' | 'INSTANT' | 'OFF' | 'WEEKLY';

/** UNVERIFIED until a verification link is opened (only the verification email is sent meanwhile); VERIFIED; SUPPRESSED after the address was refused for good (a 5xx), until verified again */
export type EmailStatus = 'SUPPRESSED' | 'UNVERIFIED' | 'VERIFIED';

/** Event types of webhooks and subscriptions; PREDICTION_PROBABILITY_SPIKE, PREDICTION_TRENDING_UP and PREDICTION_CROSSED_THRESHOLD need the pro tier */
export type EventType = 'BILL_STAGE_CHANGED' | 'BILL_STAGE_SCHEDULED' | 'PREDICTION_CROSSED_THRESHOLD' | 'PREDICTION_HIGH_PROBABILITY' | 'PREDICTION_IMMINENT_STAGE_CHANGE' | 'PREDICTION_PROBABILITY_SPIKE' | 'PREDICTION_TRENDING_UP' | 'PREDICTION_UPDATED';

/** House of Parliament (Royal Assent and some private-bill steps are Unassigned) */
export type House = 'COMMONS' | 'LORDS' | 'UNASSIGNED';

/** A main stage of a bill’s passage; procedural motions are not among them */
export type MainStage = 'COMMITTEE' | 'CONSIDERATION_OF_AMENDMENTS' | 'FIRST_READING' | 'REPORT' | 'ROYAL_ASSENT' | 'SECOND_READING' | 'THIRD_READING';

/** low below 0.3, medium from 0.3 to 0.7, high above 0.7 */
export type RiskLevel = 'HIGH' | 'LOW' | 'MEDIUM';

/** Subscription tier */
export type Tier = 'FREE' | 'PILOT' | 'PRO';

/** today < 1 day, week ≤ 7, two_weeks ≤ 14, month ≤ 30; null beyond */
export type TimeBucket = 'MONTH' | 'TODAY' | 'TWO_WEEKS' | 'WEEK';

/** critical ≤ 1 day, urgent ≤ 3, soon ≤ 7, tracking ≤ 30, else none */
export type UrgencyLevel = 'CRITICAL' | 'NONE' | 'SOON' | 'TRACKING' | 'URGENT';

/** What an endpoint’s deliveries look like: STANDARD, the event’s JSON signed (Standard Webhooks); SLACK, a Slack incoming-webhook message; TEAMS, a Teams Workflows message with an Adaptive Card. SLACK and TEAMS are unsigned, need https and a host on the service’s CHAT_WEBHOOK_HOSTS */
export type WebhookFormat = 'SLACK' | 'STANDARD' | 'TEAMS';

/** A day of the week (a weekly digest’s) */
export type Weekday = 'FRIDAY' | 'MONDAY' | 'SATURDAY' | 'SUNDAY' | 'THURSDAY' | 'TUESDAY' | 'WEDNESDAY';

/** fragment ModelFields on PredictionModel */
export type ModelFields = {
  version: number;
  trainedThrough: string;
  outOfSample: boolean;
};

/** fragment PredictionFields on Prediction */
export type PredictionFields = {
  billId: number;
  billTitle: string;
  originatingHouse: House;
  referenceDate: string;
  status: BillStatusAsOf;
  royalAssent: number;
  nextStage30d: number;
  timelineEtaDays: number | null;
  stallRisk: number;
  amendmentRisk: number;
  closeVote: number;
  withdrawalRisk: number;
  riskIndicators: RiskIndicatorFields;
  lastStage: {
    stage: MainStage;
    house: string;
    date: string;
  } | null;
  model: ModelFields;
};

/** fragment RiskIndicatorFields on RiskIndicators */
export type RiskIndicatorFields = {
  controversyScore: number;
  momentumScore: number;
  stallRiskLevel: RiskLevel;
  withdrawalRiskLevel: RiskLevel;
  amendmentRiskLevel: RiskLevel;
  closeVoteLevel: RiskLevel;
};

/** fragment ThresholdFields on AlertThreshold */
export type ThresholdFields = {
  id: number;
  watchlistId: number;
  billId: number | null;
  alertType: AlertType;
  thresholdValue: number;
  comparison: Comparison;
  createdAt: string;
  lastTriggeredAt: string | null;
  armed: boolean;
  quietBillIds: number[];
  active: boolean;
  inactiveReason: string | null;
};

/** fragment TriggerFields on AlertTrigger */
export type TriggerFields = {
  id: number;
  thresholdId: number;
  watchlistId: number;
  watchlistName: string;
  billId: number;
  alertType: AlertType;
  comparison: Comparison;
  thresholdValue: number;
  valueSeen: number;
  referenceDate: string;
  triggeredAt: string;
  source: string;
};

/** fragment WatchlistFields on Watchlist */
export type WatchlistFields = {
  id: number;
  name: string;
  description: string | null;
  billCount: number;
  createdAt: string;
  updatedAt: string;
  calendarUrl: string | null;
  feedUrl: string | null;
};

/** fragment WebhookFields on WebhookEndpoint */
export type WebhookFields = {
  id: number;
  url: string;
  format: WebhookFormat;
  events: EventType[];
  description: string | null;
  allBills: boolean;
  active: boolean;
  disabledReason: string | null;
  inactiveEvents: EventType[];
  inactiveReason: string | null;
  createdAt: string;
};

export type PredictOneData = {
  prediction: PredictionFields;
};

export type PredictOneExplainedData = {
  prediction: PredictionFields & {
    explanations: {
      royalAssent: {
        factor: string;
        effect: number;
      }[];
      nextStage30d: {
        factor: string;
        effect: number;
      }[];
      reference: {
        description: string;
        royalAssent: number;
        nextStage30d: number;
      } | null;
    };
    timelineEtaExplanation: string | null;
  };
};

export type PredictBatchData = {
  predictions: {
    items: {
      billId: number;
      status: BatchItemStatus;
      detail: string | null;
      prediction: PredictionFields | null;
    }[];
    summary: {
      total: number;
      success: number;
      errors: number;
      blocked: number;
    };
    executionTimeMs: number;
    model: ModelFields;
  };
};

export type ImminentData = {
  imminentBills: {
    count: number;
    bills: {
      billId: number;
      timelineEtaDays: number;
      royalAssentProbability: number;
      nextStageProbability: number;
      predictedDate: string;
      urgencyLevel: UrgencyLevel;
      countdownDays: number;
      timeBucket: TimeBucket | null;
      urgencyScore: number;
      stallRisk: number;
      amendmentRisk: number;
      closeVote: number;
      withdrawalRisk: number;
      riskIndicators: RiskIndicatorFields;
    }[];
    model: ModelFields;
  };
};

export type ListWatchlistsData = {
  watchlists: WatchlistFields[];
};

export type GetWatchlistData = {
  watchlist: WatchlistFields & {
    bills: {
      billId: number;
      addedAt: string;
      bill: {
        title: string;
      } | null;
      prediction: PredictionFields | null;
      predictionDetail: string | null;
    }[];
  };
};

export type GetWatchlistBillsData = {
  watchlist: WatchlistFields & {
    bills: {
      billId: number;
      addedAt: string;
      bill: {
        title: string;
      } | null;
    }[];
  };
};

export type CreateWatchlistData = {
  createWatchlist: WatchlistFields & {
    bills: {
      billId: number;
      addedAt: string;
      bill: {
        title: string;
      } | null;
    }[];
  };
};

export type DeleteWatchlistData = {
  deleteWatchlist: boolean;
};

export type AddWatchlistBillsData = {
  addBillsToWatchlist: WatchlistFields & {
    bills: {
      billId: number;
      addedAt: string;
      bill: {
        title: string;
      } | null;
    }[];
  };
};

export type RemoveWatchlistBillData = {
  removeBillFromWatchlist: WatchlistFields & {
    bills: {
      billId: number;
      addedAt: string;
      bill: {
        title: string;
      } | null;
    }[];
  };
};

export type CreateThresholdData = {
  createAlertThreshold: ThresholdFields;
};

export type ListThresholdsData = {
  alertThresholds: ThresholdFields[];
};

export type DeleteThresholdData = {
  deleteAlertThreshold: boolean;
};

export type CheckAlertsData = {
  checkAlerts: {
    checkedAt: string;
    thresholdsChecked: number;
    billsChecked: number;
    billsBlocked: number[];
    triggered: TriggerFields[];
  };
};

export type AlertHistoryData = {
  alertHistory: {
    totalCount: number;
    nextCursor: string | null;
    triggers: TriggerFields[];
    analytics: {
      byType: {
        key: string;
        count: number;
      }[];
      byBill: {
        key: string;
        count: number;
      }[];
      byDay: {
        key: string;
        count: number;
      }[];
    };
  };
};

export type ListWebhooksData = {
  webhooks: WebhookFields[];
};

export type GetWebhookData = {
  webhook: WebhookFields;
};

export type CreateWebhookData = {
  createWebhook: {
    secret: string;
    endpoint: WebhookFields;
  };
};

export type UpdateWebhookData = {
  updateWebhook: WebhookFields;
};

export type DeleteWebhookData = {
  deleteWebhook: boolean;
};

export type RotateWebhookSecretData = {
  rotateWebhookSecret: {
    secret: string;
    endpoint: WebhookFields;
  };
};

export type TestWebhookData = {
  testWebhook: {
    eventId: string;
    eventType: string;
  };
};

export type WebhookDeliveriesData = {
  webhookDeliveries: {
    eventId: string;
    eventType: string;
    format: WebhookFormat;
    status: string;
    attempt: number;
    statusCode: number | null;
    error: string | null;
    durationMs: number | null;
    attemptedAt: string | null;
    nextAttemptAt: string | null;
    createdAt: string;
    attempts: {
      attempt: number;
      statusCode: number | null;
      error: string | null;
      durationMs: number;
      attemptedAt: string;
    }[];
  }[];
};

export type RecoverWebhookDeliveriesData = {
  recoverWebhookDeliveries: number;
};

export type ExportWatchlistData = {
  watchlist: {
    id: number;
    bills: {
      billId: number;
      bill: {
        title: string;
        prediction: PredictionFields;
      } | null;
    }[];
  };
};

export type ExportPredictionHistoryData = {
  bill: {
    id: number;
    title: string;
    predictionHistory: {
      referenceDate: string;
      status: BillStatusAsOf;
      royalAssent: number;
      nextStage30d: number;
      model: {
        version: number;
        outOfSample: boolean;
      };
    }[];
  } | null;
};

export type RotateFeedTokenData = {
  rotateWatchlistFeedToken: WatchlistFields;
};

export type RevokeFeedTokenData = {
  revokeWatchlistFeedToken: boolean;
};

export type GetAccountData = {
  me: {
    id: number;
    email: string;
    tier: Tier;
    emailStatus: EmailStatus;
  } | null;
};

export type GetOutboxData = {
  me: {
    outbox: {
      id: number;
      to: string;
      subject: string;
      text: string;
      messageId: string;
      eventId: string;
      deliveredAt: string;
    }[];
  } | null;
};

export type GetDigestPreviewData = {
  me: {
    nextDigest: {
      at: string;
      slot: string;
      watchlistIds: number[];
      subject: string;
      text: string;
      html: string;
    } | null;
  } | null;
};

export type ResendVerificationEmailData = {
  resendVerificationEmail: boolean;
};

export type SendTestEmailData = {
  sendTestEmail: {
    to: string;
    eventId: string;
  };
};

export type GetWatchlistNotificationsData = {
  watchlistNotifications: {
    watchlistId: number;
    email: EmailDelivery;
    time: string;
    day: Weekday;
    events: EventType[];
  };
};

export type SetWatchlistNotificationsData = {
  setWatchlistNotifications: {
    watchlistId: number;
    email: EmailDelivery;
    time: string;
    day: Weekday;
    events: EventType[];
  };
};

/** Each REST document's data, by operation name. */
export interface DocumentData {
  PredictOne: PredictOneData;
  PredictOneExplained: PredictOneExplainedData;
  PredictBatch: PredictBatchData;
  Imminent: ImminentData;
  ListWatchlists: ListWatchlistsData;
  GetWatchlist: GetWatchlistData;
  GetWatchlistBills: GetWatchlistBillsData;
  CreateWatchlist: CreateWatchlistData;
  DeleteWatchlist: DeleteWatchlistData;
  AddWatchlistBills: AddWatchlistBillsData;
  RemoveWatchlistBill: RemoveWatchlistBillData;
  CreateThreshold: CreateThresholdData;
  ListThresholds: ListThresholdsData;
  DeleteThreshold: DeleteThresholdData;
  CheckAlerts: CheckAlertsData;
  AlertHistory: AlertHistoryData;
  ListWebhooks: ListWebhooksData;
  GetWebhook: GetWebhookData;
  CreateWebhook: CreateWebhookData;
  UpdateWebhook: UpdateWebhookData;
  DeleteWebhook: DeleteWebhookData;
  RotateWebhookSecret: RotateWebhookSecretData;
  TestWebhook: TestWebhookData;
  WebhookDeliveries: WebhookDeliveriesData;
  RecoverWebhookDeliveries: RecoverWebhookDeliveriesData;
  ExportWatchlist: ExportWatchlistData;
  ExportPredictionHistory: ExportPredictionHistoryData;
  RotateFeedToken: RotateFeedTokenData;
  RevokeFeedToken: RevokeFeedTokenData;
  GetAccount: GetAccountData;
  GetOutbox: GetOutboxData;
  GetDigestPreview: GetDigestPreviewData;
  ResendVerificationEmail: ResendVerificationEmailData;
  SendTestEmail: SendTestEmailData;
  GetWatchlistNotifications: GetWatchlistNotificationsData;
  SetWatchlistNotifications: SetWatchlistNotificationsData;
}
