import { AppError } from '../errors';
import type { Logger } from '../logger';
import type { Readiness } from './readiness';

type State = 'connecting' | 'up' | 'down';

/** A short, public reason for a connection failure: the error code (ECONNREFUSED) rather than addresses or URLs. */
export function connectionFailureReason(cause: unknown): string {
  if (cause && typeof cause === 'object') {
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && /^[A-Z0-9_]+$/.test(code)) return code;
    if (typeof message === 'string' && message.length > 0) return message.replace(/\s*\(?\b(?:[a-z]+:\/\/\S+|\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?)\)?/gi, '').trim() || 'connection failed';
  }
  return 'connection failed';
}

/**
 * The state of one external dependency (Redis, PostgreSQL) as its connection reports it. Each
 * change of state is one log line and moves /readyz (a 503 naming the dependency while it is
 * down); requests that need the dependency ask `isUp()` and fail fast with `unavailable()` rather
 * than waiting on a connection that is not there.
 */
export class DependencyHealth {
  private state: State = 'connecting';

  constructor(
    /** as operators call it, e.g. "Redis" */
    readonly name: string,
    private readonly readiness: Readiness,
    private readonly logger: Logger,
  ) {
    readiness.block(this.part, `${name} is not connected yet`);
  }

  private get part(): string {
    return `dependency:${this.name}`;
  }

  isUp(): boolean {
    return this.state === 'up';
  }

  /** Still making its first connection: a request may wait a moment for it. */
  isConnecting(): boolean {
    return this.state === 'connecting';
  }

  up(): void {
    if (this.state === 'up') return;
    const recovered = this.state === 'down';
    this.state = 'up';
    this.readiness.unblock(this.part);
    this.logger.info({ dependency: this.name }, recovered ? `${this.name} is reachable again` : `${this.name} connected`);
  }

  /** Logs only the change to down; a later failure while down only refreshes the reason /readyz gives. */
  down(cause: unknown): void {
    const reason = connectionFailureReason(cause);
    this.readiness.block(this.part, `${this.name} is unreachable (${reason})`);
    if (this.state === 'down') return;
    this.state = 'down';
    const message = cause instanceof Error ? cause.message : String(cause);
    this.logger.warn({ dependency: this.name, reason: message }, `${this.name} is unreachable; retrying`);
  }

  /** The 503 a request that needs the dependency answers while it is down. */
  unavailable(): AppError {
    return new AppError('SERVICE_UNAVAILABLE', `Service unavailable: ${this.name} is unreachable; retry shortly`);
  }
}
