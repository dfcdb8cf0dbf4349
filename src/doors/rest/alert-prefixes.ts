/** Specification 9 lists the alert operations under /predictions/alerts and again under /alerts: both answer every one. */
export const ALERT_PATH_PREFIXES = ['/predictions/alerts', '/alerts'] as const;
